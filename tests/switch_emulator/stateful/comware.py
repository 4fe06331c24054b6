"""HPE/H3C Comware 7 for the stateful switch emulator: a configuration session (user view, system view,
interface view) over a Comware configuration, and the display commands hostlint/switches/hp_comware/spec.yaml
sends, rendered from it so that the collector's templates read them back.

Comware is not a registered platform yet (issue 29: the platform folder design), so the state is not
hostlint's `Switch` (whose platform must be registered) but the configuration as Comware keeps it, per
interface, plus the operational facts the configuration cannot give (link, speed, LLDP neighbours,
whether the far end of a port runs LACP). `ComwareSwitch` answers like
switch_emulator.stateful.StatefulSwitch, so `EmulatedSwitch(name, "hp_comware", stateful=ComwareSwitch(...))`
serves it over SSH to netmiko's `hp_comware` driver.

The grammar, each rule citing its page:

- Views and prompts: HPE FlexFabric 5940 Fundamentals Command Reference, "system-view" (`<Sysname>` user
  view, `[Sysname]` system view), "quit" (back one view; in user view it ends the session), "return"
  (to user view from any view), "screen-length disable" (what netmiko sends first), "display
  current-configuration"; "Using the CLI": the error messages (`% Unrecognized command found at '^'
  position.`, `% Incomplete command found at '^' position.`, `% Wrong parameter found at '^' position.`).
- Interfaces: Interface Command Reference, "interface" (`interface Ten-GigabitEthernet1/0/1`, the type
  and number also apart), "shutdown" / "undo shutdown", "jumboframe enable [size]" / "undo jumboframe
  enable" (the largest frame a bridged port passes; without `size`, and by default, 9416 bytes on the
  FlexFabric 5940 and the H3C S6850 family, "Configuring jumbo frame support"; undone: 1536),
  "description", "display interface".
- Link aggregation: Layer 2 - LAN Switching Command Reference (HPE 7500/5700, e.g.
  https://support.hpe.com/techhub/eginfolib/networking/docs/switches/7500/5200-1937a_l2-lan_cr/content/495503904.htm),
  "interface bridge-aggregation" (creates the aggregate interface, number 1..1024; `undo` removes it
  and frees its members), "link-aggregation mode { dynamic | static }" / "undo link-aggregation mode"
  (static by default), "port link-aggregation group" / "undo port link-aggregation group" (a port
  joins an existing aggregate interface only), "lacp mode passive" / "undo lacp mode", "link-aggregation
  global load-sharing mode { destination-ip | destination-mac | destination-port | ingress-port |
  source-ip | source-mac | source-port } *" / "undo link-aggregation global load-sharing mode",
  "display link-aggregation verbose" (Selected `S`, Unselected `U`, Individual `I`; a dynamic group's
  member is Selected only when its partner answers LACP).
- VLANs: Layer 2 - LAN Switching Command Reference, "port link-type { access | hybrid | trunk }" /
  "undo port link-type" (access by default; a trunk permits VLAN 1 only until `port trunk permit
  vlan`), "port access vlan", "port trunk permit vlan { vlan-id-list | all }" (a list of `N` and
  `N to M`, added to what is permitted; `undo` takes them away), "port trunk pvid vlan" / "undo port
  trunk pvid vlan" (1 by default), "vlan" (1..4094), "display vlan". An aggregate interface's VLAN
  lines are copied to its members, as Comware does when a port joins or the aggregate is configured.
- LLDP: "display lldp neighbor-information verbose".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from hostlint import vlans

DEFAULT_JUMBO = 9416
NO_JUMBO = 1536
HASH_FIELDS = (
    "destination-ip",
    "destination-mac",
    "destination-port",
    "ingress-port",
    "source-ip",
    "source-mac",
    "source-port",
)
# The long type names a port is configured by, and the short ones `display link-aggregation verbose`
# prints (Interface Command Reference, "interface": abbreviations).
SHORT = {
    "GigabitEthernet": "GE",
    "Ten-GigabitEthernet": "XGE",
    "Twenty-FiveGigE": "WGE",
    "FortyGigE": "FGE",
    "HundredGigE": "HGE",
}
TYPES = {name.lower(): name for name in (*SHORT, "Bridge-Aggregation")} | {
    short.lower(): name for name, short in SHORT.items()
}
BAGG = "Bridge-Aggregation"

UNRECOGNIZED = "% Unrecognized command found at '^' position."
INCOMPLETE = "% Incomplete command found at '^' position."
WRONG = "% Wrong parameter found at '^' position."


@dataclass
class Interface:
    """One interface as configured (and, for a port, as its link is)."""

    name: str
    description: str | None = None
    link_type: str = "access"
    access_vlan: int = 1
    pvid: int = 1
    permitted: set[int] = field(default_factory=lambda: {1})
    group: int | None = None  # a port's `port link-aggregation group N`
    dynamic: bool = False  # an aggregate interface's `link-aggregation mode dynamic`
    lacp_passive: bool = False
    jumbo: int | None = None  # None: the default; NO_JUMBO: `undo jumboframe enable`
    shutdown: bool = False
    # Operational: the cable (a port whose link is down stays down when enabled), speed, the neighbour.
    link_up: bool = True
    speed_gbps: int = 10
    neighbour: tuple[str, str] | None = None  # (system name, port ID)

    @property
    def aggregate(self) -> bool:
        return self.name.startswith(BAGG)

    @property
    def frame_length(self) -> int:
        return DEFAULT_JUMBO if self.jumbo is None else self.jumbo


@dataclass
class ComwareState:
    """A Comware switch: its name, version, VLANs, interfaces (in the order it shows them), the global
    load-sharing fields (None: the default, by packet type), IRF members (number -> priority), and the
    ports whose far end runs LACP."""

    sysname: str
    interfaces: dict[str, Interface]
    vlans: dict[int, str | None] = field(default_factory=lambda: {1: None})
    load_sharing: tuple[str, ...] | None = None
    irf: dict[int, int] = field(default_factory=dict)
    irf_ports: dict[str, list[str]] = field(default_factory=dict)  # `irf-port 1/2` -> its physical ports
    lacp_partners: frozenset[str] = frozenset()
    model: str = "HPE FF 5940 48SFP+ 6QSFP28 Switch"
    version: str = "7.1.070, Release 3208P03"

    def member_ports(self, number: int) -> list[Interface]:
        return [i for i in self.interfaces.values() if i.group == number]


def canonical(words: list[str]) -> tuple[str, int] | None:
    """`Ten-GigabitEthernet1/0/1`, `XGE1/0/1`, `ten-gigabitethernet 1/0/1`, `bridge-aggregation 10` -> the
    long name and how many words it took; None when the type is unknown."""
    match = re.fullmatch(r"([A-Za-z-]+?)(\d+(?:/\d+)*)?", words[0])
    if match is None or match.group(1).lower() not in TYPES:
        return None
    kind = TYPES[match.group(1).lower()]
    if match.group(2):
        return kind + match.group(2), 1
    if len(words) > 1 and re.fullmatch(r"\d+(?:/\d+)*", words[1]):
        return kind + words[1], 2
    return None


def short(name: str) -> str:
    for long_name, abbreviation in SHORT.items():
        if name.startswith(long_name) and name[len(long_name) :][:1].isdigit():
            return abbreviation + name[len(long_name) :]
    return name


def vlan_list(words: list[str]) -> set[int] | None:
    """`1 100 to 110` -> {1, 100..110}; None when a word is not a VLAN or a range is upside down."""
    found: set[int] = set()
    at = 0
    while at < len(words):
        if not words[at].isdigit() or not 1 <= int(words[at]) <= 4094:
            return None
        low = high = int(words[at])
        if at + 2 < len(words) and words[at + 1] == "to":
            if not words[at + 2].isdigit() or not low <= int(words[at + 2]) <= 4094:
                return None
            high = int(words[at + 2])
            at += 2
        found.update(range(low, high + 1))
        at += 1
    return found


def vlan_text(ids: set[int], separator: str = " ", through: str = " to ") -> str:
    return separator.join(f"{a}{through}{b}" if a != b else str(a) for a, b in vlans.merge([(v, v) for v in ids]))


# --- the configuration session --------------------------------------------------------------------


class Rejected(Exception):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class ComwareSession:
    """The CLI views of one switch: user view, system view, an interface's view, a VLAN's view."""

    def __init__(self, state: ComwareState) -> None:
        self.state = state
        self.view = "user"
        self.interface: Interface | None = None
        self.vlan: int | None = None

    def prompt(self) -> str:
        name = self.state.sysname
        if self.view == "user":
            return f"<{name}>"
        if self.interface is not None:
            return f"[{name}-{self.interface.name}]"
        if self.vlan is not None:
            return f"[{name}-vlan{self.vlan}]"
        return f"[{name}]"

    def execute(self, line: str) -> str:
        words = line.split()
        if not words:
            return ""
        try:
            return self._dispatch(words)
        except Rejected as rejected:
            return rejected.text

    def _dispatch(self, words: list[str]) -> str:
        command = " ".join(words)
        if command == "return":  # Fundamentals, "return": to user view from any view
            self.view, self.interface, self.vlan = "user", None, None
            return ""
        if command == "quit":  # Fundamentals, "quit": back one view
            if self.interface is not None or self.vlan is not None:
                self.interface = self.vlan = None
            else:
                self.view = "user"
            return ""
        if self.view == "user":
            if command == "system-view":
                self.view = "system"
                return "System View: return to User View with Ctrl+Z."
            raise Rejected(UNRECOGNIZED)
        if self.interface is not None:
            return self._interface_view(self.interface, words)
        if self.vlan is not None:
            return self._vlan_view(self.vlan, words)
        return self._system_view(words)

    # Layer 2 - LAN Switching Command Reference, "name" (VLAN view): 1 to 32 characters; `undo` restores
    # the default name (`VLAN 0100`).
    def _vlan_view(self, vlan: int, words: list[str]) -> str:
        if words[0] == "name" and len(words) > 1:
            name = " ".join(words[1:])
            if len(name) > 32:
                raise Rejected(WRONG)
            self.state.vlans[vlan] = name
            return ""
        if words == ["undo", "name"]:
            self.state.vlans[vlan] = None
            return ""
        raise Rejected(INCOMPLETE if words == ["name"] else UNRECOGNIZED)

    # Fundamentals / Interface / Layer 2 - LAN Switching Command References: system view commands.
    def _system_view(self, words: list[str]) -> str:
        undo = words[0] == "undo"
        rest = words[1:] if undo else words
        if rest[:1] == ["interface"]:
            if len(rest) < 2:
                raise Rejected(INCOMPLETE)
            named = canonical(rest[1:])
            if named is None or len(rest) != 1 + named[1]:
                raise Rejected(WRONG)
            name = named[0]
            if undo:
                return self._remove_aggregate(name)
            if name not in self.state.interfaces:
                if not name.startswith(BAGG) or not 1 <= int(name[len(BAGG) :]) <= 1024:
                    raise Rejected(WRONG)
                self.state.interfaces[name] = Interface(name=name, speed_gbps=0)
            self.interface = self.state.interfaces[name]
            return ""
        if rest[:4] == ["link-aggregation", "global", "load-sharing", "mode"]:
            fields = rest[4:]
            if undo:
                if fields:
                    raise Rejected(UNRECOGNIZED)
                self.state.load_sharing = None
                return ""
            if not fields:
                raise Rejected(INCOMPLETE)
            if any(f not in HASH_FIELDS for f in fields) or len(set(fields)) != len(fields):
                raise Rejected(WRONG)
            self.state.load_sharing = tuple(fields)
            return ""
        if rest[:1] == ["vlan"] and len(rest) == 2:
            ids = vlan_list(rest[1:])
            if ids is None or len(ids) != 1:
                raise Rejected(WRONG)
            (vlan,) = ids
            # "vlan": creates the VLAN and enters its view; `undo vlan` deletes it (VLAN 1 cannot be).
            if undo:
                if vlan == 1:
                    raise Rejected("The default VLAN cannot be deleted.")
                self.state.vlans.pop(vlan, None)
            else:
                self.state.vlans.setdefault(vlan, None)
                self.vlan = vlan
            return ""
        raise Rejected(UNRECOGNIZED)

    def _remove_aggregate(self, name: str) -> str:
        """`undo interface bridge-aggregation N`: the aggregate goes, its members leave the group."""
        if not name.startswith(BAGG) or name not in self.state.interfaces:
            raise Rejected(WRONG)
        number = int(name[len(BAGG) :])
        for member in self.state.member_ports(number):
            member.group = None
            member.lacp_passive = False
        del self.state.interfaces[name]
        return ""

    # The interface view: the commands each reference page above gives for an Ethernet or aggregate interface.
    def _interface_view(self, interface: Interface, words: list[str]) -> str:
        undo = words[0] == "undo"
        rest = words[1:] if undo else words
        handler = _INTERFACE_COMMANDS.get(tuple(rest[:2])) or _INTERFACE_COMMANDS.get(tuple(rest[:1]))
        if handler is None:
            raise Rejected(UNRECOGNIZED)
        key = tuple(rest[:2]) if tuple(rest[:2]) in _INTERFACE_COMMANDS else tuple(rest[:1])
        changed = handler(self, interface, undo, rest[len(key) :])
        # An aggregate's VLAN and frame lines reach its members (Layer 2 - LAN Switching Configuration
        # Guide, "Configuring an aggregate interface": "the configuration ... is synchronized to the
        # member ports").
        if interface.aggregate and changed:
            for member in self.state.member_ports(int(interface.name[len(BAGG) :])):
                _copy_attributes(interface, member)
        return ""

    def _shutdown(self, interface: Interface, undo: bool, args: list[str]) -> bool:
        if args:
            raise Rejected(UNRECOGNIZED)
        interface.shutdown = not undo
        return False

    def _description(self, interface: Interface, undo: bool, args: list[str]) -> bool:
        if not undo and not args:
            raise Rejected(INCOMPLETE)
        interface.description = None if undo else " ".join(args)
        return False

    def _jumboframe(self, interface: Interface, undo: bool, args: list[str]) -> bool:
        if undo:
            if args:
                raise Rejected(UNRECOGNIZED)
            interface.jumbo = NO_JUMBO
            return True
        if len(args) > 1:
            raise Rejected(UNRECOGNIZED)
        if args and (not args[0].isdigit() or not NO_JUMBO <= int(args[0]) <= DEFAULT_JUMBO):
            raise Rejected(WRONG)
        interface.jumbo = int(args[0]) if args else None
        return True

    def _aggregation_mode(self, interface: Interface, undo: bool, args: list[str]) -> bool:
        if not interface.aggregate:
            raise Rejected(UNRECOGNIZED)
        if undo:
            if args:
                raise Rejected(UNRECOGNIZED)
            interface.dynamic = False
            return False
        if len(args) != 1:
            raise Rejected(INCOMPLETE if not args else UNRECOGNIZED)
        if args[0] not in ("dynamic", "static"):
            raise Rejected(WRONG)
        interface.dynamic = args[0] == "dynamic"
        return False

    def _lacp_mode(self, interface: Interface, undo: bool, args: list[str]) -> bool:
        if interface.aggregate:
            raise Rejected(UNRECOGNIZED)
        if undo:
            interface.lacp_passive = False
        elif args != ["passive"]:
            raise Rejected(WRONG if args else INCOMPLETE)
        else:
            interface.lacp_passive = True
        return False

    def _port(self, interface: Interface, undo: bool, args: list[str]) -> bool:
        """`port link-mode bridge` (the only mode modelled: Layer 2 - LAN Switching Command Reference,
        "port link-mode"), `port link-type`, `port access vlan`, `port trunk permit vlan`, `port trunk pvid
        vlan`, `port link-aggregation group`."""
        if args[:1] == ["link-mode"]:
            if undo or interface.aggregate or args[1:] != ["bridge"]:
                raise Rejected(WRONG)
            return False
        if args[:1] == ["link-type"]:
            if undo:
                interface.link_type, interface.permitted, interface.pvid = "access", {1}, 1
                return True
            if len(args) != 2 or args[1] not in ("access", "trunk", "hybrid"):
                raise Rejected(WRONG if len(args) == 2 else INCOMPLETE)
            if args[1] != interface.link_type:
                # Changing between trunk and hybrid goes through access (Layer 2 - LAN Switching Command
                # Reference, "port link-type": "first set the link type to access").
                if interface.link_type != "access" and args[1] != "access":
                    raise Rejected("Please set the link type of the port to access first.")
                interface.link_type, interface.permitted, interface.pvid = args[1], {1}, 1
            return True
        if args[:2] == ["access", "vlan"]:
            if interface.link_type != "access":
                raise Rejected("Please set the link type of the port to access first.")
            if undo:
                interface.access_vlan = 1
                return True
            ids = vlan_list(args[2:])
            if ids is None or len(ids) != 1 or len(args) != 3:
                raise Rejected(WRONG)
            interface.access_vlan = ids.pop()
            return True
        if args[:3] == ["trunk", "permit", "vlan"]:
            if interface.link_type != "trunk":
                raise Rejected("Please set the link type of the port to trunk first.")
            listed = args[3:]
            if not listed:
                raise Rejected(INCOMPLETE)
            ids = set(range(1, 4095)) if listed == ["all"] else vlan_list(listed)
            if ids is None:
                raise Rejected(WRONG)
            interface.permitted = interface.permitted - ids if undo else interface.permitted | ids
            return True
        if args[:3] == ["trunk", "pvid", "vlan"]:
            if interface.link_type != "trunk":
                raise Rejected("Please set the link type of the port to trunk first.")
            if undo:
                interface.pvid = 1
                return True
            ids = vlan_list(args[3:])
            if ids is None or len(ids) != 1 or len(args) != 4:
                raise Rejected(WRONG)
            interface.pvid = ids.pop()
            return True
        if args[:2] == ["link-aggregation", "group"]:
            if interface.aggregate:
                raise Rejected(UNRECOGNIZED)
            if undo:
                if len(args) != 2:
                    raise Rejected(UNRECOGNIZED)
                interface.group, interface.lacp_passive = None, False
                return False
            if len(args) != 3 or not args[2].isdigit():
                raise Rejected(WRONG if len(args) == 3 else INCOMPLETE)
            aggregate = self.state.interfaces.get(f"{BAGG}{int(args[2])}")
            if aggregate is None:
                raise Rejected(f"The aggregate interface {BAGG}{int(args[2])} does not exist.")
            interface.group = int(args[2])
            _copy_attributes(aggregate, interface)
            return False
        raise Rejected(UNRECOGNIZED)


def _copy_attributes(aggregate: Interface, member: Interface) -> None:
    member.link_type, member.access_vlan = aggregate.link_type, aggregate.access_vlan
    member.pvid, member.permitted = aggregate.pvid, set(aggregate.permitted)
    member.jumbo = aggregate.jumbo


_Handler = Callable[[ComwareSession, Interface, bool, list[str]], bool]
_INTERFACE_COMMANDS: dict[tuple[str, ...], _Handler] = {
    ("shutdown",): ComwareSession._shutdown,
    ("description",): ComwareSession._description,
    ("jumboframe", "enable"): ComwareSession._jumboframe,
    ("link-aggregation", "mode"): ComwareSession._aggregation_mode,
    ("lacp", "mode"): ComwareSession._lacp_mode,
    ("port",): ComwareSession._port,
}


# --- the switch, as the SSH server serves it --------------------------------------------------------


class ComwareSwitch:
    """A Comware switch for switch_emulator.server.EmulatedSwitch(stateful=...): display commands answered
    from the state in any view, configuration through the session, `quit` in user view hangs up."""

    def __init__(self, state: ComwareState) -> None:
        self.state = state
        self.session = ComwareSession(state)
        self.log: list[tuple[str, str]] = []

    def prompt(self) -> str:
        return self.session.prompt()

    def hangs_up(self, line: str) -> bool:
        return self.session.view == "user" and " ".join(line.split()) == "quit"

    def execute(self, line: str) -> str:
        command = " ".join(line.split())
        if not command:
            return ""
        if command == "screen-length disable" and self.session.view == "user":
            return ""
        if command.startswith("display "):
            shown = render(self.state, command)
            if shown is None:
                return _caret(self.prompt(), command) + UNRECOGNIZED + "\n"
            return shown if shown.endswith("\n") else shown + "\n"
        answer = self.session.execute(command)
        self.log.append((command, answer))
        if answer.startswith("%"):
            return _caret(self.prompt(), command) + answer + "\n"
        return answer + "\n" if answer else ""


def _caret(prompt: str, command: str) -> str:
    """Comware points at the word it gave up on; this emulator points at the line's first word (hostlint
    and netmiko read the `% ...` line, not the caret's column)."""
    return " " * len(prompt) + "^\n"


# --- display commands -------------------------------------------------------------------------------


def render(state: ComwareState, command: str) -> str | None:
    """The output of a display command hostlint/switches/hp_comware/spec.yaml sends; None for another."""
    renderers: dict[str, Callable[[ComwareState], str]] = {
        "display version": _version,
        "display current-configuration": current_configuration,
        "display interface": _interfaces,
        "display link-aggregation verbose": _link_aggregation,
        "display lldp neighbor-information verbose": _lldp,
        "display vlan all": _vlans,
    }
    renderer = renderers.get(command)
    return None if renderer is None else renderer(state)


def _version(state: ComwareState) -> str:
    return (
        f"HPE Comware Software, Version {state.version}\n"
        "Copyright (c) 2010-2019 Hewlett Packard Enterprise Development LP\n"
        f"{state.model} uptime is 0 weeks, 1 day, 2 hours, 3 minutes\n"
        "Last reboot reason : User reboot\n"
    )


def _trunk_lines(interface: Interface) -> list[str]:
    """A trunk's VLAN lines as `display current-configuration` shows them: VLAN 1 is permitted by default,
    so its absence is an `undo` line, and the permit line lists the whole set when more is permitted."""
    lines = [" port link-type trunk"]
    if 1 not in interface.permitted:
        lines.append(" undo port trunk permit vlan 1")
    if interface.permitted == set(range(1, 4095)):
        lines.append(" port trunk permit vlan all")
    elif interface.permitted - {1}:
        lines.append(f" port trunk permit vlan {vlan_text(interface.permitted)}")
    if interface.pvid != 1:
        lines.append(f" port trunk pvid vlan {interface.pvid}")
    return lines


def current_configuration(state: ComwareState) -> str:
    lines = ["#", f" version {state.version}", "#", f" sysname {state.sysname}", "#"]
    if state.irf:
        lines += [f" irf member {n} priority {p}" for n, p in sorted(state.irf.items())] + ["#"]
    if state.load_sharing:
        lines += [f" link-aggregation global load-sharing mode {' '.join(state.load_sharing)}", "#"]
    for vlan, name in sorted(state.vlans.items()):
        lines += [f"vlan {vlan}"] + ([f" name {name}"] if name else []) + ["#"]
    for irf_port, ports in sorted(state.irf_ports.items()):
        lines += [f"irf-port {irf_port}"] + [f" port group interface {p}" for p in ports] + ["#"]
    ordered = sorted(state.interfaces.values(), key=lambda i: (not i.aggregate, i.name))
    for interface in ordered:
        lines.append(f"interface {interface.name}")
        if not interface.aggregate:
            lines.append(" port link-mode bridge")
        if interface.description:
            lines.append(f" description {interface.description}")
        if interface.shutdown:
            lines.append(" shutdown")
        if interface.link_type == "trunk":
            lines += _trunk_lines(interface)
        elif interface.link_type == "hybrid":
            lines.append(" port link-type hybrid")
        elif interface.access_vlan != 1:
            lines.append(f" port access vlan {interface.access_vlan}")
        if interface.jumbo == NO_JUMBO:
            lines.append(" undo jumboframe enable")
        elif interface.jumbo is not None:
            lines.append(f" jumboframe enable {interface.jumbo}")
        if interface.aggregate and interface.dynamic:
            lines.append(" link-aggregation mode dynamic")
        if interface.group is not None:
            lines.append(f" port link-aggregation group {interface.group}")
        if interface.lacp_passive:
            lines.append(" lacp mode passive")
        lines.append("#")
    return "\n".join([*lines, "return"]) + "\n"


def _up(state: ComwareState, interface: Interface) -> bool:
    if interface.aggregate:
        number = int(interface.name[len(BAGG) :])
        return not interface.shutdown and any(_status(state, interface, m) == "S" for m in state.member_ports(number))
    return interface.link_up and not interface.shutdown


def _interfaces(state: ComwareState) -> str:
    blocks = []
    for interface in state.interfaces.values():
        current = "UP" if _up(state, interface) else "DOWN"
        if interface.shutdown:
            current = "Administratively DOWN"
        lines = [interface.name, f"Current state: {current}"]
        if not interface.aggregate:
            lines.append(f"Line protocol state: {'UP' if current == 'UP' else 'DOWN'}")
        if interface.description:
            lines.append(f"Description: {interface.description}")
        if current == "UP" and interface.speed_gbps:
            lines.append(f"{interface.speed_gbps}Gbps-speed mode, full-duplex mode")
        else:
            lines.append("Unknown-speed mode, unknown-duplex mode")
        lines.append(f"Maximum frame length: {interface.frame_length}")
        if interface.link_type == "trunk":
            lines += [
                f"PVID: {interface.pvid}",
                "Port link-type: Trunk",
                f" VLAN permitted: {vlan_text(interface.permitted, ', ', '-') or 'None'}",
            ]
        elif interface.link_type == "access":
            lines += [f"PVID: {interface.access_vlan}", "Port link-type: Access"]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def _status(state: ComwareState, aggregate: Interface, member: Interface) -> str:
    """Selected when the link is up and, in a dynamic group, its partner answers LACP; a dynamic group's
    port whose partner does not stays Unselected (Individual needs `lacp edge-port`, not emulated)."""
    if not member.link_up or member.shutdown:
        return "U"
    if aggregate.dynamic and member.name not in state.lacp_partners:
        return "U"
    return "S"


def _link_aggregation(state: ComwareState) -> str:
    lines = [
        "Loadsharing Type: Shar -- Loadsharing, NonS -- Non-Loadsharing",
        "Port Status: S -- Selected, U -- Unselected, I -- Individual",
        "Port: A -- Auto port, M -- Management port, R -- Reference port",
        "Flags:  A -- LACP_Activity, B -- LACP_Timeout, C -- Aggregation,",
        "        D -- Synchronization, E -- Collecting, F -- Distributing,",
        "        G -- Defaulted, H -- Expired",
    ]
    for aggregate in state.interfaces.values():
        if not aggregate.aggregate:
            continue
        members = state.member_ports(int(aggregate.name[len(BAGG) :]))
        lines += [
            "",
            f"Aggregate Interface: {aggregate.name}",
            "Creation Mode: Manual",
            f"Aggregation Mode: {'Dynamic' if aggregate.dynamic else 'Static'}",
            "Loadsharing Type: Shar",
            "Management VLANs: None",
        ]
        if aggregate.dynamic:
            lines += ["System ID: 0x8000, 7848-5933-6400", "Local:"]
            lines.append("  Port                Status   Priority Index    Oper-Key               Flag")
            for index, member in enumerate(members, 1):
                status = _status(state, aggregate, member)
                flags = "{ACDEF}" if status == "S" else "{AC}" if not member.lacp_passive else "{C}"
                port = short(member.name) + ("(R)" if index == 1 else "")
                lines.append(f"  {port:<20}{status:<9}32768    {index:<9}1                      {flags}")
            lines += ["Remote:", "  Actor               Priority Index    Oper-Key SystemID               Flag"]
            for index, member in enumerate(members, 1):
                if member.name in state.lacp_partners:
                    partner = f"{short(member.name):<20}255      {index:<9}17       0xffff, 0050-5601-0a01 {{ACDEF}}"
                else:
                    partner = f"{short(member.name):<20}0        0        0        0x0000, 0000-0000-0000 {{EF}}"
                lines.append("  " + partner)
        else:
            lines += ["Port                Status   Priority Oper-Key", "-" * 80]
            for index, member in enumerate(members, 1):
                port = short(member.name) + ("(R)" if index == 1 else "")
                lines.append(f"  {port:<20}{_status(state, aggregate, member):<9}32768    1")
    return "\n".join(lines) + "\n"


def _lldp(state: ComwareState) -> str:
    blocks = []
    for index, interface in enumerate(state.interfaces.values(), 1):
        if interface.neighbour is None or not interface.link_up or interface.shutdown:
            continue
        system, port = interface.neighbour
        blocks.append(
            f"LLDP neighbor-information of port {index}[{interface.name}]:\n"
            "LLDP agent nearest-bridge:\n"
            " LLDP neighbor index : 1\n"
            " Chassis type        : MAC address\n"
            " Chassis ID          : 0050-5601-0a01\n"
            " Port ID type        : Interface name\n"
            f" Port ID             : {port}\n"
            " Time to live        : 180\n"
            f" System name         : {system}\n"
        )
    return "\n".join(blocks)


def _vlans(state: ComwareState) -> str:
    blocks = []
    for vlan, name in sorted(state.vlans.items()):
        tagged, untagged = [], []
        for interface in state.interfaces.values():
            if interface.link_type == "trunk" and vlan in interface.permitted:
                (untagged if vlan == interface.pvid else tagged).append(interface.name)
            elif interface.link_type == "access" and interface.access_vlan == vlan:
                untagged.append(interface.name)
        lines = [
            f" VLAN ID: {vlan}",
            " VLAN type: Static",
            " Route interface: Not configured",
            f" Description: VLAN {vlan:04d}",
            f" Name: {name or f'VLAN {vlan:04d}'}",
        ]
        for label, ports in ((" Tagged ports:   ", tagged), (" Untagged ports: ", untagged)):
            if not ports:
                lines.append(label + "None")
                continue
            lines.append(label)
            lines += ["    " + "".join(f"{p:<30}" for p in ports[i : i + 2]).rstrip() for i in range(0, len(ports), 2)]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
