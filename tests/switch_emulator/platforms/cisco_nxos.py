"""NX-OS for the stateful switch emulator: its configuration session (`SESSION`) and the show
commands hostlint's collector sends (`RENDER`), both over hostlint's own `Switch` model.

The machinery IOS, NX-OS and EOS share is in switch_emulator.stateful.cisco_base (sessions) and
switch_emulator.stateful.render_cisco (show output); here is what NX-OS says differently. The
grammar is the configuration hostlint's fix text for NX-OS writes
(hostlint/switches/cisco_nxos/fixes.yaml)
and what an engineer types around it; each rule names the vendor reference it follows:

- NX-INT: Cisco Nexus 9000 Series NX-OS Interfaces Configuration Guide, Release 10.x: "Configuring
  Basic Interface Parameters" (`description`, `speed`, `duplex`, `mtu`: "For Layer 2 interfaces, you
  can configure the MTU to be either the system default MTU (1500 bytes) or the system jumbo MTU",
  `shutdown`), "Configuring Layer 2 Interfaces" (`switchport ...`), "Configuring Port Channels"
  (`channel-group`, `interface port-channel`, `port-channel load-balance`, `feature lacp`; "Port
  Channels", "Compatibility Requirements"), "Configuring vPCs" (`vpc`).
- NX-FUND: Cisco Nexus 9000 Series NX-OS Fundamentals Configuration Guide (`configure terminal`,
  `copy running-config startup-config`).

Error texts: where a real device's text was found in public material it is used verbatim (IOS
"Command rejected (Channel protocol mismatch ...)" and "Either port is L2 and port-channel is L3",
NX-OS "MTU on L2 interfaces can only be set to default or system-jumboMTU" and "Port-channel mode
cannot be changed in a non-empty port-channel ..."); elsewhere (marked MODELED) the rejection follows
the documented behaviour and the wording is the emulator's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from hostlint.collect.switches import normalise
from hostlint.snapshot.switch import ChannelMode, LoadBalance, PortChannel, Switch, SwitchPort
from hostlint.switches.cisco_nxos.hashes import HASHES as NXOS_HASHES
from switch_emulator.stateful.cisco_base import CiscoLikeSession, Target, common_interface_rules, inherit
from switch_emulator.stateful.cli import Args, BadWord, Reject, Rule
from switch_emulator.stateful.render_cisco import (
    Dialect,
    all_channels,
    channel_holding,
    channel_label,
    channel_number,
    duplex_text,
    hostname_of,
    interfaces_config,
    lldp_device,
    neighbours_over,
    peer_link,
    short,
    speed_text,
    spelled_hash,
    summary_rows,
)
from switch_emulator.stateful.render_global_mtu import nxos_network_qos

# hostlint's hash fields -> the NX-OS field word (NX-INT "Configuring Port Channel Load Balancing").
_NXOS_FIELD_WORDS = {
    "ip": "ip",
    "ip-port": "ip-l4port",
    "ip-port-vlan": "ip-l4port-vlan",
    "ip-vlan": "ip-vlan",
    "port": "l4port",
    "mac": "mac",
}


def _spell_hash(name: str) -> str:
    """`src-dst-ip` -> `src-dst ip`: the direction, then the fields."""
    direction, _, fields = name.partition("-")
    if direction == "src" and fields.startswith("dst-"):
        direction, fields = "src-dst", fields[4:]
    return f"{direction} {_NXOS_FIELD_WORDS.get(fields, fields)}"


# What NX-OS prints differently in the shared show output (switch_emulator.stateful.render_cisco).
DIALECT = Dialect(
    platform="cisco_nxos",
    # `show port-channel summary` legend; a member in no known state is `p`, up in delay-lacp mode.
    member_flags={"bundled": "P", "hot-standby": "H", "suspended": "s", "individual": "I", "down": "D", None: "p"},
    protocols={"static": "NONE"},
    layer_flag=True,
    default_hash="src-dst ip",
    spell_hash=_spell_hash,
    auto_speed="auto-speed",
    auto_duplex="auto",
    speed_gap=" ",
    duplex_capitalised=False,
    member_mode_shown=True,
    peer_link_line="vpc peer-link",
    multichassis_word="vpc",
)

_NXOS_FIELDS = "ip|ip-l4port|ip-l4port-vlan|ip-vlan|l4port|mac"


class NxosSession(CiscoLikeSession):
    platform = "cisco_nxos"
    invalid = "{caret}\n% Invalid command at '^' marker.\n"
    incomplete = "{caret}\n% Incomplete command at '^' marker.\n"
    enter_config = "Enter configuration commands, one per line. End with CNTL/Z."
    physical = ("Ethernet",)
    # NX-INT "Configuring Port Channels": port-channel numbers 1-4096.
    channel_numbers = (1, 4096)
    # NX-INT "Compatibility Requirements": members carry the channel's MTU and switchport lines.
    mtu_follows_channel = True
    compatibility = (*CiscoLikeSession.compatibility, ("mtu", "mtu"))

    opaque = (
        ("lacp rate", "lacp rate {fast|normal}", "NX-INT Configuring Port Channels: lacp rate"),
        ("lacp port-priority", "lacp port-priority <1-65535>", "NX-INT lacp port-priority"),
        (
            "spanning-tree port type",
            "spanning-tree port type {edge|network|normal} [trunk]",
            "Cisco Nexus 9000 NX-OS Layer 2 Switching Configuration Guide: spanning-tree port type",
        ),
        ("spanning-tree bpduguard", "spanning-tree bpduguard {enable|disable}", "NX-OS Layer 2 Switching"),
        ("spanning-tree bpdufilter", "spanning-tree bpdufilter {enable|disable}", "NX-OS Layer 2 Switching"),
    )

    def exec_rules(self) -> list[Rule]:
        return [
            Rule("configure [terminal]", self.configure, "NX-FUND configure terminal"),
            Rule(
                "copy running-config startup-config",
                lambda _: "[########################################] 100%\nCopy complete.",
                "NX-FUND copy running-config startup-config",
            ),
            Rule("exit", lambda _: "", "NX-FUND exit"),
        ]

    def config_rules(self) -> list[Rule]:
        return [
            Rule("interface <text>", lambda a: self.interface_many(a, 1), "NX-INT interface (list and range)"),
            Rule("no interface <if>", self.no_interface, "NX-INT no interface port-channel"),
            Rule(
                f"port-channel load-balance {{src-dst|src|dst}} {{{_NXOS_FIELDS}}}",
                lambda a: self.set_hash(f"{a[0]} {a[1]}"),
                "NX-INT port-channel load-balance",
            ),
            Rule(
                f"port-channel load-balance {{src-dst|src|dst}} {{{_NXOS_FIELDS}}} rotate <0-63>",
                lambda a: self.set_hash(f"{a[0]} {a[1]} rotate {a[2]}"),
                "NX-INT port-channel load-balance (rotate)",
            ),
            Rule("no port-channel load-balance", lambda _: self.set_hash("src-dst ip-l4port"), "NX-INT default"),
            Rule("feature {lacp|vpc|lldp|interface-vlan|udld}", self.feature, "NX-INT feature lacp / feature vpc"),
            Rule("end", self.end, "NX-FUND end"),
            Rule("exit", self.exit, "NX-FUND exit"),
        ]

    def interface_rules(self) -> list[Rule]:
        rules = [
            Rule(
                "channel-group <1-4096> [force] mode {active|passive|on}",
                self.nxos_channel_group,
                "NX-INT channel-group; LACP modes need `feature lacp` (NX-INT, Enabling LACP)",
            ),
            Rule(
                "channel-group <1-4096> [force]",
                lambda a: self.nxos_join(a[0], bool(a[1]), "static"),
                "NX-INT channel-group (mode on by default)",
            ),
            Rule("no channel-group", self.no_channel_group, "NX-INT no channel-group"),
            Rule("no channel-group <1-4096>", self.no_channel_group, "NX-INT no channel-group"),
            Rule("mtu <576-9216>", lambda a: self.set_mtu(a[0]), "NX-INT mtu"),
            Rule("no mtu", lambda _: self.set_mtu(None), "NX-INT mtu"),
            Rule(
                "speed {100|1000|10000|25000|40000|50000|100000|auto}",
                lambda a: self.set_speed(None if a[0] == "auto" else int(a[0]), None, False),
                "NX-INT speed",
            ),
            Rule("no speed", lambda _: self.set_speed(None, None, False), "NX-INT speed"),
            Rule("duplex {full|half|auto}", self.duplex_rule, "NX-INT duplex"),
            Rule("no duplex", lambda _: self.set_duplex(None), "NX-INT duplex"),
            *common_interface_rules(self, "NX-INT", "NX-INT", 4094),
            *self.opaque_rules(),
        ]
        if self.state.multichassis is not None and self.state.multichassis.kind == "vpc":
            # `vpc` exists only with `feature vpc` and a vPC domain: elsewhere it is not a command.
            rules += [
                Rule("vpc <1-4096>", lambda a: self.set_multichassis(a[0]), "NX-INT Configuring vPCs: vpc number"),
                Rule("no vpc", lambda _: self.set_multichassis(None), "NX-INT no vpc"),
                Rule("no vpc <1-4096>", lambda _: self.set_multichassis(None), "NX-INT no vpc"),
            ]
        return rules

    def __init__(self, state: Switch, lacp_partners: frozenset[str]) -> None:
        super().__init__(state, lacp_partners)
        # `feature lacp` is not in the model: on where an LACP channel already runs (hostlint's
        # templates write it before the first one).
        lacp = any(c.mode in ("lacp-active", "lacp-passive") for c in state.port_channels)
        self.features = {"lacp"} if lacp else set()

    def feature(self, args: Args) -> str:
        self.features.add(str(args[0]))
        return ""

    def nxos_channel_group(self, args: Args) -> str:
        if args[2] != "on" and "lacp" not in self.features:
            raise BadWord(4 if args[1] else 3)  # without the feature, its keywords are not commands
        return self.nxos_join(args[0], bool(args[1]), normalise.channel_mode(args[2]))

    def nxos_join(self, number: int, force: bool, mode: ChannelMode) -> str:
        """`force`: the port takes the channel's compatibility parameters (NX-INT "Compatibility
        Requirements": "you can force ports with incompatible parameters to join")."""
        channel = self.channel(self.channel_name(number))
        if force and channel is not None and channel.members:
            for port in self.ports_only():
                self.check_join(port, number, mode)
            for port in self.ports_only():
                port.mode, port.access_vlan, port.native_vlan = (
                    channel.switchport,
                    channel.access_vlan,
                    channel.native_vlan,
                )
                port.allowed_vlans = None if channel.allowed_vlans is None else list(channel.allowed_vlans)
                port.mtu = channel.mtu
        return self.channel_group(number, mode)

    def interface_many(self, args: Args, index: int) -> str:
        self.targets = self.interface_list(str(args[0]), index)
        for target in self.targets:
            if target.channel is not None and self.channel(target.channel) is None:
                self.add_channel(self.new_channel(target.channel, None))
        self.target_label = str(args[0])
        self.mode = "config-if"
        return ""

    def set_hash(self, raw: str) -> str:
        self.state.load_balance = LoadBalance(hash=NXOS_HASHES.read(raw), raw=raw)
        return ""

    def set_multichassis(self, number: int | None) -> str:
        if any(t.port is not None for t in self.targets):
            raise BadWord(1 if number is None else 0)
        for target in self.targets:
            channel = self.channel(target.channel) if target.channel else None
            if channel is not None:
                channel.multichassis_id = number
        return ""

    def new_channel(self, name: str, first: SwitchPort | None) -> PortChannel:
        # NX-INT "Port Channels": created by `channel-group`, the port channel "assumes the Layer 2 or
        # Layer 3 configuration of the first interface"; created first, it "takes the default Layer 2
        # or Layer 3 configuration" (which depends on `system default switchport`: not in this model).
        if first is None:
            return PortChannel(name=name, status="down", mtu=1500)
        return inherit(name, first)

    def check_mtu(self, target: Target, mtu: int) -> None:
        if target.port is not None and target.port.port_channel is not None:
            # MODELED wording; NX-INT: configuration of a member goes on its port channel.
            raise Reject(f"ERROR: {target.port.name}: Cannot configure MTU on a port-channel member")
        mode = target.port.mode if target.port is not None else None
        if target.channel is not None and (channel := self.channel(target.channel)) is not None:
            mode = channel.switchport
        if mode != "routed" and mtu not in (1500, 9216):
            name = target.port.name if target.port is not None else target.channel
            raise Reject(f"ERROR: {name}: MTU on L2 interfaces can only be set to default or system-jumboMTU")

    def check_switchport(self, port: SwitchPort) -> None:
        # NX-INT "Port Channels", note: "After a Layer 2 port becomes part of a port channel, all
        # switchport configurations must be done on the port channel". MODELED wording.
        raise Reject(f"ERROR: {port.name}: switchport configuration is not allowed on a port-channel member")

    def mode_mismatch(self, port: SwitchPort, channel: PortChannel) -> str:
        return (
            "ERROR: Port-channel mode cannot be changed in a non-empty port-channel, and port mode must match"
            " with port-channel mode"
        )

    def layer_mismatch(self, port: SwitchPort, channel: PortChannel) -> str:
        # MODELED wording; NX-INT "Compatibility Requirements": no Layer 3 port in a Layer 2 channel.
        return f"ERROR: {port.name}: Layer 2 and Layer 3 ports cannot be members of one port-channel ({channel.name})"

    def no_such_channel(self, name: str) -> str:
        raise Reject(f"ERROR: Interface {name} does not exist")  # MODELED wording


def _nxos_show_interface(state: Switch) -> str:
    out: list[str] = []
    header = {
        "up": "{} is up",
        "down": "{} is down (Link not connected)",
        "disabled": "{} is down (Administratively down)",
        "err-disabled": "{} is down (errDisabled)",
    }
    for port in state.ports:
        if port.status is None:
            continue
        out.append(header[port.status].format(port.name))
        out.append(f"admin state is {'down' if port.status == 'disabled' else 'up'}, Dedicated Interface")
        channel = channel_holding(state, port)
        if channel is not None:
            out.append(f"  Belongs to Po{channel_number(channel.name)}")
        out.append("  Hardware: 100/1000/10000/25000 Ethernet, address: 00fe.c8a1.2b00 (bia 00fe.c8a1.2b00)")
        if port.description:
            out.append(f"  Description: {port.description}")
        if port.mtu is not None:
            out.append(f"  MTU {port.mtu} bytes, BW 10000000 Kbit , DLY 10 usec")
        out.append("  Encapsulation ARPA, medium is broadcast")
        if port.mode in ("access", "trunk", "routed"):
            out.append(f"  Port mode is {port.mode}")
        up = port.status == "up"
        duplex = duplex_text(DIALECT, port.duplex if up else None)
        speed = speed_text(DIALECT, port.speed_mbps if up else None)
        out.append(f"  {duplex}-duplex, {speed}, media type is 10G")
        out.append("  Beacon is turned off")
        out.append("")
    for name, channel in all_channels(state):
        if channel is None or channel.status is None:
            continue
        label = channel_label(DIALECT, name)
        out.append(f"{label} is up" if channel.status == "up" else f"{label} is down (No operational members)")
        out.append("admin state is up,")
        out.append("  Hardware: Port-Channel, address: 00fe.c8a1.2c00 (bia 00fe.c8a1.2c00)")
        if channel.mtu is not None:
            out.append(f"  MTU {channel.mtu} bytes, BW 10000000 Kbit , DLY 10 usec")
        if channel.switchport in ("access", "trunk"):
            out.append(f"  Port mode is {channel.switchport}")
        out.append("")
    return "\n".join(out) + "\n"


def _nxos_summary(state: Switch) -> str:
    head = [
        "Flags:  D - Down        P - Up in port-channel (members)",
        "        I - Individual  H - Hot-standby (LACP only)",
        "        s - Suspended   r - Module-removed",
        "        S - Switched    R - Routed",
        "        U - Up (port-channel)",
        "        p - Up in delay-lacp mode (member)",
        "-" * 80,
        "Group Port-       Type     Protocol  Member Ports",
        "      Channel",
        "-" * 80,
    ]
    rows = summary_rows(DIALECT, state)
    body = [f"{g:<6}{po:<12}Eth      {proto:<10}{members or '--'}   " for g, po, proto, members in rows]
    return "\n".join(head + body) + "\n"


def _nxos_cdp(state: Switch) -> str:
    out = [
        "Capability Codes: R - Router, T - Trans-Bridge, B - Source-Route-Bridge",
        "                  S - Switch, H - Host, I - IGMP, r - Repeater,",
        "",
    ]
    for port, n in neighbours_over(state, "cdp"):
        out += ["----------------------------------------", f"Device ID:{n.device_id}"]
        out.append(f"System Name: {n.system_name or ''}")
        out += ["", "Interface address(es):"]
        if n.mgmt_address:
            out.append(f"    IPv4 Address: {n.mgmt_address}")
        out.append(f"Platform: {n.platform or 'unknown'}, Capabilities: Switch ")
        out.append(f"Interface: {port.name}, Port ID (outgoing port): {n.port_id}")
        out += ["Holdtime: 164 sec", "", "Advertisement Version: 2", "", "Duplex: full", ""]
    count = len(neighbours_over(state, "cdp"))
    return "\n".join([*out, f"Total entries displayed: {count}"]) + "\n"


def _nxos_lldp_detail(state: Switch) -> str:
    out = [
        "Capability codes:",
        "  (R) Router, (B) Bridge, (T) Telephone, (C) DOCSIS Cable Device",
        "  (W) WLAN Access Point, (P) Repeater, (S) Station, (O) Other",
        "Device ID            Local Intf      Hold-time  Capability  Port ID  ",
        "",
    ]
    lldp = neighbours_over(state, "lldp")
    for index, (port, n) in enumerate(lldp):
        chassis, system = lldp_device(n, index)
        out += [f"Chassis id: {chassis}", f"Port id: {n.port_id}", f"Local Port id: {short(DIALECT, port.name)}"]
        out.append(f"Port Description: {n.port_description or 'null'}" if n.port_description else "Port Description: ")
        out.append(f"System Name: {system or 'not advertised'}" if system else "System Name: ")
        out += ["Time remaining: 104 seconds", "System Capabilities: B, R", "Enabled Capabilities: B, R"]
        if n.mgmt_address:
            out.append(f"Management Address: {n.mgmt_address}")
        out += ["Vlan ID: 1", ""]
    return "\n".join([*out, f"Total entries displayed: {len(lldp)}"]) + "\n"


def _nxos_version(state: Switch) -> str:
    out = ["Cisco Nexus Operating System (NX-OS) Software", "", "Software"]
    if state.os_version:
        out.append(f"  NXOS: version {state.os_version}")
    out += ["", "Hardware"]
    if state.model:
        model = state.model
        line = f"cisco {model} Chassis" if re.match(r"N\d+K-", model) else f"cisco Nexus9000 {model} Chassis"
        out.append(f"  {line} ")
    out += ["", f"  Device name: {state.name}"]
    return "\n".join(out) + "\n"


def _nxos_config(state: Switch) -> str:
    out = ["", "!Command: show running-config", "", f"version {state.os_version or '10.2(5)'}"]
    out += [f"hostname {hostname_of(state)}", "", "feature lacp"]
    if state.multichassis and state.multichassis.kind == "vpc":
        out.append("feature vpc")
    out += ["feature lldp", "", *nxos_network_qos(state)]
    out += [f"port-channel load-balance {spelled_hash(DIALECT, state)}", ""]
    if state.multichassis and state.multichassis.kind == "vpc":
        out += [f"vpc domain {state.multichassis.domain_id}", "  peer-switch", ""]
    out += interfaces_config(DIALECT, state, "  ", None)
    return "\n".join([*out, "line console", "line vty"]) + "\n"


def _nxos_load_balance(state: Switch) -> str:
    spelled = spelled_hash(DIALECT, state)
    return f"System config:\n  Non-IP: src-dst mac \n  IP: {spelled} \n\n"


def _vpc_brief(state: Switch) -> str | None:
    vpc = state.multichassis if state.multichassis and state.multichassis.kind == "vpc" else None
    if vpc is None:
        return None  # `feature vpc` off: the command does not exist
    link_up = vpc.peer_link_up
    peer_status = "peer link is down" if link_up is False else "peer adjacency formed ok"
    out = [
        "Legend:",
        "                (*) - local vPC is down, forwarding via vPC peer-link",
        "",
        f"vPC domain id                     : {vpc.domain_id}  ",
        f"Peer status                       : {peer_status}      ",
        "vPC keep-alive status             : peer is alive                 ",
        "Configuration consistency status  : success ",
        "vPC role                          : primary                       ",
        "",
        "vPC Peer-link status",
        "---------------------------------------------------------------------",
        "id    Port   Status Active vlans    ",
        "--    ----   ------ -------------------------------------------------",
    ]
    link_channel = peer_link(state)
    if link_channel is not None and link_up is not None:
        po = f"Po{channel_number(link_channel.name)}"
        out.append(f"1     {po:<6} {'up' if link_up else 'down':<6} {'1' if link_up else '-'}")
    out += [
        "",
        "vPC status",
        "----------------------------------------------------------------------------",
        "Id    Port          Status Consistency Reason                Active vlans",
        "--    ------------  ------ ----------- ------                ---------------",
    ]
    for channel in state.port_channels:
        if channel.multichassis_id is None:
            continue
        po = f"Po{channel_number(channel.name)}"
        status = "up" if channel.status == "up" else "down*"
        out.append(f"{channel.multichassis_id:<6}{po:<14}{status:<7}success     success               -")
    return "\n".join(out) + "\n"


_NXOS: dict[str, Callable[[Switch], str | None]] = {
    "show version": _nxos_version,
    "show running-config": _nxos_config,
    "show interface": _nxos_show_interface,
    "show port-channel summary": _nxos_summary,
    "show port-channel load-balance": _nxos_load_balance,
    "show cdp neighbors detail": _nxos_cdp,
    "show lldp neighbors detail": _nxos_lldp_detail,
    "show vpc brief": _vpc_brief,
}


def render(state: Switch, command: str) -> str | None:
    """The output of `command` (spaces normalised) on this state; None: not a command it knows."""
    answer = _NXOS.get(" ".join(command.split()))
    return answer(state) if answer else None


SESSION = NxosSession
RENDER = render
