"""The typed pieces a switch platform folder provides (hostlint/switches/<platform>/), and what each must define.

A platform folder is a Python package under hostlint/switches/ that holds `platform.py`; the registry
(hostlint.switches) finds it, and hostlint.switches.contract lists and checks its pieces. The interface
of each piece, as the names a folder's files define (docs/design/platform-folders.md, "The folder"):

- `platform.py`: `PLATFORM = SwitchPlatform(name=<folder name>, ...)`: netmiko device type (`name` or an
  alias is a netmiko `CLASS_MAPPER` key), label, aliases, configuration vocabulary, semantics flags.
- `spec.yaml` and per command `<slug>.ttp`, `<slug>.txt` (the project's own sample): the commands, read
  strictly by hostlint.collect.switches.platforms.load_folder.
- `records.py`: `RECORDS: dict[str, type[Strict]]`, per ttp group the model of one record (exactly the
  template's variables).
- `assemble.py`: `build(records: dict[str, list[Strict]], context: object) -> Switch`, the vendor's records
  converted into the snapshot's `Switch` (the shared skeleton stays in hostlint.collect.switches).
- `names.py`: `NAMES = NameGrammar(...)`: abbreviations, channel form, neighbour port forms, script grammar.
- `hashes.py`: `HASHES = HashTable(...)`: the hash vocabulary, one table read left to right and written
  right to left.
- `members.py`: `MEMBER_FLAGS = MemberFlags(...)`: member-state flags and words.
- `mtu.py`: `MTU = MtuLimits(...)`: jumbo, header bytes, the MTU families; `PLATFORM` carries the same.
- `families.py` (needed when `fixes.yaml` reads `family`): `family(model: str | None) -> str | None`,
  `unknown_reason(model: str | None) -> str` and, optionally, `UNSUPPORTED: dict[family, dict[action,
  why]]` (what hostlint does not write for a family); a change on the platform gets `family` in its
  values (hostlint.fixes.families).
- `config.py`: `CONFIG = ConfigGrammar(...)`: what the fixes read of the platform's configuration
  grammar: the interface line that makes a trunk an edge port, how a rollback types an interface's
  collected lines back, the statements a speed/duplex change deletes, the multichassis id word, and how
  a VLAN is defined.
- `fixes.yaml`: per switch action (its name, `switch-port-mtu`) a `FixText` (change, verify, expect,
  rollback, rollback_expect; Jinja2), merged into the action when the actions load
  (hostlint.fixes.actions).
- `emulator.yaml` (cited): `terminal` (each session command netmiko sends -> the switch's answer) and
  `invalid` (the refusal of an unknown command, `{caret}` and `{word}` filled in), read by
  tests/switch_emulator/cli_text.py; and, as test code outside the wheel,
  `tests/switch_emulator/platforms/<platform>.py` defining `SESSION` (a ConfigSession subclass: the
  configuration grammar) and `RENDER(state: Switch, command: str) -> str | None` (show output).

This module imports only the shared leaves (hostlint.targets, hostlint.strict, hostlint.yamlfile).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from hostlint.strict import Strict
from hostlint.targets import Changes, Language, Renderer, Target, Vocabulary
from hostlint.yamlfile import read_yaml, validate

# A port-channel member's state, one vocabulary across platforms (IOS `P`/`bndl` -> bundled,
# `H`/`hot-sby` -> hot-standby, `s`/`susp` -> suspended, `I`/`indep`/`stand-alone` -> individual,
# `D`/down -> down). None: not a member, or the state was not shown.
MemberState = Literal["bundled", "hot-standby", "suspended", "individual", "down"]

# Which figure of a switch interface limits a frame: `mtu` (the interface MTU hostlint reads from the
# interface listing) or `l2_mtu` (a separate layer-2 figure: EOS `l2 mtu`, a global jumbo setting).
MtuFigure = Literal["mtu", "l2_mtu"]


@dataclass(frozen=True, kw_only=True)
class MtuFamily:
    """Which figure limits bridged frames on a family of a platform's switches (routed frames are always
    limited by the interface `mtu`). A family is recognised by its model (`show version`); the last family
    of a platform, with no `models`, is the rest."""

    family: str
    # A regular expression matched at the start of the switch's model; "" matches any model.
    models: str = ""
    bridged: MtuFigure
    # How the figure that limits bridged frames is set, and the command that shows it.
    bridged_setting: str
    bridged_source: str
    # Where the L2 figure is read from each interface's configuration, that line (`l2 mtu`), the frame
    # size it gives when the configuration is silent (the vendor's documented default) and the bytes of
    # a frame that are not IP packet (Ethernet header; an 802.1Q tag adds 4 on a trunk).
    l2_config: str | None = None
    l2_default_frame: int | None = None
    l2_header: int = 14
    # Whether hostlint's switch-port-mtu action writes the bridged figure (a global setting is left to a human).
    writes_bridged: bool = True
    # Why hostlint leaves the bridged figure to a human where it does not write it (said with the withheld fix).
    not_written: str = "a global setting"
    # Where a global L2 figure is read (hostlint.collect.switches.global_mtu): the network-qos policy under
    # NX-OS `system qos`, or IOS `show system mtu`. None: the figure is per interface.
    l2_global: Literal["network-qos", "system-mtu"] | None = None
    # The figure's name in findings and skips ("l2 mtu", "network-qos class-default mtu").
    figure: str = "mtu"
    # The figure that limits 10/100 ports where it is another (older Catalysts: `system mtu`; Gigabit and
    # faster ports: `system mtu jumbo`).
    fast_ethernet_figure: str | None = None
    reference: str

    def figure_at(self, interface: str, members: tuple[str, ...] = ()) -> str:
        """The name of the figure that limits bridged frames at `interface` (its long name; a channel's
        `members` say which ports it bundles)."""
        ports = members or (interface,)
        if self.fast_ethernet_figure and all(port.startswith("FastEthernet") for port in ports):
            return self.fast_ethernet_figure
        return self.figure if self.bridged == "l2_mtu" else "mtu"


_SWITCH_VOCABULARY = Vocabulary(comment="!", enter=("configure terminal",), leave=("end",))


@dataclass(frozen=True, kw_only=True)
class SwitchPlatform(Target):
    """A switch platform: collected over SSH and changed by pasted configuration blocks."""

    changes: Changes = "switch"
    language: Language = "cli"
    renderer: Renderer = "switch"
    file: str = "{device}{kind}.{platform}.txt"
    run: str = "step {number} of `{name}`"
    vocabulary: Vocabulary = _SWITCH_VOCABULARY
    # The vendor's short name in prose ("Junos rolls the commit back").
    label: str
    # Names other tools use for it: netmiko device types, napalm drivers, Ansible network OS names.
    aliases: tuple[str, ...] = ()
    # The collector folder under `collectors/` (spec.yaml, templates, samples) while it is not in its own
    # folder (docs/design/platform-folders.md).
    collector: str = ""
    # The port-channel interface for channel number N.
    channel_interface: str
    # The grammar of its interface names (hostlint.fixes.identifiers); `folder`: its own `names.py` `NAMES.script`.
    interface_names: Literal["cisco_like_interface", "folder"] = "cisco_like_interface"
    # The largest interface MTU, and the bytes of it that are not IP packet (Junos counts the
    # Ethernet header: media MTU).
    jumbo: int
    l2_header: int = 0
    # How its global port-channel hash is read (hostlint.collect.switches.assemble) and whether
    # hostlint writes the hash command (elsewhere it depends on the ASIC family: set by hand).
    # `folder`: the platform's own hashes.py reads and writes it (a platform that came as a folder).
    hash_source: Literal["ios", "nxos", "eos", "folder"]
    writes_hash: bool = False
    # The state of an LACP member whose partner does not answer: IOS keeps it stand-alone.
    unanswered_lacp_member: Literal["individual", "suspended"] = "suspended"
    # MTU is set on the port-channel and its members follow; IOS wants it on both.
    mtu_on_members: bool = False
    # Channel members carry their channel's switchport and VLAN lines (they must match it to bundle); where
    # they do not (EOS: the Port-Channel alone; Junos: the ae unit), a member leaving the channel falls back
    # to its own configuration, so removing a channel carries the channel's lines and MTU onto the members.
    members_match_channel: bool = False
    # How its configuration states a port's VLANs: `switchport ... vlan` lines on the port, or `vlan members`
    # under a logical unit (Junos `unit 0 family ethernet-switching vlan members`).
    vlan_syntax: Literal["switchport", "vlan members"] = "switchport"
    # Said with a native VLAN change where the platform's families write it differently.
    native_vlan_note: str | None = None
    # Its multi-chassis channel feature when hostlint does not write it (left to a human), else None.
    multichassis_by_hand: str | None = None
    # The command whose output holds each part of what is collected (named in unknown-fact reasons).
    sources: dict[str, str] = field(default_factory=dict)
    # Which figure limits bridged frames, per family (docs/mtu.md); routed frames: the interface `mtu`.
    mtu_families: tuple[MtuFamily, ...]

    @property
    def folder(self) -> str:
        return self.collector or self.name

    def mtu_family(self, model: str | None) -> MtuFamily | None:
        """The family of a switch of this model; None when the model is unknown and the families differ."""
        if len({f.bridged for f in self.mtu_families}) == 1:
            return self.mtu_families[-1] if model is None else self._match(model)
        return None if model is None else self._match(model)

    def limiting_figure(self, model: str | None, mode: str | None) -> tuple[MtuFigure, MtuFamily | None] | str:
        """The figure that limits frames at an interface in `mode` (access/trunk bridge, routed routes) on a
        switch of this model, with its family; or why that is unknown."""
        family = self.mtu_family(model)
        if mode == "routed":
            return "mtu", family
        if family is None:
            return "model not shown by `show version`"
        if family.bridged == "l2_mtu" and mode is None:
            return "switchport mode not shown"
        return family.bridged, family

    def _match(self, model: str) -> MtuFamily:
        return next(f for f in self.mtu_families if not f.models or re.match(f.models, model, re.IGNORECASE))


def command_slug(command: str) -> str:
    """File stem for a command's template and sample: `show lacp interfaces` -> `show_lacp_interfaces`."""
    return re.sub(r"[^a-z0-9_-]", "", re.sub(r"\s+", "_", command.strip().lower().replace("|", " ")))


class PlatformText(Strict):
    """Jinja2 templates for one platform: the change, how to verify it, and how to undo it.

    Where the undo is the change's mirror image (the same command with `before` where the change
    has `after`), `rollback` is left out: it is `change` rendered with `before` and `after`
    swapped, and a left-out `rollback_expect` is `expect` so swapped (hostlint.fixes.render).
    With `rollback` written out, a left-out `rollback_expect` means "the state from before the step".
    """

    change: str
    verify: str
    expect: str
    rollback: str | None = None
    rollback_expect: str | None = None

    @property
    def mirrored(self) -> bool:
        """Whether the rollback is the change with `before` and `after` swapped."""
        return self.rollback is None


# A folder's text for one switch action (`fixes.yaml`): the same model as an action file's per-platform text.
FixText = PlatformText


class FixTextError(ValueError):
    """A platform folder's `fixes.yaml` that cannot be used; the message names the file and the field."""


def load_fix_text(path: Path) -> dict[str, FixText]:
    """A folder's `fixes.yaml`: switch action name (`switch-port-mtu`) -> its text on this platform."""
    raw = read_yaml(path, "switch platform fix text", FixTextError)
    return validate(path, raw if raw is not None else {}, dict[str, FixText], FixTextError)


@dataclass(frozen=True, kw_only=True)
class NameGrammar:
    """How a platform names interfaces (`names.py` `NAMES`).

    `long`: abbreviation -> long type word, the vendor's own (`XGE` is Ten-GigabitEthernet on Comware,
    XGigabitEthernet on VRP); `channel`: a regular expression a port-channel's long name matches in full
    (and a port's does not); `neighbour`: the forms a neighbour prints for this platform's ports (regular
    expressions matched in full, for LLDP/CDP tables); `script`: the grammar a name in a fix script must
    match in full (no CLI syntax: what hostlint.fixes.identifiers checks before writing it).
    """

    long: Mapping[str, str] = field(default_factory=dict)
    channel: str
    neighbour: tuple[str, ...] = ()
    script: str
    # What a name in a script may be, said when `script` does not match it ("" : hostlint's generic words).
    script_allowed: str = ""
    # Names the platform prints in one form whatever the case an inventory or neighbour used: a name matching
    # in full (case aside) is canonical in lower case (Junos `xe-0/0/1`, `ae0.0`); "" for none.
    lower_case: str = ""
    # A port ID naming a logical unit of a port, its first group the physical port (Junos `xe-0/0/11.0` is
    # unit 0 of xe-0/0/11); "" where the platform's subinterfaces take the generic `NAME.N` form.
    unit: str = ""
    # Whether hostlint reads the abbreviations of `long` as those long names wherever a name comes from, its
    # platform unknown (a host's LLDP neighbour, an inventory; hostlint.names.interface): the Cisco-like words
    # (`Gi`, `Te`, `Eth`, `Po`) are; a platform's own (Comware's `XGE`, which is another word on VRP) are not.
    long_everywhere: bool = False
    # Long type word -> the abbreviation the platform's channel summary prints (`GigabitEthernet` -> `Gi`,
    # NX-OS `Ethernet` -> `Eth`), the first that starts a name wins; a name none starts is printed whole.
    short: tuple[tuple[str, str], ...] = ()

    def expand(self, name: str) -> str:
        """`name` with an abbreviated type word written out (`XGE1/0/1` -> `Ten-GigabitEthernet1/0/1`)."""
        match = re.match(r"^([A-Za-z][A-Za-z-]*?)\s*(\d.*)$", name.strip())
        if not match:
            return name.strip()
        word, rest = match.groups()
        for short in sorted(self.long, key=len, reverse=True):
            if word.lower() == short.lower():
                return self.long[short] + rest
        return word + rest

    def is_channel(self, name: str) -> bool:
        return re.fullmatch(self.channel, self.expand(name), re.IGNORECASE) is not None

    def shorten(self, name: str) -> str:
        """`name` as the channel summary prints it (`GigabitEthernet1/0/1` -> `Gi1/0/1`)."""
        for long, abbreviation in self.short:
            if name.startswith(long):
                return abbreviation + name[len(long) :]
        return name

    def scriptable(self, name: str) -> bool:
        return re.fullmatch(self.script, name) is not None


class UnknownHash(ValueError):
    """A load-balance syntax the platform's table does not hold: named, never another vendor's default."""


@dataclass(frozen=True, kw_only=True)
class HashTable:
    """A platform's port-channel hash vocabulary (`hashes.py` `HASHES`), read and written from one table.

    `pairs`: (what the switch says, hostlint's name, hostlint.vocab.HASH_FIELDS); reading is the table
    left to right, writing right to left (the first pair naming a hash is how hostlint writes it, later
    ones are other spellings it reads). `command`: the global configuration line that sets it, with `{}`
    for the vendor's words. `default`: the hash when the configuration says nothing (the vendor's
    documented default), None when silence means unknown. `writes`: False where the hash depends on the
    ASIC family and hostlint leaves it to a human.
    """

    pairs: tuple[tuple[str, str], ...]
    command: str | None = None
    default: str | None = None
    writes: bool = False

    def read(self, shown: str | None) -> str:
        """hostlint's name for what the switch shows; UnknownHash naming the syntax when the table lacks it."""
        text = " ".join((shown or "").lower().split())
        if not text:
            if self.default is None:
                raise UnknownHash("no load-balance shown and the platform has no documented default")
            return self.default
        for vendor, name in self.pairs:
            if vendor.lower() == text:
                return name
        raise UnknownHash(f"hostlint reads no {shown!r} load-balance syntax")

    def write(self, name: str) -> str | None:
        """The vendor's words for hostlint's hash `name`; None when the platform cannot say it or hostlint
        does not write it."""
        if not self.writes:
            return None
        return next((vendor for vendor, known in self.pairs if known == name), None)

    def written(self) -> tuple[str, ...]:
        """Every hash name hostlint writes on this platform (each round-trips: read(write(n)) == n)."""
        if not self.writes:
            return ()
        return tuple(dict.fromkeys(name for _, name in self.pairs))


@dataclass(frozen=True, kw_only=True)
class MemberFlags:
    """A platform's port-channel member-state flags and words (`members.py` `MEMBER_FLAGS`).

    `words`: a whole shown word -> state (`bndl`, `Selected`); `flags`: letters of the summary legend, tried
    in order, the first one present wins; `unknown`: flags that say none of the states (IOS `w` waiting),
    declared so that a flag the samples show is either a state or known to be none.
    """

    words: Mapping[str, MemberState] = field(default_factory=dict)
    flags: tuple[tuple[str, MemberState], ...] = ()
    unknown: tuple[str, ...] = ()
    # The state of anything shown that no word or flag names (Junos: a member whose mux is not collecting
    # and distributing passes no traffic, suspended); None: unknown.
    default: MemberState | None = None
    # Words of the port's own state, shown beside the member's (`port` of `state`: Junos's LACP receive
    # state), that make a member not bundled down: its port is down, LACP does not hold it out.
    port_down: tuple[str, ...] = ()

    def state(self, shown: str | None, port: str | None = None) -> MemberState | None:
        text = (shown or "").strip()
        if not text:
            return None
        word = {k.lower(): v for k, v in self.words.items()}.get(text.lower())
        if word:
            return word
        state = next((state for flag, state in self.flags if flag in text), self.default)
        if state not in (None, "bundled") and any(w.lower() in (port or "").lower() for w in self.port_down):
            return "down"
        return state


@dataclass(frozen=True, kw_only=True)
class Families:
    """A platform's families (`families.py`), as the registry hands them out (hostlint.switches.families)."""

    family: Callable[[str | None], str | None]
    unknown_reason: Callable[[str | None], str]
    unsupported: Mapping[str, Mapping[str, str]] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class MtuLimits:
    """A platform's MTU (`mtu.py` `MTU`): the largest interface MTU, the bytes of it that are not IP packet
    (Junos counts the Ethernet header), and which figure limits bridged frames per family. `PLATFORM`
    carries the same figures (`jumbo`, `l2_header`, `mtu_families`)."""

    jumbo: int
    l2_header: int = 0
    families: tuple[MtuFamily, ...]


@dataclass(frozen=True, kw_only=True)
class EdgePort:
    """The interface line that makes a trunk an edge port, which forwards at once instead of spending about
    30 s listening and learning (`config.py` `CONFIG.edge_port`; read by hostlint.fixes.members)."""

    # A regular expression a collected interface line (stripped) matches in full; None: hostlint reads no
    # edge-port setting on this platform, so neither a line nor its absence says anything.
    line: str | None
    # Whether an interface's collected lines hold its spanning-tree settings. Where they do not (Junos keeps
    # them under `protocols rstp|mstp|vstp interface NAME edge`), a matching line is seen only where one was
    # kept with the interface, and its absence says nothing.
    in_interface: bool = True

    def marks(self, lines: list[str]) -> bool:
        """Whether one of an interface's collected `lines` makes it an edge port."""
        return self.line is not None and any(re.fullmatch(self.line, line.strip()) for line in lines)


@dataclass(frozen=True, kw_only=True)
class ForcedLink:
    """Where the speed/duplex change (switch-port-autoneg) deletes a port's forcing statements rather than
    mirroring them (`CONFIG.forced_link`): its rollback sets back those of the statements the port's
    collected lines held, and only those."""

    # The start of every statement on interface `{}` (`set interfaces {} `).
    prefix: str
    # The statements the change deletes, as they follow `prefix` (`ether-options no-auto-negotiation`).
    statements: tuple[str, ...]
    # A regular expression matching a rollback line that sets a port's speed, duplex or negotiation, its first
    # group the port: each must be one the port's collected lines held (plan invariant 4).
    line: str
    # Statements hostlint does not model (only speed and duplex are in a snapshot): a rollback sets them only
    # from the port's collected lines, never without them.
    unmodelled: tuple[str, ...] = ()

    def held(self, interface: str, lines: list[str]) -> list[str]:
        """The collected `lines` of `interface` that set one of the statements the change deletes."""
        prefix = self.prefix.format(interface)
        return [
            line
            for line in lines
            if line.startswith(prefix)
            and any(line[len(prefix) :] == s or line[len(prefix) :].startswith(s + " ") for s in self.statements)
        ]


@dataclass(frozen=True, kw_only=True)
class ConfigGrammar:
    """What hostlint's fixes read of a platform's configuration grammar (`config.py` `CONFIG`): each platform
    states its own, and the fix code asks the registry (hostlint.switches.config), never the platform's name."""

    edge_port: EdgePort
    # How a rollback types an interface's collected lines back. `stanza`: the lines are the body of its
    # `interface NAME` block, typed back inside it; a line the change wrote that the interface lacked is reset
    # first (`no WORDS`), and a member's own channel line (its LACP role: `channel-group`) is among them.
    # `statements`: each line is a whole statement naming its interface (`set interfaces NAME ...`); the
    # rollback deletes the interface and types them back, so nothing the change wrote needs resetting, and a
    # channel's LACP role is the channel's own statement.
    rollback: Literal["stanza", "statements"]
    # Where the platform keeps a channel's LACP role on the channel (`rollback: statements`), the start of those
    # lines of channel `{}` (`set interfaces {} aggregated-ether-options lacp`), which a change deleting `lacp`
    # removes together and its rollback types back; None where the role is each member's own line.
    channel_lacp: str | None = None
    # See ForcedLink; None where the speed/duplex change and its rollback mirror each other.
    forced_link: ForcedLink | None = None
    # The word of the channel line that gives it its multichassis id (NX-OS `vpc N`, EOS `mlag N`): a change of
    # the id must remove the old line first and its rollback restore it. None: hostlint writes no such line.
    multichassis_id: str | None = None
    # How the configuration defines VLAN N, said where a VLAN must exist to be forwarded.
    vlan_definition: str
