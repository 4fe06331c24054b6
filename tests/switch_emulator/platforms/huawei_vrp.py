"""Huawei VRP for the stateful switch emulator: a configuration session (user view, system view, interface
view; VRP 8's two-stage `commit`) over a VRP configuration, and the display commands
hostlint/switches/huawei_vrp/spec.yaml sends, rendered from it so that the folder's templates read them back.

`SESSION` (VrpConfigSession) is the session over a snapshot `Switch` the shared rehearsal hands every
platform, and `RENDER` the display output of a snapshot `Switch` (the platform folder's emulator hooks,
docs/design/platform-folders.md); `VrpSession` is the CLI over a `VrpState`, and `render` shows one. The state
starts from a `Switch` (`from_switch`), the model the folder's `assemble.build` makes of the collected
output, plus what the snapshot does not hold (the VRP version, the far end's LACP). `VrpSwitch(state)`
answers like switch_emulator.stateful.StatefulSwitch, so
`EmulatedSwitch(name, "huawei_vrp", stateful=VrpSwitch(state))` serves it over SSH to netmiko's `huawei`.

The grammar, each rule citing its page (S300, S500, S2700, S5700 and S6700 Series Command Reference for
VRP 5; CloudEngine 6800/5800 Command Reference for VRP 8):

- Views and prompts: "system-view" (`<HUAWEI>` user view, `[HUAWEI]` system view, `[HUAWEI-Eth-Trunk1]`
  an interface's view), "quit" (back one view; in user view it ends the session), "return" (to user view),
  "screen-length temporary" (what netmiko sends first: `screen-length 0 temporary`), "commit" (VRP 8:
  configuration waits in a candidate until committed: CloudEngine 8800, 7800, 6800 and 5800 V200R002C50,
  "Selecting a Mode for the Configuration to Take Effect", support.huawei.com EDOC1000166501: in the
  two-stage mode the commands entered are checked in the candidate database and take effect only when
  `commit` is run; the display commands show the running, committed configuration. Leaving with `return`
  uncommitted discards the candidate here, where a CloudEngine first asks whether to commit it);
  "CLI Overview": `Error: Unrecognized command found at '^' position.`, `Error: Wrong parameter found at
  '^' position.`, `Error: Incomplete command found at '^' position.`.
- Interfaces: "interface (system view)" (type and number also apart, `interface eth-trunk 1` creates the
  trunk), "undo interface eth-trunk" (removes it; refused while it has members), "shutdown" / "undo
  shutdown", "description", "jumboframe enable [value]" / "undo jumboframe enable" (9216 without a value;
  undone: 1600 here, the sample's default), "negotiation auto" / "undo negotiation auto", "speed", "duplex"
  (only without auto-negotiation).
- Eth-Trunks: "eth-trunk (interface view)" / "undo eth-trunk" (a port joins an existing trunk; it must
  have no VLAN lines of its own: `port link-type` and the rest are refused while it is a member, and a
  port with them cannot join), "mode (Eth-Trunk interface view)" (`manual load-balance`, `lacp` (VRP 5
  V200R005+), `lacp-static` (VRP 8, older VRP 5); refused while the trunk has members), "load-balance
  (Eth-Trunk interface view)", "display eth-trunk" (LACP members `Selected` when the partner answers,
  else `Unselect`; manual members `Up`/`Down`).
- VLANs: "port link-type { access | trunk | hybrid }" / "undo port link-type", "port default vlan", "port
  trunk pvid vlan" / "undo port trunk pvid vlan" (1 by default), "port trunk allow-pass vlan { list | all }"
  (a list of `N` and `N to M`, added; `undo` removes; a trunk starts in VLAN 1), "display port vlan".
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from hostlint import names, switches, vlans
from hostlint.collect.switches.parse import parse_output
from hostlint.collect.switches.platforms import load_folder
from hostlint.snapshot.switch import PortChannel, Switch
from hostlint.switches.huawei_vrp import assemble, families

UNRECOGNIZED = "Error: Unrecognized command found at '^' position."
INCOMPLETE = "Error: Incomplete command found at '^' position."
WRONG = "Error: Wrong parameter found at '^' position."
JUMBO = 9216
NO_JUMBO = 1600
TYPES = ("GigabitEthernet", "XGigabitEthernet", "MultiGE", "10GE", "25GE", "40GE", "100GE", "GE", "Eth-Trunk")


@dataclass
class Interface:
    name: str
    description: str = ""
    shutdown: bool = False
    link_type: str | None = None
    default_vlan: int = 1
    pvid: int = 1
    allowed: set[int] = field(default_factory=lambda: {1})
    eth_trunk: int | None = None
    mode: str = "manual"  # an Eth-Trunk's: manual, lacp, lacp-static
    load_balance: str | None = None
    jumbo: int | None = None
    negotiation: bool = True
    speed: int | None = None
    duplex: str | None = None
    mlag_id: int | None = None
    peer_link: bool = False  # an M-LAG's peer link (`peer-link 1`)
    # Operational facts the configuration does not give.
    link_up: bool = True
    rate: int = 10000
    partner_lacp: bool = True
    neighbours: list[tuple[str, str, str | None]] = field(default_factory=list)  # (system, port id, port description)

    @property
    def trunk(self) -> bool:
        return self.name.startswith("Eth-Trunk")

    @property
    def frame_length(self) -> int:
        return self.jumbo or NO_JUMBO


@dataclass
class VrpState:
    sysname: str
    model: str = "S6730-H24X6C"
    version: str = "5.170"
    release: str = "V200R022C00SPC500"
    interfaces: dict[str, Interface] = field(default_factory=dict)
    stack_slots: list[int] = field(default_factory=list)  # an iStack's members (`stack slot N priority P`)
    dfs_group: str | None = None  # an M-LAG's DFS group (`dfs-group N`)

    @property
    def vrp8(self) -> bool:
        return self.version.startswith("8.")

    def members(self, number: int) -> list[Interface]:
        return [i for i in self.interfaces.values() if i.eth_trunk == number]


def from_switch(switch: Switch, version: str | None = None) -> VrpState:
    """The emulator's state for a `Switch` as hostlint.switches.huawei_vrp.assemble builds it."""
    # A switch whose model or version names VRP 8 (a CloudEngine) runs VRP 8 here: commit-based.
    vrp8 = families.family_of(switch.model, switch.os_version) == families.VRP8
    state = VrpState(
        sysname=switch.name,
        model=switch.model or "S6730-H24X6C",
        version=version or switch.os_version or ("8.180" if vrp8 else "5.170"),
    )
    for channel in switch.port_channels:
        number = int(channel.name.removeprefix("Eth-Trunk"))
        trunk = Interface(
            name=channel.name,
            mode=("lacp-static" if state.vrp8 else "lacp")
            if channel.mode and channel.mode.startswith("lacp")
            else "manual",
            load_balance=channel.load_balance,
            jumbo=_frame(channel.mtu),
            mlag_id=channel.multichassis_id,
        )
        _vlans_of(trunk, channel.switchport, channel.access_vlan, channel.native_vlan, channel.allowed_vlans)
        state.interfaces[channel.name] = trunk
        for member in channel.members:
            state.interfaces[member] = Interface(name=member, eth_trunk=number, jumbo=trunk.jumbo)
    for port in switch.ports:
        own = state.interfaces.setdefault(port.name, Interface(name=port.name))
        own.description = port.description or ""
        own.shutdown = port.status == "disabled"
        own.link_up = port.status != "down"  # not shown: up
        own.rate = port.speed_mbps or own.rate
        own.jumbo = _frame(port.mtu) if port.mtu else own.jumbo
        own.partner_lacp = port.member_state != "suspended"
        if port.configured_speed_mbps or port.configured_duplex:
            own.negotiation, own.speed, own.duplex = False, port.configured_speed_mbps, port.configured_duplex
        own.neighbours = [(n.system_name or n.device_id, n.port_id, n.port_description) for n in port.neighbours]
        if own.eth_trunk is None:
            _vlans_of(own, port.mode, port.access_vlan, port.native_vlan, port.allowed_vlans)
    _multichassis_of(switch, state)
    return state


def _multichassis_of(switch: Switch, state: VrpState) -> None:
    """An iStack's slots (the first number of its port names) or an M-LAG's DFS group and peer link, as
    hostlint.switches.huawei_vrp.assemble reads them. The snapshot does not say which Eth-Trunk is the peer
    link: the one without an M-LAG id whose members face the peer, else the first without one."""
    pair = switch.multichassis
    if pair is None:
        return
    if pair.kind == "istack":
        slots = {int(m.group(1)) for p in switch.ports if (m := re.search(r"(\d+)/\d+/\d+$", p.name))}
        state.stack_slots = sorted(slots) if len(slots) > 1 else [0, 1]
    elif pair.kind == "m-lag":
        state.dfs_group = pair.domain_id
        ports = {p.name: p for p in switch.ports}

        def faces_peer(channel: PortChannel) -> bool:
            facing = [n for m in channel.members if m in ports for n in ports[m].neighbours]
            return pair.peer is not None and any(pair.peer in (n.system_name, n.device_id) for n in facing)

        candidates = sorted(
            (c for c in switch.port_channels if c.multichassis_id is None), key=faces_peer, reverse=True
        )
        if candidates:
            state.interfaces[candidates[0].name].peer_link = True


def _frame(ip_mtu: int | None) -> int | None:
    """The `jumboframe enable` a port of this MTU has: none (the default) for a figure below VRP's smallest
    frame (1536) or at the default (1600), as a hand-written snapshot may hold (1500)."""
    if ip_mtu is None or ip_mtu + 22 < 1536 or ip_mtu + 22 == NO_JUMBO:
        return None
    return ip_mtu + 22


def _vlans_of(
    interface: Interface,
    mode: str | None,
    access: int | None,
    native: int | None,
    allowed: list[tuple[int, int]] | None,
) -> None:
    if mode == "access":
        interface.link_type, interface.default_vlan = "access", access or 1
    elif mode == "trunk":
        interface.link_type, interface.pvid = "trunk", native or 1
        interface.allowed = {v for low, high in allowed or [(1, 1)] for v in range(low, high + 1)}


# The fix-writer tests' small site on this platform (tests/support/fix_sites.py): port and channel names,
# a hash that leaves out the IP addresses (so the hash fix is planned), no pair (M-LAG channels
# are left to a person: platform.py `multichassis_by_hand`), and members carrying no VLAN lines of their own.
SITE: dict[str, object] = {
    "port": "XGigabitEthernet0/0/{}",
    "channel": "Eth-Trunk{}",
    "hash": ("src-dst-mac", None),
    "pair": None,
    "model": "S6730-H24X6C",
    "member_vlans": False,
    # For the generated sites (tests/support/site_strategy.py): a member's Eth-Trunk line, and a line no field
    # models ("lacp timeout fast" in the Eth-Trunk view); `stp edged-port enable` is not read by hostlint.
    "member_line": "eth-trunk {number}",
    "member_lines": [],
    "channel_lines": ["lacp timeout fast"],
    "edge_lines": [],
}


def vlan_list(words: list[str]) -> set[int] | None:
    """`10 20 to 30` -> the VLANs; None when it is no VLAN list ("port trunk allow-pass vlan")."""
    if words == ["all"]:
        return set(range(1, 4095))
    found: set[int] = set()
    i = 0
    while i < len(words):
        if not words[i].isdigit():
            return None
        low = high = int(words[i])
        if i + 2 < len(words) and words[i + 1] == "to" and words[i + 2].isdigit():
            high = int(words[i + 2])
            i += 3
        else:
            i += 1
        if not 1 <= low <= high <= 4094:
            return None
        found |= set(range(low, high + 1))
    return found or None


def vlan_text(ids: set[int], through: str = " to ") -> str:
    return " ".join(vlans.text([r]).replace("-", through) for r in vlans.merge([(v, v) for v in ids]))


class Rejected(Exception):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def canonical(words: list[str]) -> str | None:
    """`XGigabitEthernet0/0/1`, `xgigabitethernet 0/0/1`, `eth-trunk 1` -> the interface's name."""
    text = "".join(words)
    for kind in sorted(TYPES, key=len, reverse=True):
        if text.lower().startswith(kind.lower()):
            rest = text[len(kind) :]
            if rest and all(part.isdigit() for part in rest.replace(":", "/").split("/")):
                return kind + rest
    return None


class VrpSession:
    """The CLI views of one switch. On VRP 8 the views edit a candidate that `commit` makes current."""

    def __init__(self, state: VrpState) -> None:
        self.state = state
        self.candidate: VrpState | None = None
        self.view = "user"
        self.interface: str | None = None

    @property
    def editing(self) -> VrpState:
        return self.candidate if self.candidate is not None else self.state

    def prompt(self) -> str:
        if self.view == "user":
            return f"<{self.state.sysname}>"
        if self.interface is not None:
            return f"[{self.state.sysname}-{self.interface}]"
        return f"[{self.state.sysname}]"

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
        if command == "return":
            self.view, self.interface, self.candidate = "user", None, None
            return ""
        if command == "quit":
            if self.interface is not None:
                self.interface = None
            else:
                self.view, self.candidate = "user", None
            return ""
        if self.view == "user":
            if command == "system-view":
                self.view = "system"
                if self.state.vrp8:
                    self.candidate = copy.deepcopy(self.state)
                return "Enter system view, return user view with return command."
            raise Rejected(UNRECOGNIZED)
        if command == "commit":
            if self.candidate is None:
                raise Rejected(UNRECOGNIZED)  # VRP 5 has no commit
            self.state.interfaces = copy.deepcopy(self.candidate.interfaces)
            return ""
        # An `interface` line in an interface's view moves to that interface, as in system view.
        if self.interface is not None and words[0] != "interface" and words[:2] != ["undo", "interface"]:
            return self._interface_view(self.editing.interfaces[self.interface], words)
        return self._system_view(words)

    def _system_view(self, words: list[str]) -> str:
        undo = words[0] == "undo"
        args = words[1:] if undo else words
        if args[0] != "interface" or len(args) < 2:
            raise Rejected(UNRECOGNIZED)
        name = canonical(args[1:])
        if name is None:
            raise Rejected(WRONG)
        interfaces = self.editing.interfaces
        if undo:
            if not name.startswith("Eth-Trunk") or name not in interfaces:
                raise Rejected(WRONG)
            if self.editing.members(int(name.removeprefix("Eth-Trunk"))):
                raise Rejected("Error: The Eth-Trunk has member ports. Delete them first.")
            del interfaces[name]
            return ""
        if name not in interfaces:
            if not name.startswith("Eth-Trunk"):
                raise Rejected(WRONG)
            interfaces[name] = Interface(name=name)
        self.interface = name
        return ""

    def _interface_view(self, interface: Interface, words: list[str]) -> str:
        undo = words[0] == "undo"
        args = words[1:] if undo else words
        for prefix, handler in _INTERFACE_COMMANDS.items():
            if tuple(args[: len(prefix)]) == prefix:
                handler(self, interface, undo, args[len(prefix) :])
                return ""
        raise Rejected(UNRECOGNIZED)

    def _shutdown(self, interface: Interface, undo: bool, args: list[str]) -> None:
        if args:
            raise Rejected(UNRECOGNIZED)
        interface.shutdown = not undo

    def _description(self, interface: Interface, undo: bool, args: list[str]) -> None:
        interface.description = "" if undo else " ".join(args)

    def _jumboframe(self, interface: Interface, undo: bool, args: list[str]) -> None:
        if undo:
            interface.jumbo = None
        elif not args:
            interface.jumbo = JUMBO
        elif len(args) == 1 and args[0].isdigit() and 1536 <= int(args[0]) <= 12288:
            interface.jumbo = int(args[0])
        else:
            raise Rejected(WRONG)
        if interface.trunk:  # an Eth-Trunk's frame length governs its members
            for member in self.editing.members(int(interface.name.removeprefix("Eth-Trunk"))):
                member.jumbo = interface.jumbo

    def _mode(self, interface: Interface, undo: bool, args: list[str]) -> None:
        if not interface.trunk:
            raise Rejected(UNRECOGNIZED)
        words = " ".join(args)
        modes = {"manual load-balance": "manual", "manual": "manual", "lacp": "lacp", "lacp-static": "lacp-static"}
        if not undo and words not in modes:
            raise Rejected(WRONG if args else INCOMPLETE)
        if self.editing.members(int(interface.name.removeprefix("Eth-Trunk"))):
            raise Rejected("Error: The Eth-Trunk has member ports, so its working mode cannot be changed.")
        interface.mode = "manual" if undo else modes[words]

    def _load_balance(self, interface: Interface, undo: bool, args: list[str]) -> None:
        known = ("src-dst-ip", "src-dst-mac", "src-ip", "dst-ip", "src-mac", "dst-mac")
        if not interface.trunk or (not undo and (len(args) != 1 or args[0] not in known)):
            raise Rejected(WRONG)
        interface.load_balance = None if undo else args[0]

    def _eth_trunk(self, interface: Interface, undo: bool, args: list[str]) -> None:
        if interface.trunk:
            raise Rejected(UNRECOGNIZED)
        if undo:
            interface.eth_trunk = None
            return
        if len(args) != 1 or not args[0].isdigit():
            raise Rejected(WRONG if args else INCOMPLETE)
        trunk = self.editing.interfaces.get(f"Eth-Trunk{args[0]}")
        if trunk is None or interface.eth_trunk is not None:
            raise Rejected("Error: The Eth-Trunk does not exist, or the port is already a member of one.")
        if interface.link_type is not None:
            raise Rejected("Error: The port has VLAN configuration. Undo it first.")
        interface.eth_trunk, interface.jumbo = int(args[0]), trunk.jumbo

    def _negotiation(self, interface: Interface, undo: bool, args: list[str]) -> None:
        if args != ["auto"]:
            raise Rejected(UNRECOGNIZED)
        interface.negotiation = not undo
        if not undo:
            interface.speed = interface.duplex = None

    def _speed(self, interface: Interface, undo: bool, args: list[str]) -> None:
        if interface.negotiation and not undo:
            raise Rejected("Error: Please disable auto-negotiation first.")
        if not undo and (len(args) != 1 or args[0] not in ("10", "100", "1000", "10000")):
            raise Rejected(WRONG)
        interface.speed = None if undo else int(args[0])

    def _duplex(self, interface: Interface, undo: bool, args: list[str]) -> None:
        if interface.negotiation and not undo:
            raise Rejected("Error: Please disable auto-negotiation first.")
        if not undo and args not in (["full"], ["half"]):
            raise Rejected(WRONG)
        interface.duplex = None if undo else args[0]

    def _port(self, interface: Interface, undo: bool, args: list[str]) -> None:
        if interface.eth_trunk is not None:
            raise Rejected("Error: The port is an Eth-Trunk member. Undo eth-trunk first.")
        if args[:1] == ["link-type"]:
            # "port link-type": the type changes only from the default VLAN configuration.
            if interface.default_vlan != 1 or interface.pvid != 1 or not interface.allowed <= {1}:
                raise Rejected("Error: Please renew the default configurations.")
            if undo:
                interface.link_type, interface.allowed = None, {1}
            elif args[1:] in (["access"], ["trunk"]):
                interface.link_type = args[1]
            else:
                raise Rejected(WRONG)
        elif args[:2] == ["default", "vlan"] and interface.link_type == "access":
            interface.default_vlan = 1 if undo else _vlan(args[2:])
        elif args[:3] == ["trunk", "pvid", "vlan"] and interface.link_type == "trunk":
            interface.pvid = 1 if undo else _vlan(args[3:])
        elif args[:3] == ["trunk", "allow-pass", "vlan"] and interface.link_type == "trunk":
            listed = vlan_list(args[3:])
            if listed is None:
                raise Rejected(WRONG)
            interface.allowed = interface.allowed - listed if undo else interface.allowed | listed
        else:
            raise Rejected(UNRECOGNIZED)


def _vlan(args: list[str]) -> int:
    if len(args) != 1 or not args[0].isdigit() or not 1 <= int(args[0]) <= 4094:
        raise Rejected(WRONG)
    return int(args[0])


_Handler = Callable[[VrpSession, Interface, bool, list[str]], None]
_INTERFACE_COMMANDS: dict[tuple[str, ...], _Handler] = {
    ("shutdown",): VrpSession._shutdown,
    ("description",): VrpSession._description,
    ("jumboframe", "enable"): VrpSession._jumboframe,
    ("mode",): VrpSession._mode,
    ("load-balance",): VrpSession._load_balance,
    ("eth-trunk",): VrpSession._eth_trunk,
    ("negotiation",): VrpSession._negotiation,
    ("speed",): VrpSession._speed,
    ("duplex",): VrpSession._duplex,
    ("port",): VrpSession._port,
}


class VrpSwitch:
    """A VRP switch for switch_emulator.server.EmulatedSwitch(stateful=...)."""

    def __init__(self, state: VrpState) -> None:
        self.state = state
        self.session = VrpSession(state)
        self.log: list[tuple[str, str]] = []

    def prompt(self) -> str:
        return self.session.prompt()

    def hangs_up(self, line: str) -> bool:
        return self.session.view == "user" and " ".join(line.split()) == "quit"

    def execute(self, line: str) -> str:
        command = " ".join(line.split())
        if not command:
            return ""
        if command == "screen-length 0 temporary":
            return "Info: The configuration takes effect on the current user terminal interface only.\n"
        if command.startswith("display "):
            shown = render(self.state, command)
            if shown is None:
                return " " * len(self.prompt()) + "^\n" + UNRECOGNIZED + "\n"
            return shown if shown.endswith("\n") else shown + "\n"
        answer = self.session.execute(command)
        self.log.append((command, answer))
        if answer.startswith("Error:"):
            return " " * len(self.prompt()) + "^\n" + answer + "\n"
        return answer + "\n" if answer else ""


class VrpConfigSession:
    """The VRP CLI over a snapshot `Switch` (switch_emulator.stateful.session.ConfigSession, for
    StatefulSwitch, as the shared rehearsal hands every platform's SESSION): the switch is written as VRP's
    own state (`from_switch`, its far ends answering LACP where `lacp_partners` says), VrpSwitch answers
    every line (views, VRP 8's candidate and `commit`, `display` commands, refusals), and after each
    accepted line the `Switch` is what the folder's templates and assembly read from the committed state's
    display output, as a collection would."""

    def __init__(self, state: Switch, lacp_partners: frozenset[str]) -> None:
        self.switch = state
        self.vrp = from_switch(state)
        partners = {names.interface_key(p) for p in lacp_partners}
        for interface in self.vrp.interfaces.values():
            interface.partner_lacp = names.interface_key(interface.name) in partners
        self.device = VrpSwitch(self.vrp)

    def prompt(self) -> str:
        return self.device.prompt()

    def execute(self, line: str) -> str:
        logged = len(self.device.log)
        answer = self.device.execute(line)
        accepted = len(self.device.log) > logged and not self.device.log[-1][1].startswith("Error:")
        if accepted:
            self._sync()
        return answer

    def running_config(self) -> str:
        """`display current-configuration` of the committed state (for the rehearsal's line-for-line check)."""
        return current_configuration(self.vrp)

    def _sync(self) -> None:
        """The `Switch` as the committed configuration shows it (on VRP 8 the candidate shows nowhere)."""
        outputs = {c.command: render(self.vrp, c.command) or "" for c in SPEC.commands}
        rebuilt, _warnings = read_back(outputs, self.switch.name)
        for name in ("load_balance", "ports", "port_channels", "multichassis"):
            setattr(self.switch, name, getattr(rebuilt, name))


SESSION = VrpConfigSession


# --- display commands -------------------------------------------------------------------------------


def render(state: VrpState, command: str) -> str | None:
    """The output of a display command the folder's spec sends (and `display eth-trunk N`); None else."""
    words = command.split()
    if words[:2] == ["display", "eth-trunk"] and len(words) == 3 and words[2].isdigit():
        return _eth_trunk(state, int(words[2]))
    renderers: dict[str, Callable[[VrpState], str]] = {
        "display version": _version,
        "display current-configuration": current_configuration,
        "display interface": _interfaces,
        "display eth-trunk": lambda s: _eth_trunk(s, None),
        "display lldp neighbor": _lldp,
        "display port vlan": _port_vlan,
    }
    renderer = renderers.get(command)
    return None if renderer is None else renderer(state)


def RENDER(switch: Switch, command: str) -> str | None:
    """The display output of a snapshot `Switch`: the VRP state it stands for (`from_switch`), rendered."""
    return render(from_switch(switch), command)


def serve(switch: Switch) -> VrpSwitch:
    """A stateful VRP switch starting from `switch`, for EmulatedSwitch(stateful=...)."""
    return VrpSwitch(from_switch(switch))


def _version(state: VrpState) -> str:
    return (
        "Huawei Versatile Routing Platform Software\n"
        f"VRP (R) software, Version {state.version} ({state.model.split('-')[0]} {state.release})\n"
        "Copyright (C) 2000-2023 HUAWEI TECH Co., Ltd.\n"
        f"HUAWEI {state.model} Routing Switch uptime is 2 days, 3 hours, 4 minutes\n"
    )


def _ordered(state: VrpState) -> list[Interface]:
    return sorted(state.interfaces.values(), key=lambda i: (not i.trunk, i.name))


def current_configuration(state: VrpState) -> str:
    lines = ["#", f"sysname {state.sysname}", "#"]
    if state.stack_slots:
        lines += [f"stack slot {slot} priority {200 if i == 0 else 100}" for i, slot in enumerate(state.stack_slots)]
        lines.append("#")
    if state.dfs_group is not None:
        lines += [f"dfs-group {state.dfs_group}", "#"]
    for interface in _ordered(state):
        lines.append(f"interface {interface.name}")
        if interface.description:
            lines.append(f" description {interface.description}")
        if interface.shutdown:
            lines.append(" shutdown")
        if interface.link_type:
            lines.append(f" port link-type {interface.link_type}")
        if interface.link_type == "access" and interface.default_vlan != 1:
            lines.append(f" port default vlan {interface.default_vlan}")
        if interface.link_type == "trunk":
            if interface.pvid != 1:
                lines.append(f" port trunk pvid vlan {interface.pvid}")
            if 1 not in interface.allowed:
                lines.append(" undo port trunk allow-pass vlan 1")
            if interface.allowed - {1}:
                lines.append(f" port trunk allow-pass vlan {vlan_text(interface.allowed - {1})}")
        if interface.eth_trunk is not None:
            lines.append(f" eth-trunk {interface.eth_trunk}")
        if interface.trunk and interface.mode != "manual":
            lines.append(f" mode {interface.mode}")
        if interface.load_balance:
            lines.append(f" load-balance {interface.load_balance}")
        if interface.peer_link:
            lines.append(" peer-link 1")
        if interface.mlag_id is not None:
            lines.append(f" dfs-group {state.dfs_group or 1} m-lag {interface.mlag_id}")
        if interface.jumbo is not None and interface.eth_trunk is None:
            lines.append(f" jumboframe enable {interface.jumbo}")
        if not interface.negotiation:
            lines.append(" undo negotiation auto")
            if interface.speed:
                lines.append(f" speed {interface.speed}")
            if interface.duplex:
                lines.append(f" duplex {interface.duplex}")
        lines.append("#")
    lines.append("return")
    return "\n".join(lines) + "\n"


def _up(state: VrpState, interface: Interface) -> bool:
    if interface.trunk:
        number = int(interface.name.removeprefix("Eth-Trunk"))
        return not interface.shutdown and any(_selected(state, interface, m) for m in state.members(number))
    return interface.link_up and not interface.shutdown


def _selected(state: VrpState, trunk: Interface, member: Interface) -> bool:
    return _up(state, member) and (trunk.mode == "manual" or member.partner_lacp)


def _interfaces(state: VrpState) -> str:
    blocks = []
    for interface in _ordered(state):
        header = "Administratively DOWN" if interface.shutdown else "UP" if _up(state, interface) else "DOWN"
        frame = interface.frame_length
        lines = [
            f"{interface.name} current state : {header}",
            f"Line protocol current state : {'UP' if header == 'UP' else 'DOWN'}",
            f"Description:{interface.description}",
            f"Switch Port, PVID : {interface.pvid:4}, TPID : 8100(Hex), The Maximum Frame Length is {frame}",
        ]
        if not interface.trunk:
            speed = interface.speed or interface.rate
            duplex = (interface.duplex or "full").upper()
            lines.append(f"Speed : {speed},  Loopback: NONE")
            lines.append(f"Duplex: {duplex},   Negotiation: {'ENABLE' if interface.negotiation else 'DISABLE'}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def _eth_trunk(state: VrpState, only: int | None) -> str:
    blocks = []
    for trunk in _ordered(state):
        number = int(trunk.name.removeprefix("Eth-Trunk")) if trunk.trunk else None
        if number is None or (only is not None and number != only):
            continue
        members = state.members(number)
        status = "up" if _up(state, trunk) else "down"
        lines = [f"{trunk.name}'s state information is:"]
        if trunk.mode == "manual":
            lines += [
                f"WorkingMode: NORMAL         Hash arithmetic: {_shown_hash(trunk)}",
                f"Operate status: {status}          Number Of Up Port In Trunk: {sum(_up(state, m) for m in members)}",
                "-" * 80,
                "PortName                      Status      Weight",
            ]
            lines += [f"{m.name:<30}{'Up' if _up(state, m) else 'Down':<12}1" for m in members]
        else:
            selected = sum(_selected(state, trunk, m) for m in members)
            lines += [
                "Local:",
                f"LAG ID: {number}                   WorkingMode: {'LACP' if trunk.mode == 'lacp' else 'STATIC'}",
                f"Preempt Delay: Disabled     Hash arithmetic: {_shown_hash(trunk)}",
                f"Operate status: {status}          Number Of Up Port In Trunk: {selected}",
                "-" * 80,
                "ActorPortName          Status   PortType PortPri PortNo PortKey PortState Weight",
            ]
            lines += [
                f"{m.name:<23}{_lacp_status(state, trunk, m):<9}10GE     32768   1      305     10111100  1"
                for m in members
            ]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n" if blocks else "Info: No valid trunk in the system.\n"


def _lacp_status(state: VrpState, trunk: Interface, member: Interface) -> str:
    return "Selected" if _selected(state, trunk, member) else "Unselect"


_SHOWN_HASH = {
    "src-dst-ip": "According to SIP-XOR-DIP",
    "src-dst-mac": "According to SA-XOR-DA",
    "src-ip": "According to SIP",
    "dst-ip": "According to DIP",
    "src-mac": "According to SA",
    "dst-mac": "According to DA",
}


def _shown_hash(trunk: Interface) -> str:
    return _SHOWN_HASH[trunk.load_balance or "src-dst-ip"]  # S-series default: SIP-XOR-DIP


def _lldp(state: VrpState) -> str:
    blocks = []
    for interface in _ordered(state):
        if interface.trunk:
            continue
        if not interface.neighbours:
            blocks.append(f"{interface.name} has 0 neighbor(s)")
            continue
        lines = [f"{interface.name} has {len(interface.neighbours)} neighbor(s):", ""]
        for index, (system, port_id, description) in enumerate(interface.neighbours, start=1):
            lines += [
                f"Neighbor index :{index}",
                "Chassis type   :MAC address",
                "Chassis ID     :0050-5601-0a01",
                "Port ID type   :Interface name",
                f"Port ID        :{port_id}",
                *([f"Port description    :{description}"] if description else []),
                f"System name         :{system}",
            ]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def _port_vlan(state: VrpState) -> str:
    lines = ["Port                        Link Type    PVID  Trunk VLAN List", "-" * 79]
    for interface in _ordered(state):
        if interface.eth_trunk is not None or interface.link_type is None:
            continue
        if interface.link_type == "access":
            lines.append(f"{interface.name:<28}{'access':<13}{interface.default_vlan:<6}-")
        else:
            listed = vlan_text(interface.allowed, through="-") if interface.allowed else "-"
            lines.append(f"{interface.name:<28}{'trunk':<13}{interface.pvid:<6}{listed}")
    return "\n".join(lines) + "\n"


# --- the round trip: the folder's templates and assembly read what this emulator renders -----------------

SPEC = load_folder(switches.folder("huawei_vrp"))


def read_back(outputs: dict[str, str], device: str = "hw-tor1") -> tuple[Switch, list[str]]:
    """The `Switch` the folder makes of these outputs (command -> text), with its warnings and the parsers'."""
    grouped: dict[str, list[dict[str, object]]] = {}
    warnings: list[str] = []
    for command in SPEC.commands:
        parsed = parse_output(command, outputs[command.command], device)
        warnings += parsed.warnings
        for group, items in parsed.records.items():
            grouped.setdefault(group, []).extend(items)
    switch, more = assemble.build(device, grouped)
    return switch, warnings + more


def sample_switch() -> Switch:
    """The switch the folder's samples show, as its assembly builds it."""
    folder = switches.folder("huawei_vrp")
    outputs = {c.command: (folder / f"{c.slug}.txt").read_text(encoding="utf-8") for c in SPEC.commands}
    switch, warnings = read_back(outputs)
    assert not warnings, warnings
    return switch


def rendered(state: VrpState) -> Switch:
    """The `Switch` read back from every display command rendered from `state`."""
    outputs = {c.command: render(state, c.command) or "" for c in SPEC.commands}
    switch, warnings = read_back(outputs, state.sysname)
    assert not warnings, warnings
    return switch
