"""Junos for the stateful switch emulator: a configuration session (candidate, commit, rollback) and the
show commands hostlint's collector sends, both over hostlint's own `Switch` model.

The configuration is kept as Junos keeps it, a hierarchy of statements, here flattened to its `set`
form: statement path -> values. It starts as the configuration the state implies (`configuration`),
`set`/`delete`/`copy`/`rename` change a candidate, and only `commit` applies the candidate to the state
(`_Deriver`). The grammar is the part of the Junos hierarchy hostlint's templates touch, per family
(hostlint/switches/juniper_junos/families.py: EX/QFX ELS, EX non-ELS); each rule cites the Junos page it follows:

- CLI: Junos OS CLI User Guide, "Junos OS Configuration Mode" (`configure`, `configure private`,
  `exit configuration-mode`), "Modify the Configuration" (`set`, `delete`, `copy ... to`, `rename ... to`),
  "Display Configuration Changes" (`show | compare`), "Commit the Configuration" (`commit check`,
  `commit`, `commit confirmed minutes`: "If you do not confirm ... within the time, the system rolls
  back to the previous configuration", confirmed by a later `commit` or `commit check`),
  "Return to a Previously Committed Configuration" (`rollback number`, 0..49, `load complete`).
- Interfaces: Junos OS Interfaces reference, "description", "disable", "mtu" (EX/QFX: 256..9216),
  "speed (Ethernet)" ([edit interfaces name], from 13.2X50-D10 on EX: ELS), "speed (EX Series)"
  ([edit interfaces name ether-options]: non-ELS), "link-mode" (both levels on ELS; under
  ether-options on non-ELS), "ether-options" (802.3ad aeX, auto-negotiation | no-auto-negotiation;
  on QFX/ELS `speed` takes no speed value there), "aggregated-ether-options" (lacp active | passive,
  periodic fast | slow, minimum-links), "device-count" ([edit chassis aggregated-devices ethernet]),
  "Configuring Link Aggregation": a member carries no logical unit.
- Layer 2: "family ethernet-switching" ([edit interfaces name unit 0]): `interface-mode` (ELS) or
  `port-mode` (non-ELS) access | trunk, `vlan members` (names, ids, ranges, `all`), `native-vlan-id`
  on the physical interface (ELS) or under the family (non-ELS); "vlans" (`vlan-id` 1..4094).

Operational facts the configuration cannot give (link state, actual speed, neighbours) stay as they
were; a member of an LACP bundle is collecting/distributing only when its far end runs LACP
(`lacp_partners`), a static member whose link is up is bundled.
"""

from __future__ import annotations

import copy
import re
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from hostlint import vlans
from hostlint.collect.switches import normalise
from hostlint.snapshot.switch import MemberState, PortChannel, PortMode, Switch, SwitchPort
from hostlint.switches.juniper_junos.families import Family, family

USER = "netadmin"
L2_HEADER = 14  # Junos media MTU = IP MTU + Ethernet header (hostlint.collect.switches.normalise.l3_mtu)
DEFAULT_MEDIA_MTU = 1514
CHECKOUT_FAILED = "error: configuration check-out failed"

Path = tuple[str, ...]
Config = dict[Path, tuple[str, ...]]


# --- grammar ----------------------------------------------------------------------------------------


class Rejected(Exception):
    """A line the CLI refuses: `token` is the index of the word the caret points at."""

    def __init__(self, message: str, token: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.token = token


Check = Callable[[str], str | None]


@dataclass
class Node:
    """One level of the hierarchy: keywords below it, or an identifier level, or a leaf's value."""

    children: dict[str, Node] = field(default_factory=dict)
    # An identifier level (interface name, VLAN name): its pattern and the node below it.
    named: tuple[re.Pattern[str], Node] | None = None
    # A leaf: checks its value (None: fine, else the error text); `multi`: values add up.
    value: Check | None = None
    multi: bool = False
    # Flags of which only one may be set (`lacp active | passive`).
    exclusive: tuple[str, ...] = ()


def _range(low: int, high: int) -> Check:
    def check(text: str) -> str | None:
        if not text.isdigit():
            return "syntax error."
        if not low <= int(text) <= high:
            return f"value {text} is not within range ({low}..{high}) at '{text}'"
        return None

    return check


def _one_of(*words: str) -> Check:
    return lambda text: None if text in words else "syntax error."


def _pattern(regex: str) -> Check:
    compiled = re.compile(regex)
    return lambda text: None if compiled.fullmatch(text) else "syntax error."


def _any(text: str) -> str | None:
    return None


_INTERFACE = re.compile(r"(?:ge|xe|et|mge|fe)-\d+/\d+/\d+|ae\d+|irb|em\d|me\d|vme|lo0")
_VLAN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,63}")
_VLAN_MEMBER = r"all|\d{1,4}(?:-\d{1,4})?|[A-Za-z][A-Za-z0-9_.-]{0,63}"
_AE = r"ae\d{1,3}"
_FLAG = Node()


def _leaf(check: Check, multi: bool = False) -> Node:
    return Node(value=check, multi=multi)


def grammar(junos_family: Family) -> Node:
    """The statements hostlint's templates touch, as the family's CLI accepts them."""
    els = junos_family != "non-els"
    speeds = ("10m", "100m", "1g", "2.5g", "5g", "10g", "25g", "40g", "50g", "100g")
    link_mode = _leaf(_one_of("full-duplex", "half-duplex", "automatic"))
    ether = Node(
        children={
            # "ether-options": 802.3ad aeX (member of an aggregated Ethernet bundle).
            "802.3ad": _leaf(_pattern(_AE)),
            "auto-negotiation": _FLAG,
            "no-auto-negotiation": _FLAG,
            # "link-mode": [edit interfaces name ether-options] on every EX/QFX family.
            "link-mode": link_mode,
            # "speed (EX Series)" (non-ELS): 10m | 100m | 1g; "ether-options (QFX Series)" (ELS):
            # speed (auto-negotiation | no-auto-negotiation), no speed value.
            "speed": _leaf(_one_of("10m", "100m", "1g", "auto-negotiation"))
            if not els
            else _leaf(_one_of("auto-negotiation", "no-auto-negotiation")),
        },
        exclusive=("auto-negotiation", "no-auto-negotiation"),
    )
    # "aggregated-ether-options": lacp (active | passive), periodic (fast | slow); minimum-links.
    lacp = Node(
        children={"active": _FLAG, "passive": _FLAG, "periodic": _leaf(_one_of("fast", "slow"))},
        exclusive=("active", "passive"),
    )
    aggregated = Node(children={"lacp": lacp, "minimum-links": _leaf(_range(1, 64))})
    # "family ethernet-switching": ELS interface-mode, non-ELS port-mode; vlan members; non-ELS
    # native-vlan-id under the family.
    switching = Node(children={"vlan": Node(children={"members": _leaf(_pattern(_VLAN_MEMBER), multi=True)})})
    if els:
        switching.children["interface-mode"] = _leaf(_one_of("access", "trunk"))
    else:
        switching.children["port-mode"] = _leaf(_one_of("access", "trunk"))
        switching.children["native-vlan-id"] = _leaf(_range(1, 4094))
    unit = Node(
        children={
            "description": _leaf(_any),
            "family": Node(
                children={
                    "ethernet-switching": switching,
                    "inet": Node(children={"address": _leaf(_any, multi=True)}),
                }
            ),
        }
    )
    interface = Node(
        children={
            "description": _leaf(_any),
            "disable": _FLAG,
            # "mtu": 256..9216 on EX and QFX switches.
            "mtu": _leaf(_range(256, 9216)),
            # MX: "gigether-options" holds 802.3ad and auto-negotiation; EX/QFX: "ether-options".
            "gigether-options" if junos_family == "mx" else "ether-options": ether,
            "aggregated-ether-options": aggregated,
            "unit": Node(named=(re.compile(r"\d{1,5}"), unit)),
        }
    )
    if els:
        # "speed (Ethernet)" at [edit interfaces name] (13.2X50-D10 on EX: ELS); "link-mode" there too;
        # ELS "native-vlan-id" on the physical interface.
        interface.children["speed"] = _leaf(_one_of(*speeds))
        interface.children["link-mode"] = link_mode
        interface.children["native-vlan-id"] = _leaf(_range(1, 4094))
    return Node(
        children={
            "system": Node(children={"host-name": _leaf(_any)}),
            "chassis": Node(
                children={
                    "aggregated-devices": Node(
                        children={"ethernet": Node(children={"device-count": _leaf(_range(1, 1024))})}
                    )
                }
            ),
            "interfaces": Node(named=(_INTERFACE, interface)),
            "vlans": Node(
                named=(
                    _VLAN_NAME,
                    Node(
                        children={
                            "vlan-id": _leaf(_range(1, 4094)),
                            "description": _leaf(_any),
                            "l3-interface": _leaf(_pattern(r"irb\.\d+")),
                        }
                    ),
                )
            ),
        }
    )


@dataclass
class Parsed:
    path: Path
    values: tuple[str, ...]
    node: Node
    parent: Node


def _words(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise Rejected("syntax error.", 0) from exc


def parse(root: Node, words: list[str], need_value: bool, offset: int = 0) -> Parsed:
    """Walk `words` down the grammar: the statement path and its values (a `[ a b ]` list for a
    multi-valued leaf); Rejected pointing at the first word the grammar does not know."""
    try:
        return _walk(root, words, need_value)
    except Rejected as rejected:
        raise Rejected(rejected.message, rejected.token + offset) from None


def _walk(root: Node, words: list[str], need_value: bool) -> Parsed:
    node, parent, path = root, root, []
    index = 0
    while index < len(words):
        word = words[index]
        if node.value is not None:
            values = words[index:]
            if values and values[0] == "[":
                if values[-1] != "]" or not node.multi:
                    raise Rejected("syntax error.", index)
                values = values[1:-1]
            if len(values) != 1 and not (node.multi and values):
                raise Rejected("syntax error.", index + min(1, len(values)))
            for offset, value in enumerate(values):
                error = node.value(value)
                if error is not None:
                    raise Rejected(error, index + offset)
            return Parsed(tuple(path), tuple(values), node, parent)
        if word in node.children:
            parent, node = node, node.children[word]
        elif node.named is not None and node.named[0].fullmatch(word):
            parent, node = node, node.named[1]
        else:
            raise Rejected("syntax error.", index)
        path.append(word)
        index += 1
    if need_value and node.value is not None:
        raise Rejected("missing argument.", len(words))
    return Parsed(tuple(path), (), node, parent)


def options(junos_family: Family | None) -> str:
    """The statement that holds a physical port's Ethernet options (802.3ad, auto-negotiation)."""
    return "gigether-options" if junos_family == "mx" else "ether-options"


# --- configuration <-> state ------------------------------------------------------------------------


def _speed_word(mbps: int) -> str:
    return f"{mbps // 1000}g" if mbps >= 1000 and mbps % 1000 == 0 else f"{mbps}m"


def _vlan_name(vlan: int) -> str:
    return f"v{vlan}"


def _member_words(ranges: list[tuple[int, int]]) -> tuple[str, ...]:
    if ranges == vlans.ALL:
        return ("all",)
    return tuple(str(low) if low == high else f"{low}-{high}" for low, high in ranges)


def _l2(
    config: Config,
    name: str,
    mode: PortMode | None,
    access: int | None,
    native: int | None,
    allowed: list[tuple[int, int]] | None,
    els: bool,
) -> None:
    if mode not in ("access", "trunk"):
        return
    family_path = ("interfaces", name, "unit", "0", "family", "ethernet-switching")
    config[(*family_path, "interface-mode" if els else "port-mode")] = (mode,)
    members: tuple[str, ...] = ()
    if mode == "access" and access is not None:
        members = (str(access),)
    if mode == "trunk" and allowed:
        members = _member_words([(low, high) for low, high in allowed])
    if members:
        config[(*family_path, "vlan", "members")] = members
    if mode == "trunk" and native:
        config[("interfaces", name, "native-vlan-id") if els else (*family_path, "native-vlan-id")] = (str(native),)


def _referenced_vlans(state: Switch) -> set[int]:
    found: set[int] = set()
    for item in [*state.ports, *state.port_channels]:
        if item.access_vlan:
            found.add(item.access_vlan)
        if item.native_vlan:
            found.add(item.native_vlan)
        for low, high in item.allowed_vlans or []:
            if (low, high) != vlans.ALL[0]:
                found.update(range(low, high + 1))
    return found


def configuration(state: Switch, extra_vlans: dict[str, int] | None = None) -> Config:
    """The configuration a switch in `state` has, in `set` form (statement path -> values)."""
    junos_family = family(state.model) or "els"
    els = junos_family != "non-els"
    config: Config = {("system", "host-name"): (state.name,)}
    numbers = [int(c.name[2:]) for c in state.port_channels if re.fullmatch(r"ae\d+", c.name)]
    if numbers:
        config[("chassis", "aggregated-devices", "ethernet", "device-count")] = (str(max(numbers) + 1),)
    for port in state.ports:
        name = port.name
        if port.description:
            config[("interfaces", name, "description")] = (port.description,)
        if port.status == "disabled":
            config[("interfaces", name, "disable")] = ()
        if port.configured_speed_mbps:
            where = ("interfaces", name, "speed") if els else ("interfaces", name, "ether-options", "speed")
            config[where] = (_speed_word(port.configured_speed_mbps),)
        if port.configured_duplex:
            where = ("interfaces", name, "link-mode") if els else ("interfaces", name, "ether-options", "link-mode")
            config[where] = (f"{port.configured_duplex}-duplex",)
        if port.port_channel:
            config[("interfaces", name, options(junos_family), "802.3ad")] = (port.port_channel,)
            continue
        if port.mtu is not None and port.mtu + L2_HEADER != DEFAULT_MEDIA_MTU:
            config[("interfaces", name, "mtu")] = (str(port.mtu + L2_HEADER),)
        _l2(config, name, port.mode, port.access_vlan, port.native_vlan, port.allowed_vlans, els)
    for channel in state.port_channels:
        name = channel.name
        if channel.mtu is not None and channel.mtu + L2_HEADER != DEFAULT_MEDIA_MTU:
            config[("interfaces", name, "mtu")] = (str(channel.mtu + L2_HEADER),)
        if channel.mode in ("lacp-active", "lacp-passive"):
            config[("interfaces", name, "aggregated-ether-options", "lacp", channel.mode.split("-")[1])] = ()
        mode = channel.switchport or next((p.mode for p in state.ports if p.port_channel == name and p.mode), None)
        _l2(config, name, mode, channel.access_vlan, channel.native_vlan, channel.allowed_vlans, els)
        if not any(k[:2] == ("interfaces", name) for k in config):
            config[("interfaces", name)] = ()  # `set interfaces aeN`: the bundle exists, nothing set on it
    # Not changed by hostlint: the hash options the collector reads, LLDP, spanning tree.
    options_words = (state.load_balance.raw or "").split() if state.load_balance else []
    hash_options = tuple(o for o in options_words if o.startswith("no-"))
    if hash_options:
        config[("forwarding-options", "enhanced-hash-key", "family", "inet")] = hash_options
    config[("protocols", "lldp", "interface")] = ("all",)
    config[("protocols", "rstp", "interface")] = ("all",)
    for vlan in sorted(_referenced_vlans(state)):
        config[("vlans", _vlan_name(vlan), "vlan-id")] = (str(vlan),)
    for vlan_name, vlan in sorted((extra_vlans or {}).items()):
        config[("vlans", vlan_name, "vlan-id")] = (str(vlan),)
    _add_kept(config, state, junos_family)
    return config


def _add_kept(config: Config, state: Switch, junos_family: Family) -> None:
    """Each interface's statements no field models (its `config_lines`, kept as `set` lines): a
    description on an ae, LACP periodic, no-auto-negotiation... A line the grammar does not know is
    not kept (the emulator cannot show what it cannot parse)."""
    root = grammar(junos_family)
    items: list[SwitchPort | PortChannel] = [*state.ports, *state.port_channels]
    for item in items:
        for line in item.config_lines or []:
            words = _words(line)
            if words[:1] != ["set"]:
                continue
            try:
                parsed = parse(root, words[1:], need_value=False)
            except Rejected:
                continue
            if parsed.node.value is not None and parsed.node.multi:
                existing = config.get(parsed.path, ())
                config[parsed.path] = existing + tuple(v for v in parsed.values if v not in existing)
            else:
                config[parsed.path] = parsed.values


def keep_unmodelled(state: Switch, config: Config, extra_vlans: dict[str, int] | None) -> None:
    """Set each interface's `config_lines` to its statements in `config` that its modelled facts do not
    give (so the state, rendered, shows the configuration as committed, line for line)."""
    bare = state.model_copy(deep=True)
    items: list[SwitchPort | PortChannel] = [*bare.ports, *bare.port_channels]
    for item in items:
        item.config_lines = None
    modelled = configuration(bare, extra_vlans)
    kept: list[SwitchPort | PortChannel] = [*state.ports, *state.port_channels]
    for item in kept:
        own = {k: v for k, v in config.items() if k[:2] == ("interfaces", item.name) and modelled.get(k) != v}
        item.config_lines = display_set(own) or None


def _under(config: Config, prefix: Path) -> Config:
    return {k: v for k, v in config.items() if k[: len(prefix)] == prefix}


def _value(config: Config, path: Path) -> str | None:
    values = config.get(path)
    return values[0] if values else None


def _vlan_ids(config: Config) -> dict[str, int]:
    return {k[1]: int(v[0]) for k, v in config.items() if len(k) == 3 and k[0] == "vlans" and k[2] == "vlan-id"}


def _members(words: tuple[str, ...], ids: dict[str, int]) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    for word in words:
        if word == "all":
            return list(vlans.ALL)
        if word in ids:
            ranges.append((ids[word], ids[word]))
        else:
            ranges.extend(vlans.parse_list(word))
    return vlans.merge(ranges)


@dataclass
class _L2:
    mode: PortMode | None = None
    access: int | None = None
    native: int | None = None
    allowed: list[tuple[int, int]] | None = None


def _l2_of(config: Config, name: str, els: bool) -> _L2:
    """What hostlint's collector reads from one interface's switching statements
    (hostlint.switches.juniper_junos.assemble._vlan_facts)."""
    base = ("interfaces", name, "unit", "0", "family")
    if _under(config, (*base, "inet")):
        return _L2(mode="routed")
    switching = (*base, "ethernet-switching")
    word = _value(config, (*switching, "interface-mode" if els else "port-mode"))
    mode: PortMode | None = word if word in ("access", "trunk") else None  # type: ignore[assignment]
    native_path = ("interfaces", name, "native-vlan-id") if els else (*switching, "native-vlan-id")
    native_word = _value(config, native_path)
    members = config.get((*switching, "vlan", "members"))
    ranges = _members(members, _vlan_ids(config)) if members else None
    facts = _L2(mode=mode, native=int(native_word) if native_word else None)
    if mode == "trunk":
        facts.allowed = ranges
        facts.native = facts.native if facts.native is not None else 0
    elif mode == "access" and ranges is not None and len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        facts.access = ranges[0][0]
    return facts


# --- commit check -----------------------------------------------------------------------------------


def _problem(where: Path, statement: str, message: str) -> str:
    return f"[edit {' '.join(where)}]\n  '{statement}'\n    {message}"


def commit_problems(config: Config) -> list[str]:
    """What `commit check` refuses in a candidate, as Junos words it."""
    problems = []
    count_word = _value(config, ("chassis", "aggregated-devices", "ethernet", "device-count"))
    count = int(count_word) if count_word else 0
    ids = _vlan_ids(config)
    interfaces = sorted({k[1] for k in config if k[0] == "interfaces"})
    for name in interfaces:
        where = next(
            (o for o in ("ether-options", "gigether-options") if (("interfaces", name, o, "802.3ad")) in config), ""
        )
        bundle = _value(config, ("interfaces", name, where, "802.3ad"))
        if bundle is not None:
            # "Configuring Link Aggregation": a member link carries no logical unit of its own.
            if _under(config, ("interfaces", name, "unit")):
                problems.append(
                    _problem(("interfaces", name), "unit 0", "Logical unit is not allowed on aggregated links")
                )
            # "device-count": aeX exists only for X below the count.
            if int(bundle[2:]) >= count:
                problems.append(
                    _problem(
                        ("interfaces", name, where, "802.3ad"),
                        bundle,
                        f"Aggregated Ethernet interface {bundle} does not exist: "
                        "chassis aggregated-devices ethernet device-count is "
                        + (str(count) if count_word else "not configured"),
                    )
                )
        members = config.get(("interfaces", name, "unit", "0", "family", "ethernet-switching", "vlan", "members"), ())
        for word in members:
            unknown = word != "all" and word not in ids and (not word[0].isdigit() or not _numbers_defined(word, ids))
            if unknown:
                what = f"vlan tag {word}" if word[0].isdigit() else f"vlan {word}"
                problems.append(
                    _problem(
                        ("interfaces", name, "unit", "0", "family", "ethernet-switching", "vlan"),
                        f"members {word}",
                        f"No vlan matches {what} for interface {name}.0",
                    )
                )
    return problems


def _numbers_defined(word: str, ids: dict[str, int]) -> bool:
    """Every VLAN id of `100` or `100-110` has a VLAN (`set vlans NAME vlan-id N`)."""
    defined = set(ids.values())
    return all(v in defined for low, high in vlans.parse_list(word) for v in range(low, high + 1))


# --- state from configuration -----------------------------------------------------------------------


def _interface_config(config: Config, name: str) -> Config:
    return _under(config, ("interfaces", name))


class _Deriver:
    """The state a committed configuration gives, starting from the state it had before."""

    def __init__(self, base: Switch, base_config: Config, lacp_partners: frozenset[str]) -> None:
        self.base = base
        self.base_config = base_config
        self.partners = lacp_partners
        self.els = family(base.model) != "non-els"

    def _touched(self, config: Config, names: list[str]) -> bool:
        return any(_interface_config(config, n) != _interface_config(self.base_config, n) for n in names) or (
            _vlan_ids(config) != _vlan_ids(self.base_config)
        )

    def state(self, config: Config) -> Switch:
        state = self.base.model_copy(deep=True)
        where = options(family(self.base.model))
        bundle = {p.name: _value(config, ("interfaces", p.name, where, "802.3ad")) for p in state.ports}
        ports = [self._port(port, config, bundle.get(port.name)) for port in state.ports]
        channel_names = [c.name for c in state.port_channels]
        channel_names += sorted({b for b in bundle.values() if b} - set(channel_names), key=lambda n: int(n[2:]))
        channels = []
        for name in channel_names:
            members = [p for p in ports if p.port_channel == name]
            if not members and not _interface_config(config, name):
                continue  # deleted, no member left
            channels.append(self._channel(name, config, members))
        state.ports = ports
        state.port_channels = channels
        return state

    def _port(self, port: SwitchPort, config: Config, bundle: str | None) -> SwitchPort:
        names = [port.name] + ([bundle] if bundle else []) + ([port.port_channel] if port.port_channel else [])
        if not self._touched(config, names):
            return copy.deepcopy(port)
        own = _interface_config(config, port.name)
        status = port.status
        if ("interfaces", port.name, "disable") in own:
            status = "disabled"
        elif status == "disabled":
            status = "up" if port.neighbours else "down"
        facts = _l2_of(config, port.name, self.els)
        mode = facts.mode
        if bundle and mode is None:
            mode = _l2_of(config, bundle, self.els).mode
        speed_word = _value(
            config,
            ("interfaces", port.name, "speed") if self.els else ("interfaces", port.name, "ether-options", "speed"),
        )
        duplex_word = _value(config, ("interfaces", port.name, "link-mode")) or _value(
            config, ("interfaces", port.name, "ether-options", "link-mode")
        )
        media = _value(config, ("interfaces", bundle or port.name, "mtu"))
        up = status == "up"
        return SwitchPort(
            name=port.name,
            description=_value(config, ("interfaces", port.name, "description")),
            status=status,
            mode=mode,
            access_vlan=facts.access,
            native_vlan=facts.native,
            allowed_vlans=facts.allowed,
            configured_speed_mbps=normalise.speed_mbps(speed_word),
            configured_duplex=normalise.duplex(duplex_word),
            speed_mbps=port.speed_mbps if up else None,
            duplex=port.duplex if up else None,
            mtu=(int(media) if media else DEFAULT_MEDIA_MTU) - L2_HEADER,
            port_channel=bundle,
            member_state=self._member_state(port.name, status, bundle, config),
            neighbours=copy.deepcopy(port.neighbours),
        )

    def _member_state(self, name: str, status: str | None, bundle: str | None, config: Config) -> MemberState | None:
        if bundle is None:
            return None
        if status != "up":
            return "down"
        lacp = _under(config, ("interfaces", bundle, "aggregated-ether-options", "lacp"))
        if not lacp:
            return "bundled"  # a static member whose link is up carries traffic
        return "bundled" if name in self.partners else "suspended"

    def _channel(self, name: str, config: Config, members: list[SwitchPort]) -> PortChannel:
        before = next((c for c in self.base.port_channels if c.name == name), None)
        if before is not None and not self._touched(config, [name, *before.members, *(m.name for m in members)]):
            return before.model_copy(deep=True)
        lacp = _under(config, ("interfaces", name, "aggregated-ether-options", "lacp"))
        mode = "static"
        if ("interfaces", name, "aggregated-ether-options", "lacp", "active") in lacp:
            mode = "lacp-active"
        elif ("interfaces", name, "aggregated-ether-options", "lacp", "passive") in lacp:
            mode = "lacp-passive"
        facts = _l2_of(config, name, self.els)
        media = _value(config, ("interfaces", name, "mtu"))
        return PortChannel(
            name=name,
            mode=mode,  # type: ignore[arg-type]
            switchport=facts.mode,
            access_vlan=facts.access,
            native_vlan=facts.native,
            allowed_vlans=facts.allowed,
            members=[m.name for m in members],
            mtu=(int(media) if media else DEFAULT_MEDIA_MTU) - L2_HEADER,
            status="up" if any(m.member_state == "bundled" for m in members) else "down",
            load_balance=before.load_balance if before else None,
            multichassis_id=before.multichassis_id if before else None,
        )


def _apply_state(target: Switch, source: Switch) -> None:
    """Change `target` in place (the StatefulSwitch and its renderer hold that object)."""
    for name in type(target).model_fields:
        setattr(target, name, getattr(source, name))


def display_set(config: Config) -> list[str]:
    """The configuration as `show configuration | display set` prints it: one line per value."""
    lines = []
    keys = sorted(config, key=_order)
    for key in keys:
        values = config[key]
        if not values and any(other[: len(key)] == key and other != key for other in keys):
            continue  # a container with statements below it is shown by them
        words = " ".join(_quoted(w) for w in key)
        if not values:
            lines.append(f"set {words}")
        for value in values:
            lines.append(f"set {words} {_quoted(value)}")
    return lines


def _order(key: Path) -> tuple[int, Path]:
    top = ("version", "system", "chassis", "interfaces", "forwarding-options", "protocols", "vlans")
    return (top.index(key[0]) if key[0] in top else len(top), key)


def _quoted(word: str) -> str:
    return f'"{word}"' if not word or re.search(r"[\s\"';{}#]", word) else word


def _compare(active: Config, candidate: Config) -> str:
    """`show | compare`: statements removed (-) and added (+) under each hierarchy level."""
    blocks: dict[Path, list[str]] = {}
    for key in sorted(set(active) | set(candidate), key=_order):
        old, new = active.get(key), candidate.get(key)
        if old == new:
            continue
        parent, statement = key[:-1], key[-1]
        lines = blocks.setdefault(parent, [])
        for sign, values, other in (("-", old, new), ("+", new, old)):
            if values is None:
                continue
            if not values and (other is None or other):
                lines.append(f"{sign}   {statement};")
            for value in values:
                if other is None or value not in other:
                    lines.append(f"{sign}   {statement} {_quoted(value)};")
    out = []
    for parent, lines in blocks.items():
        out.append(f"[edit {' '.join(parent)}]")
        out.extend(lines)
    return "\n".join(out) + ("\n" if out else "")


@dataclass
class _Pending:
    """A `commit confirmed`: the configuration restored at `deadline` unless a commit confirms it."""

    deadline: float
    restore: Config


class JunosSession:
    """The Junos CLI of one switch: operational mode, configuration mode with a candidate, commits.

    `clock` (seconds, monotonic) decides when an unconfirmed `commit confirmed` rolls back; tests pass
    their own. `vlans` (name -> id) are VLANs defined besides those the state's ports carry.
    """

    def __init__(
        self,
        state: Switch,
        lacp_partners: frozenset[str] = frozenset(),
        *,
        clock: Callable[[], float] = time.monotonic,
        vlans: dict[str, int] | None = None,
    ) -> None:
        self.state = state
        self.family: Family = family(state.model) or "els"
        self.grammar = grammar(self.family)
        self.clock = clock
        self.vlans = vlans
        self.active = configuration(state, vlans)
        keep_unmodelled(state, self.active, vlans)
        # Committed configurations, newest first (`rollback 0` is the active one).
        self.history: list[Config] = [dict(self.active)]
        self.candidate: Config | None = None
        # The shared candidate's uncommitted changes, found again by the next `configure`.
        self._shared: Config | None = None
        self.private = False
        self.pending: _Pending | None = None
        self._deriver = _Deriver(state.model_copy(deep=True), dict(self.active), lacp_partners)

    # -- prompt and dispatch --

    def prompt(self) -> str:
        self.poll()
        return f"{USER}@{self.state.name}{'#' if self.candidate is not None else '>'} "

    def poll(self) -> None:
        """Roll an unconfirmed `commit confirmed` back once its time is up ("commit confirmed")."""
        if self.pending is not None and self.clock() >= self.pending.deadline:
            restore = self.pending.restore
            self.pending = None
            self._activate(restore)

    def execute(self, line: str) -> str:
        self.poll()
        text = line.strip()
        if not text or text.startswith("#"):
            return ""  # a comment line: the CLI ignores it
        try:
            words = _words(text)
            if self.candidate is None:
                return self._operational(text, words)
            return self._configuration(text, words)
        except Rejected as rejected:
            return self._caret(text, rejected)

    def _caret(self, text: str, rejected: Rejected) -> str:
        words = text.split()
        column = len(" ".join(words[: rejected.token])) + (1 if rejected.token else 0)
        return " " * (len(self.prompt()) + column) + "^\n" + rejected.message + "\n"

    # -- operational mode --

    def _operational(self, text: str, words: list[str]) -> str:
        if words[0] == "configure" and len(words) <= 2:
            # "configure": shared candidate; "configure private": a private copy, discarded on exit.
            if len(words) == 2 and words[1] not in ("private", "exclusive"):
                raise Rejected("syntax error.", 1)
            self.private = len(words) == 2 and words[1] == "private"
            shared = None if self.private else self._shared
            self.candidate = dict(shared if shared is not None else self.active)
            intro = "warning: uncommitted changes will be discarded on exit\n" if self.private else ""
            return intro + "Entering configuration mode\n"
        if words[:2] == ["set", "cli"] and len(words) >= 3:
            return {
                "screen-length": f"Screen length set to {words[-1]}\n",
                "screen-width": f"Screen width set to {words[-1]}\n",
                "complete-on-space": "Disabling complete-on-space\n",
            }.get(words[2], "")
        if words[0] == "show":
            shown = render(self.state, text)
            if shown is not None:
                return shown
            raise Rejected("syntax error, expecting <command>.", 1)
        raise Rejected("unknown command.", 0)

    # -- configuration mode --

    def _configuration(self, text: str, words: list[str]) -> str:
        assert self.candidate is not None
        verb = words[0]
        if verb == "set":
            parsed = parse(self.grammar, words[1:], need_value=True, offset=1)
            self._set(parsed)
            return ""
        if verb == "delete":
            return self._delete(parse(self.grammar, words[1:], need_value=False, offset=1))
        if verb in ("copy", "rename"):
            return self._copy(words, move=verb == "rename")
        if words in (["show", "|", "compare"], ["show", "|", "compare", "|", "no-more"]):
            return _compare(self.active, self.candidate)
        if words[0] == "show" and "|" in words and "display" in words:
            return "\n".join(display_set(self.candidate)) + "\n"
        if verb == "run" and len(words) > 1:
            shown = render(self.state, " ".join(words[1:]))
            if shown is None:
                raise Rejected("syntax error, expecting <command>.", 2)
            return shown
        if verb == "commit":
            return self._commit(words)
        if verb == "rollback":
            number = words[1] if len(words) > 1 else "0"
            if len(words) > 2 or not number.isdigit() or int(number) > 49:
                raise Rejected("syntax error.", 1)
            if int(number) >= len(self.history):
                return f"error: rollback {number} does not exist\n"
            self.candidate = dict(self.history[int(number)])
            return "load complete\n"
        if words in (["exit"], ["quit"], ["exit", "configuration-mode"], ["quit", "configuration-mode"]):
            changed = self.candidate != self.active
            self._shared = None if self.private or not changed else self.candidate
            self.candidate = None
            # A private candidate's uncommitted changes are discarded on exit (Junos CLI User Guide,
            # "configure private"); the shared candidate is kept, as `configure` finds it again.
            note = "The configuration has been changed but not committed\n" if changed else ""
            return note + "Exiting configuration mode\n"
        if words == ["top"]:
            return ""
        raise Rejected("syntax error.", 0)

    def _set(self, parsed: Parsed) -> None:
        assert self.candidate is not None
        path, node = parsed.path, parsed.node
        if node.value is not None and node.multi:
            existing = self.candidate.get(path, ())
            self.candidate[path] = existing + tuple(v for v in parsed.values if v not in existing)
            return
        for other in parsed.parent.exclusive:
            if other != path[-1]:
                self._remove((*path[:-1], other))
        self.candidate[path] = parsed.values

    def _remove(self, prefix: Path) -> bool:
        assert self.candidate is not None
        found = [k for k in self.candidate if k[: len(prefix)] == prefix]
        for key in found:
            del self.candidate[key]
        return bool(found)

    def _delete(self, parsed: Parsed) -> str:
        assert self.candidate is not None
        path = parsed.path
        if parsed.values:
            existing = self.candidate.get(path)
            if existing is None or not set(parsed.values) & set(existing):
                return "warning: statement not found\n"
            kept = tuple(v for v in existing if v not in parsed.values)
            if kept:
                self.candidate[path] = kept
            else:
                del self.candidate[path]
            return ""
        return "" if self._remove(path) else "warning: statement not found\n"

    def _copy(self, words: list[str], move: bool) -> str:
        assert self.candidate is not None
        if "to" not in words:
            raise Rejected("syntax error.", len(words))
        split = words.index("to")
        source = parse(self.grammar, words[1:split], need_value=False, offset=1)
        target = parse(self.grammar, words[split + 1 :], need_value=False, offset=split + 1)
        if source.node is not target.node or source.values or target.values:
            raise Rejected("syntax error.", split + 1)
        below = _under(self.candidate, source.path)
        if not below:
            return "error: statement not found\n"
        if _under(self.candidate, target.path):
            return "error: target statement already exists\n"
        for key, values in below.items():
            self.candidate[target.path + key[len(source.path) :]] = values
        if move:
            self._remove(source.path)
        return ""

    def _commit(self, words: list[str]) -> str:
        assert self.candidate is not None
        check = words[1:] == ["check"]
        minutes = None
        if len(words) >= 2 and words[1] == "confirmed":
            minutes_word = words[2] if len(words) > 2 else "10"
            if len(words) > 3 or not minutes_word.isdigit():
                raise Rejected("syntax error.", 2)
            if not 1 <= int(minutes_word) <= 65535:
                raise Rejected(_range(1, 65535)(minutes_word) or "syntax error.", 2)
            minutes = int(minutes_word)
        elif len(words) > 1 and not check:
            raise Rejected("syntax error.", 1)
        problems = commit_problems(self.candidate)
        if problems:
            return "\n".join(problems) + "\n" + CHECKOUT_FAILED + "\n"
        # A commit or commit check confirms a pending `commit confirmed` ("commit confirmed").
        self.pending = None
        if check:
            return "configuration check succeeds\n"
        previous = self.active
        self._shared = None
        if self.candidate != self.active:
            self._activate(dict(self.candidate))
        if minutes is not None:
            self.pending = _Pending(deadline=self.clock() + minutes * 60, restore=previous)
            return (
                f"configuration check succeeds\ncommit confirmed will be automatically rolled back in "
                f"{minutes} minutes unless confirmed\ncommit complete\n"
            )
        return "configuration check succeeds\ncommit complete\n"

    def _activate(self, config: Config) -> None:
        self.active = config
        self.history.insert(0, dict(config))
        del self.history[50:]
        derived = self._deriver.state(config)
        keep_unmodelled(derived, config, self.vlans)
        _apply_state(self.state, derived)


# --- show commands ----------------------------------------------------------------------------------


def render(state: Switch, command: str) -> str | None:
    """What the switch prints for a show command the collector sends, or one a script's verify runs
    (`show interfaces X [terse|media]`, `show lacp interfaces X`, `show ethernet-switching interface X`,
    `show configuration PATH`), with `| match REGEX`; None for any other command."""
    text, _, pattern = command.partition(" | match ")
    words = text.split()
    while len(words) >= 2 and words[-2:] == ["|", "no-more"]:
        words = words[:-2]
    shown = _render(state, " ".join(words))
    if shown is None or not pattern:
        return shown
    wanted = re.compile(pattern.strip().strip('"'))
    return "".join(line + "\n" for line in shown.splitlines() if wanted.search(line))


def _render(state: Switch, text: str) -> str | None:
    words = text.split()
    shows: dict[str, Callable[[Switch], str]] = {
        "show version": show_version,
        "show configuration | display set": show_configuration,
        "show interfaces extensive": show_interfaces_extensive,
        "show lacp interfaces": show_lacp_interfaces,
        "show lldp neighbors": show_lldp_neighbors,
        "show virtual-chassis": show_virtual_chassis,
    }
    shown = shows.get(text)
    if shown is not None:
        return shown(state)
    if words[:2] == ["show", "configuration"] and len(words) > 2:
        return _curly(configuration(state), tuple(words[2:]))
    if words[:3] == ["show", "interfaces", "terse"] and len(words) == 4:
        return _interface(state, words[3], "terse")
    if words[:2] == ["show", "interfaces"] and len(words) in (3, 4):
        return _interface(state, words[2], words[3] if len(words) == 4 else "")
    if words[:3] == ["show", "lacp", "interfaces"] and len(words) == 4:
        return _lacp_of(state, words[3])
    if words[:3] == ["show", "ethernet-switching", "interface"] and len(words) == 4:
        return _switching(state, words[3])
    return None


def _curly(config: Config, prefix: Path) -> str:
    """`show configuration PATH`: the statements below PATH in the configuration's brace form."""
    tree: dict[str, object] = {}
    for key, values in sorted(config.items(), key=lambda item: _order(item[0])):
        if key[: len(prefix)] != prefix:
            continue
        # The path shown itself (a leaf such as `native-vlan-id`) is printed as its last word.
        rest = key[len(prefix) - 1 :] if key == prefix else key[len(prefix) :]
        node = tree
        for word in rest[:-1]:
            node = node.setdefault(word, {})  # type: ignore[assignment]
        node[rest[-1]] = values
    return "".join(_braces(tree, 0))


def _braces(tree: dict[str, object], depth: int) -> list[str]:
    lines = []
    pad = "    " * depth
    for word, below in tree.items():
        if word == "unit" and isinstance(below, dict):  # `unit 0 {`: the keyword and its name on one line
            for unit, inside in below.items():
                lines.append(f"{pad}unit {unit} {{\n")
                lines += _braces(inside, depth + 1) if isinstance(inside, dict) else []
                lines.append(f"{pad}}}\n")
        elif isinstance(below, dict):
            lines.append(f"{pad}{_quoted(word)} {{\n")
            lines += _braces(below, depth + 1)
            lines.append(f"{pad}}}\n")
        elif not below:
            lines.append(f"{pad}{_quoted(word)};\n")
        elif len(below) == 1:  # type: ignore[arg-type]
            lines.append(f"{pad}{_quoted(word)} {_quoted(below[0])};\n")  # type: ignore[index]
        else:
            lines.append(f"{pad}{_quoted(word)} [ {' '.join(_quoted(v) for v in below)} ];\n")  # type: ignore[attr-defined]
    return lines


def _find(state: Switch, name: str) -> SwitchPort | PortChannel | None:
    return next((i for i in [*state.ports, *state.port_channels] if i.name == name), None)


def _interface(state: Switch, name: str, detail: str) -> str | None:
    item = _find(state, name)
    if item is None:
        return f"error: device {name} not found\n"
    if detail not in ("", "terse", "media", "extensive"):
        return None
    if detail == "terse":
        return _terse(item)
    up = item.status == "up"
    media = (item.mtu if item.mtu is not None else DEFAULT_MEDIA_MTU - L2_HEADER) + L2_HEADER
    lines = _physical(
        name, 0, getattr(item, "description", None), item.status != "disabled", up, _link_line(item, media, up)
    )
    if detail == "media" and isinstance(item, SwitchPort):
        forced = item.configured_speed_mbps is not None or item.configured_duplex is not None
        lines.append(f"  Auto-negotiation: {'Disabled' if forced else 'Enabled'}")
    return "\n".join(lines) + "\n"


def _terse(item: SwitchPort | PortChannel) -> str:
    admin = "down" if item.status == "disabled" else "up"
    link = "up" if item.status == "up" else "down"
    lines = [f"{'Interface':<24}Admin Link Proto    Local                 Remote", f"{item.name:<24}{admin:<6}{link}"]
    bundle = item.port_channel if isinstance(item, SwitchPort) else None
    if bundle:
        lines.append(f"{item.name + '.0':<24}{admin:<6}{link:<5}aenet    --> {bundle}.0")
    elif (item.mode if isinstance(item, SwitchPort) else item.switchport) in ("access", "trunk"):
        lines.append(f"{item.name + '.0':<24}{admin:<6}{link:<5}eth-switch")
    return "\n".join(lines) + "\n"


def _lacp_of(state: Switch, name: str) -> str:
    channel = next((c for c in state.port_channels if c.name == name), None)
    if channel is None or channel.mode not in ("lacp-active", "lacp-passive"):
        return "warning: lacp subsystem not running - not needed by configuration.\n"
    only = state.model_copy(update={"port_channels": [channel]})
    return show_lacp_interfaces(only)


def _switching(state: Switch, name: str) -> str:
    item = _find(state, name)
    if item is None:
        return f"error: device {name} not found\n"
    mode = item.mode if isinstance(item, SwitchPort) else item.switchport
    lines = [
        "Routing Instance Name : default-switch",
        "Logical Interface flags (DL - disable learning, AD - packet action drop,",
        "                         LH - MAC limit hit, DN - interface down )",
        "",
        "Logical             Vlan                     TAG     MAC         STP         Logical           Tagging ",
        "interface           members                          limit       state       interface flags   ",
    ]
    vlan_list: list[int] = []
    if item.access_vlan:
        vlan_list = [item.access_vlan]
    for low, high in item.allowed_vlans or []:
        vlan_list += list(range(low, high + 1)) if high - low < 64 else [low]
    lines.append(
        f"{name + '.0':<20}{'':<25}{'':<8}{'':<12}{'':<12}{'':<18}{'tagged' if mode == 'trunk' else 'untagged'}"
    )
    for vlan in vlan_list:
        lines.append(f"{'':<20}{_vlan_name(vlan):<25}{vlan:<8}{294912:<12}{'Forwarding':<12}{'':<18}tagged")
    return "\n".join(lines) + "\n"


def show_version(state: Switch) -> str:
    lines = ["fpc0:", "-" * 74, f"Hostname: {state.name}"]
    if state.model:
        lines.append(f"Model: {state.model}")
    if state.os_version:
        lines.append(f"Junos: {state.os_version}")
        lines.append("JUNOS OS Kernel 64-bit  [20230822.0c7bd6b_builder_stable_11]")
        lines.append("JUNOS OS libs [20230822.0c7bd6b_builder_stable_11]")
        lines.append(f"JUNOS EX  Software Suite [{state.os_version}]")
        lines.append(f"JUNOS Online Documentation [{state.os_version}]")
    return "\n".join(lines) + "\n\n{master:0}\n"


def show_configuration(state: Switch) -> str:
    lines = [f"set version {state.os_version}"] if state.os_version else []
    lines += display_set(configuration(state))
    return "\n".join(lines) + "\n"


def _link_line(item: SwitchPort | PortChannel, media: int, up: bool, aggregate: int = 0) -> str:
    """The `Link-level type` line; an ae's speed is the sum of its bundled members' (`aggregate`)."""
    fixed = (
        "BPDU Error: None, Ethernet-Switching Error: None, MAC-REWRITE Error: None, Loopback: Disabled, "
        "Source filtering: Disabled, Flow control: Disabled"
    )
    if isinstance(item, PortChannel):
        speed = f"{aggregate // 1000}Gbps" if aggregate >= 1000 and up else "Unspecified"
        return f"  Link-level type: Ethernet, MTU: {media}, Speed: {speed}, {fixed}"
    speed_mbps = item.speed_mbps if up else None
    if speed_mbps is not None and speed_mbps >= 10000:
        return f"  Link-level type: Ethernet, MTU: {media}, LAN-PHY mode, Speed: {speed_mbps // 1000}Gbps, {fixed}"
    duplex = {"full": "Full-duplex", "half": "Half-duplex"}.get(item.duplex or "", "Auto") if up else "Auto"
    speed = f"{speed_mbps}mbps" if speed_mbps else "Auto"
    return f"  Link-level type: Ethernet, MTU: {media}, Link-mode: {duplex}, Speed: {speed}, {fixed}"


def _physical(
    name: str, index: int, description: str | None, admin_up: bool, up: bool, link: str, channel: bool = False
) -> list[str]:
    """One `Physical interface:` block up to its logical units, in the shape of the captured sample
    (hostlint/switches/juniper_junos/show_interfaces_extensive.txt); counters are zero."""
    mac = f"40:a6:77:e1:2c:{index:02x}"
    lines = [
        f"Physical interface: {name}, {'Enabled' if admin_up else 'Administratively down'}, "
        f"Physical link is {'Up' if up else 'Down'}",
        f"  Interface index: {650 + index}, SNMP ifIndex: {517 + index}, Generation: {141 + index}",
    ]
    if description:
        lines.append(f"  Description: {description}")
    lines.append(link)
    if channel:
        lines.append("  Minimum links needed: 1, Minimum bandwidth needed: 1bps")
    lines += [
        f"  Device flags   : Present{' Running' if up else ''}",
        f"  Interface flags: {'' if up else 'Down '}SNMP-Traps Internal: 0x4000",
        "  Link flags     : None",
        "  CoS queues     : 12 supported, 12 maximum usable queues",
        "  Hold-times     : Up 0 ms, Down 0 ms",
        f"  Current address: {mac}, Hardware address: {mac}",
        f"  Last flapped   : {'2026-09-01 10:15:22 UTC (11w6d 16:24 ago)' if up else 'Never'}",
        "  Statistics last cleared: Never",
        "  Traffic statistics:",
        "   Input  bytes  :                    0                 0 bps",
        "   Output bytes  :                    0                 0 bps",
        "   Input  packets:                    0                    0 pps",
        "   Output packets:                    0                    0 pps",
        "  Input errors:",
        "    Errors: 0, Drops: 0, Framing errors: 0, Runts: 0, Policed discards: 0, L3 incompletes: 0, "
        "L2 channel errors: 0, L2 mismatch timeouts: 0, FIFO errors: 0, Resource errors: 0",
        "  Output errors:",
        "    Carrier transitions: 3, Errors: 0, Drops: 0, Collisions: 0, Aged packets: 0, FIFO errors: 0, "
        "HS link CRC errors: 0, MTU errors: 0, Resource errors: 0",
    ]
    if not channel:
        lines += [
            "  Egress queues: 12 supported, 5 in use",
            "  Queue counters:       Queued packets  Transmitted packets      Dropped packets",
            *(f"    {q:<34}0                    0                    0" for q in (0, 3, 4, 7, 8)),
            f"  Active alarms  : {'None' if up or not admin_up else 'LINK'}",
            f"  Active defects : {'None' if up or not admin_up else 'LINK'}",
            "  PCS statistics                      Seconds",
            "    Bit errors                             0",
            "    Errored blocks                         0",
        ]
    return lines


def show_interfaces_extensive(state: Switch) -> str:
    blocks = []
    index = 0
    for port in state.ports:
        up = port.status == "up"
        media = (port.mtu if port.mtu is not None else DEFAULT_MEDIA_MTU - L2_HEADER) + L2_HEADER
        lines = _physical(
            port.name, index, port.description, port.status != "disabled", up, _link_line(port, media, up)
        )
        if port.port_channel:
            lines += [
                f"  Logical interface {port.name}.0 (Index {562 + index}) (SNMP ifIndex {542 + index})",
                "    Flags: Up SNMP-Traps 0x4004000 Encapsulation: Ethernet-Bridge",
                "    Statistics        Packets        pps         Bytes          bps",
                "    Bundle:",
                "        Input :               0          0             0            0",
                "        Output:               0          0             0            0",
                f"    Protocol aenet, AE bundle: {port.port_channel}.0, Link Index: 0",
            ]
        elif port.mode in ("access", "trunk"):
            lines += [
                f"  Logical interface {port.name}.0 (Index {562 + index}) (SNMP ifIndex {542 + index})",
                "    Flags: Up SNMP-Traps 0x24024000 Encapsulation: Ethernet-Bridge",
                "    Input packets : 0",
                "    Output packets: 0",
                f"    Protocol eth-switch, MTU: {media}, Generation: {182 + index}, Route table: 5",
                f"      Flags: {'Trunk-Mode' if port.mode == 'trunk' else 'Is-Primary'}",
            ]
        blocks.append("\n".join(lines))
        index += 1
    for channel in state.port_channels:
        up = channel.status == "up"
        media = (channel.mtu if channel.mtu is not None else DEFAULT_MEDIA_MTU - L2_HEADER) + L2_HEADER
        aggregate = sum(
            p.speed_mbps or 0 for p in state.ports if p.port_channel == channel.name and p.member_state == "bundled"
        )
        lines = _physical(channel.name, index, None, True, up, _link_line(channel, media, up, aggregate), True)
        if channel.switchport in ("access", "trunk") or any(p.port_channel == channel.name for p in state.ports):
            lines += [
                f"  Logical interface {channel.name}.0 (Index {562 + index}) (SNMP ifIndex {542 + index})",
                f"    Flags: {'Up' if up else 'Device-Down'} SNMP-Traps 0x24024000 Encapsulation: Ethernet-Bridge",
                "    Input packets : 0",
                "    Output packets: 0",
                f"    Protocol eth-switch, MTU: {media}, Generation: {182 + index}, Route table: 5",
                f"      Flags: {'Is-Primary' if channel.switchport == 'access' else 'Trunk-Mode'}",
            ]
        blocks.append("\n".join(lines))
        index += 1
    return "\n\n".join(blocks) + "\n"


_LACP_HEAD = "    LACP state:       Role   Exp   Def  Dist  Col  Syn  Aggr  Timeout  Activity"
_PROTOCOL_HEAD = "    LACP protocol:        Receive State  Transmit State          Mux State "


def show_lacp_interfaces(state: Switch) -> str:
    lacp = [c for c in state.port_channels if c.mode in ("lacp-active", "lacp-passive")]
    if not lacp:
        return "warning: lacp subsystem not running - not needed by configuration.\n"
    ports = {p.name: p for p in state.ports}
    blocks = []
    for channel in lacp:
        activity = "Active" if channel.mode == "lacp-active" else "Passive"
        rows, protocol = [], []
        for member in channel.members:
            port = ports.get(member)
            member_state = port.member_state if port else None
            if member_state == "bundled":
                flags, partner = "   No    No   Yes  Yes  Yes   Yes     Fast", "Active"
                protocol.append(f"      {member:<12}              Current   Fast periodic Collecting distributing")
            elif member_state == "down":
                flags, partner = "   No   Yes    No   No   No   Yes     Fast", "Passive"
                protocol.append(f"      {member:<12}        Port disabled     No periodic           Detached")
            else:
                flags, partner = "   No   Yes    No   No   No   Yes     Fast", "Passive"
                protocol.append(f"      {member:<12}            Defaulted   Fast periodic           Detached")
            rows.append(f"      {member:<12}  Actor{flags}    {activity}")
            rows.append(f"      {member:<12}Partner{flags}   {partner}")
        blocks.append(
            "\n".join([f"Aggregated interface: {channel.name}", _LACP_HEAD, *rows, _PROTOCOL_HEAD, *protocol])
        )
    return "\n\n".join(blocks) + "\n"


def show_lldp_neighbors(state: Switch) -> str:
    lines = [f"{'Local Interface':<19}{'Parent Interface':<20}{'Chassis Id':<20}{'Port info':<19}System Name"]
    for port in state.ports:
        for neighbour in port.neighbours:
            chassis = (
                "00:50:56:00:00:00" if not re.fullmatch(r"[0-9a-f:]{17}", neighbour.device_id) else neighbour.device_id
            )
            name = neighbour.system_name or neighbour.device_id
            lines.append(
                f"{port.name:<19}{port.port_channel or '-':<20}{chassis:<20}{neighbour.port_id or '-':<19}{name}"
            )
    return "\n".join(lines) + "\n"


def show_virtual_chassis(state: Switch) -> str:
    """One member row for a standalone switch, two for a virtual chassis (hostlint reads a pair)."""
    chassis = state.multichassis
    model = state.model or "ex4300-48t"
    pair = chassis is not None and chassis.kind == "virtual-chassis"
    rows = [f"0 (FPC 0)  Prsnt    WS3717230001 {model:<15} 129  Master*      N  VC   1  vcp-255/1/0"]
    if pair:
        rows.append(f"1 (FPC 1)  Prsnt    WS3717230002 {model:<15} 129  Backup       N  VC   0  vcp-255/1/0")
    domain = chassis.domain_id if chassis is not None and pair else "5c2e.8b4a.0f12"
    lines = [
        "",
        "Preprovisioned Virtual Chassis",
        f"Virtual Chassis ID: {domain}",
        "Virtual Chassis Mode: Enabled",
        "                                                Mstr           Mixed Route Neighbor List",
        "Member ID  Status   Serial No    Model          prio  Role      Mode  Mode ID  Interface",
        *rows,
        "",
        "{master:0}",
    ]
    return "\n".join(lines) + "\n"


# The emulator piece of hostlint/switches/juniper_junos/ (hostlint.switches.contract): the configuration
# session and the show command renderer switch_emulator.stateful finds here.
SESSION = JunosSession
RENDER = render
