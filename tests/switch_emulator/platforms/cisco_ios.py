"""IOS for the stateful switch emulator: its configuration session (`SESSION`) and the show
commands hostlint's collector sends (`RENDER`), both over hostlint's own `Switch` model.

The machinery IOS, NX-OS and EOS share is in switch_emulator.stateful.cisco_base (sessions) and
switch_emulator.stateful.render_cisco (show output); here is what IOS says differently. The
grammar is the configuration hostlint's fix text for IOS writes
(hostlint/switches/cisco_ios/fixes.yaml)
and what an engineer types around it; each rule names the vendor reference it follows:

- IOS-CMD: Cisco Catalyst 9300 Series Switches Interface and Hardware Components Command Reference,
  Cisco IOS XE 17.x (`interface`, `mtu`, `speed`, `duplex`, `shutdown`, `description`).
- IOS-L2: Cisco Catalyst 9300 Series Switches Layer 2 Configuration Guide, IOS XE 17.x,
  "Configuring EtherChannels" (`channel-group`, `port-channel load-balance`, `interface port-channel`,
  "EtherChannel Configuration Guidelines") and "Configuring VLANs" / "Configuring VLAN Trunks"
  (`switchport mode`, `switchport access vlan`, `switchport trunk allowed vlan`, `switchport trunk
  native vlan`).
- IOS-FUND: Cisco IOS Configuration Fundamentals Command Reference (`configure terminal`, `end`,
  `exit`, `copy running-config startup-config`, `write memory`).

Error texts: where a real device's text was found in public material it is used verbatim (IOS
"Command rejected (Channel protocol mismatch ...)" and "Either port is L2 and port-channel is L3",
NX-OS "MTU on L2 interfaces can only be set to default or system-jumboMTU" and "Port-channel mode
cannot be changed in a non-empty port-channel ..."); elsewhere (marked MODELED) the rejection follows
the documented behaviour and the wording is the emulator's own.
"""

from __future__ import annotations

from hostlint.collect.switches import normalise
from hostlint.snapshot.switch import LoadBalance, PortChannel, Switch, SwitchPort
from hostlint.switches.cisco_ios.hashes import HASHES as IOS_HASHES
from switch_emulator.stateful.cisco_base import (
    CiscoLikeSession,
    channel_number,
    common_interface_rules,
    inherit,
)
from switch_emulator.stateful.cli import Args, BadWord, Rule
from switch_emulator.stateful.render_cisco import (
    Dialect,
    Render,
    all_channels,
    channel_label,
    channel_members,
    duplex_text,
    hostname_of,
    interfaces_config,
    line_protocol_header,
    lldp_device,
    neighbours_over,
    short,
    speed_text,
    spelled_hash,
    summary_rows,
)
from switch_emulator.stateful.render_global_mtu import ios_system_mtu

# hostlint's hash name -> the IOS keyword, where it differs (IOS-L2, "port-channel load-balance").
_IOS_KEYWORDS = {
    "src-ip-port": "src-mixed-ip-port",
    "dst-ip-port": "dst-mixed-ip-port",
    "src-dst-ip-port": "src-dst-mixed-ip-port",
    "src-dst-ip-vlan": "vlan-src-dst-ip",
    "src-dst-ip-port-vlan": "vlan-src-dst-mixed-ip-port",
}

# What IOS prints differently in the shared show output (switch_emulator.stateful.render_cisco).
DIALECT = Dialect(
    platform="cisco_ios",
    # `show etherchannel summary` legend; a member in no known state is `w`, waiting to be aggregated.
    member_flags={"bundled": "P", "hot-standby": "H", "suspended": "s", "individual": "I", "down": "D", None: "w"},
    protocols={"static": "-", "pagp": "PAgP"},
    layer_flag=True,
    default_hash="src-mac",
    spell_hash=lambda name: _IOS_KEYWORDS.get(name, name),
    auto_speed="Auto-speed",
    auto_duplex="Auto",
)

_IOS_HASHES = (
    "dst-ip|dst-mac|dst-mixed-ip-port|dst-port|src-dst-ip|src-dst-mac|src-dst-mixed-ip-port|src-dst-port|"
    "src-ip|src-mac|src-mixed-ip-port|src-port"
)


class IosSession(CiscoLikeSession):
    platform = "cisco_ios"
    show_in_config = False  # IOS-FUND: exec commands in configuration modes need `do`
    invalid = "{caret}\n% Invalid input detected at '^' marker.\n"
    incomplete = "% Incomplete command.\n"
    enter_config = "Enter configuration commands, one per line.  End with CNTL/Z."
    physical = (
        "FastEthernet",
        "GigabitEthernet",
        "TwoGigabitEthernet",
        "FiveGigabitEthernet",
        "TenGigabitEthernet",
        "TwentyFiveGigE",
        "FortyGigabitEthernet",
        "HundredGigE",
    )
    # IOS-L2 "EtherChannel Configuration Guidelines": port-channel numbers 1-128 (Catalyst 9300).
    channel_numbers = (1, 128)

    def exec_rules(self) -> list[Rule]:
        return [
            Rule("configure terminal", self.configure, "IOS-FUND configure terminal"),
            Rule(
                "copy running-config startup-config",
                lambda _: "Destination filename [startup-config]? \nBuilding configuration...\n[OK]",
                "IOS-FUND copy",
            ),
            Rule("write [memory]", lambda _: "Building configuration...\n[OK]", "IOS-FUND write memory"),
            Rule("exit", lambda _: "", "IOS-FUND exit"),
        ]

    def config_rules(self) -> list[Rule]:
        return [
            Rule("interface range <text>", self.interface_range, "IOS-CMD interface range"),
            Rule("interface <if>", self.interface, "IOS-CMD interface"),
            Rule("no interface <if>", self.no_interface, "IOS-L2 EtherChannels: no interface port-channel"),
            Rule(f"port-channel load-balance {{{_IOS_HASHES}}}", self.load_balance, "IOS-L2 port-channel load-balance"),
            Rule("no port-channel load-balance", lambda _: self.set_hash("src-mac"), "IOS-L2 (default src-mac)"),
            Rule("end", self.end, "IOS-FUND end"),
            Rule("exit", self.exit, "IOS-FUND exit"),
        ]

    def interface_rules(self) -> list[Rule]:
        return [
            Rule(
                "channel-group <1-128> mode {active|passive|on|desirable|auto} [non-silent]",
                lambda a: self.channel_group(a[0], normalise.channel_mode(a[1])),
                "IOS-L2 channel-group",
            ),
            Rule("no channel-group", self.no_channel_group, "IOS-L2 no channel-group"),
            Rule("no channel-group <1-128>", self.no_channel_group, "IOS-L2 no channel-group"),
            # IOS-CMD mtu: per-interface MTU 1500-9198 (Catalyst 9000 per-port MTU).
            Rule("mtu <1500-9198>", lambda a: self.set_mtu(a[0]), "IOS-CMD mtu"),
            Rule("no mtu", lambda _: self.set_mtu(None), "IOS-CMD mtu"),
            Rule(
                "speed {10|100|1000|2500|5000|10000|auto}",
                lambda a: self.set_speed(None if a[0] == "auto" else int(a[0]), None, False),
                "IOS-CMD speed",
            ),
            Rule("no speed", lambda _: self.set_speed(None, None, False), "IOS-CMD speed"),
            Rule("duplex {auto|full|half}", self.duplex_rule, "IOS-CMD duplex"),
            Rule("no duplex", lambda _: self.set_duplex(None), "IOS-CMD duplex"),
            # IOS-CMD speed: `speed nonegotiate` / `negotiation auto` on 1G SFP ports; without
            # negotiation such a port runs 1000 full.
            Rule("negotiation auto", lambda _: self.set_speed(None, None, True), "IOS-CMD negotiation auto"),
            Rule("no negotiation auto", lambda _: self.set_speed(1000, "full", True), "IOS-CMD negotiation auto"),
            *common_interface_rules(self, "IOS-CMD", "IOS-L2", 4094),
            *self.opaque_rules(),
        ]

    opaque = (
        ("lacp rate", "lacp rate {fast|normal}", "IOS-L2 Configuring EtherChannels: lacp rate"),
        ("lacp port-priority", "lacp port-priority <1-65535>", "IOS-L2 lacp port-priority"),
        ("lacp max-bundle", "lacp max-bundle <1-8>", "IOS-L2 lacp max-bundle (port-channel)"),
        ("spanning-tree portfast", "spanning-tree portfast [edge] [trunk]", "IOS-L2 STP: spanning-tree portfast"),
        ("spanning-tree bpduguard", "spanning-tree bpduguard {enable|disable}", "IOS-L2 STP: bpduguard"),
        ("spanning-tree bpdufilter", "spanning-tree bpdufilter {enable|disable}", "IOS-L2 STP: bpdufilter"),
    )

    def interface_range(self, args: Args) -> str:
        self.targets = self.interface_list(str(args[0]), 2)
        self.target_label = str(args[0])
        self.mode = "config-if"
        return ""

    def load_balance(self, args: Args) -> str:
        return self.set_hash(str(args[0]))

    def set_hash(self, keyword: str) -> str:
        self.state.load_balance = LoadBalance(hash=IOS_HASHES.read(keyword), raw=keyword)
        return ""

    def new_channel(self, name: str, first: SwitchPort | None) -> PortChannel:
        # Created by `interface port-channel`: a Layer 2 access port in VLAN 1, at the system MTU
        # (`system mtu`, not in this model: its default, 1500). Created by a port's `channel-group`: it takes
        # that port's Layer 2 configuration (IOS-L2, "Layer 2 EtherChannel Configuration Guidelines").
        if first is None:
            return PortChannel(name=name, switchport="access", access_vlan=1, mtu=1500, status="down")
        return inherit(name, first)

    def mode_mismatch(self, port: SwitchPort, channel: PortChannel) -> str:
        return (
            f"Command rejected (Channel protocol mismatch for interface {self.short(port.name)} in group "
            f"{channel_number(channel.name)}): the interface can not be added to the channel group"
        )

    def layer_mismatch(self, port: SwitchPort, channel: PortChannel) -> str:
        return (
            f"Command rejected ({channel.name}, {self.short(port.name)}): Either port is L2 and port-channel is L3,"
            " or vice-versa"
        )

    def no_such_channel(self, name: str) -> str:
        raise BadWord(2)  # MODELED: IOS refuses to delete an interface it does not have


def _ios_show_interfaces(state: Switch) -> str:
    out: list[str] = []
    mac = 0
    for port in state.ports:
        if port.status is None:
            continue  # a port known only from a neighbour table or a summary
        mac += 1
        out.append(line_protocol_header(port.name, port.status) + " ")
        out.append(f"  Hardware is Gigabit Ethernet, address is 00a3.8e4c.{mac:04x} (bia 00a3.8e4c.{mac:04x})")
        if port.description:
            out.append(f"  Description: {port.description}")
        if port.mtu is not None:
            out.append(f"  MTU {port.mtu} bytes, BW 1000000 Kbit/sec, DLY 10 usec, ")
        out.append("     reliability 255/255, txload 1/255, rxload 1/255")
        out.append("  Encapsulation ARPA, loopback not set")
        out.append("  Keepalive set (10 sec)")
        up = port.status == "up"
        duplex = duplex_text(DIALECT, port.duplex if up else None)
        speed = speed_text(DIALECT, port.speed_mbps if up else None)
        out.append(f"  {duplex}-duplex, {speed}, media type is 10/100/1000BaseTX")
        out.append("  input flow-control is off, output flow-control is unsupported ")
        out.append("     0 output errors, 0 collisions, 1 interface resets")
    for name, channel in all_channels(state):
        if channel is None or channel.status is None:
            continue
        out.append(line_protocol_header(channel_label(DIALECT, name), channel.status) + " ")
        out.append("  Hardware is EtherChannel, address is 00a3.8e4c.1a0c (bia 00a3.8e4c.1a0c)")
        if channel.mtu is not None:
            out.append(f"  MTU {channel.mtu} bytes, BW 2000000 Kbit/sec, DLY 10 usec, ")
        out.append("  Auto-duplex, Auto-speed, link type is auto, media type is ")
        members = " ".join(short(DIALECT, p.name) for p in channel_members(state, channel))
        out.append(f"  Members in this channel: {members} " if members else "  No members in this channel")
    return "\n".join(out) + "\n"


def _ios_summary(state: Switch) -> str:
    rows = summary_rows(DIALECT, state)
    head = [
        "Flags:  D - down        P - bundled in port-channel",
        "        I - stand-alone s - suspended",
        "        H - Hot-standby (LACP only)",
        "        R - Layer3      S - Layer2",
        "        U - in use      f - failed to allocate aggregator",
        "",
        "        M - not in use, minimum links not met",
        "        u - unsuitable for bundling",
        "        w - waiting to be aggregated",
        "        d - default port",
        "",
        "",
        f"Number of channel-groups in use: {len(rows)}",
        f"Number of aggregators:           {len(rows)}",
        "",
        "Group  Port-channel  Protocol    Ports",
        "------+-------------+-----------+-----------------------------------------------",
    ]
    body = [f"{g:<7}{po:<16}{proto:<9}{members}  " for g, po, proto, members in rows]
    return "\n".join(head + body) + "\n\n"


def _ios_cdp(state: Switch) -> str:
    out = []
    for port, n in neighbours_over(state, "cdp"):
        out += ["-------------------------", f"Device ID: {n.device_id}", "Entry address(es): "]
        if n.mgmt_address:
            out.append(f"  IP address: {n.mgmt_address}")
        out.append(f"Platform: {n.platform or 'unknown'},  Capabilities: Switch ")
        out.append(f"Interface: {port.name},  Port ID (outgoing port): {n.port_id}")
        out += ["Holdtime : 171 sec", "", "advertisement version: 2", "Duplex: full", ""]
    count = len(neighbours_over(state, "cdp"))
    return "\n".join([*out, "", f"Total cdp entries displayed : {count}"]) + "\n"


def _ios_lldp_detail(state: Switch) -> str:
    out = []
    for index, (port, n) in enumerate(neighbours_over(state, "lldp")):
        chassis, system = lldp_device(n, index)
        out += ["------------------------------------------------", f"Local Intf: {short(DIALECT, port.name)}"]
        out += [f"Chassis id: {chassis}", f"Port id: {n.port_id}"]
        if n.port_description:
            out.append(f"Port Description: {n.port_description}")
        if system:
            out.append(f"System Name: {system}")
        out += ["", "Time remaining: 104 seconds", "System Capabilities: B,R", "Enabled Capabilities: B"]
        out.append("Management Addresses:")
        if n.mgmt_address:
            out.append(f"    IP: {n.mgmt_address}")
        out += ["Vlan ID: - not advertised", ""]
    count = len(neighbours_over(state, "lldp"))
    return "\n".join([*out, "", f"Total entries displayed: {count}"]) + "\n"


def _ios_lldp_table(state: Switch) -> str:
    out = [
        "",
        "Capability codes:",
        "    (R) Router, (B) Bridge, (T) Telephone, (C) DOCSIS Cable Device",
        "    (W) WLAN Access Point, (P) Repeater, (S) Station, (O) Other",
        "",
        "Device ID           Local Intf     Hold-time  Capability      Port ID",
    ]
    lldp = neighbours_over(state, "lldp")
    for index, (port, n) in enumerate(lldp):
        chassis, system = lldp_device(n, index)
        device = (system or chassis)[:20]
        out.append(f"{device:<20}{short(DIALECT, port.name):<15}{120:<11}{'B,R':<16}{n.port_id}")
    return "\n".join([*out, "", f"Total entries displayed: {len(lldp)}", ""]) + "\n"


def _ios_show_switch(state: Switch) -> str:
    stack = state.multichassis if state.multichassis and state.multichassis.kind == "stack" else None
    domain = stack.domain_id if stack else "00a3.8e4c.1a80"
    out = [
        f"Switch/Stack Mac Address : {domain} - Local Mac Address",
        "Mac persistency wait time: Indefinite",
        "                                             H/W   Current",
        "Switch#   Role    Mac Address     Priority Version  State ",
        "-------------------------------------------------------------",
        "*1       Active   00a3.8e4c.1a80     15     V05     Ready                ",
    ]
    if stack:
        out.append(" 2       Standby  00a3.8e4c.2c80     14     V05     Ready                ")
    return "\n".join(out) + "\n"


def _ios_version(state: Switch) -> str:
    out = []
    if state.os_version:
        out.append(f"Cisco IOS XE Software, Version {state.os_version}")
        out.append(
            "Cisco IOS Software [Cupertino], Catalyst L3 Switch Software (CAT9K_IOSXE), "
            f"Version {state.os_version}, RELEASE SOFTWARE (fc2)"
        )
    out.append(f"{state.name} uptime is 41 weeks, 3 days, 2 hours, 17 minutes")
    if state.model:
        out += ["", f"Model Number                       : {state.model}"]
    return "\n".join(out) + "\n"


def _ios_config(state: Switch) -> str:
    out = ["Building configuration...", "", "Current configuration : 6183 bytes", "!", "version 17.9"]
    out += [f"hostname {hostname_of(state)}", "!", f"port-channel load-balance {spelled_hash(DIALECT, state)}", "!"]
    out += interfaces_config(DIALECT, state, " ", "!")
    return "\n".join([*out, "end"]) + "\n"


_IOS: dict[str, Render] = {
    "show version": _ios_version,
    "show running-config": _ios_config,
    "show interfaces": _ios_show_interfaces,
    "show etherchannel summary": _ios_summary,
    "show etherchannel load-balance": lambda s: (
        f"EtherChannel Load-Balancing Configuration:\n        {spelled_hash(DIALECT, s)}\n\n"
        "EtherChannel Load-Balancing Addresses Used Per-Protocol:\n"
    ),
    "show cdp neighbors detail": _ios_cdp,
    "show lldp neighbors detail": _ios_lldp_detail,
    "show lldp neighbors": _ios_lldp_table,
    "show switch": _ios_show_switch,
    "show system mtu": ios_system_mtu,
}


def render(state: Switch, command: str) -> str | None:
    """The output of `command` (spaces normalised) on this state; None: not a command it knows."""
    answer = _IOS.get(" ".join(command.split()))
    return answer(state) if answer else None


SESSION = IosSession
RENDER = render
