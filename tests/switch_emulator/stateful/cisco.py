"""Configuration sessions for cisco_ios, cisco_nxos and arista_eos over hostlint's Switch model.

The dialects (grammar, texts, platform behaviour) are here, the shared machinery in cisco_base.py.
The grammar is the configuration hostlint's fix templates write for these platforms (hostlint/fixes/
actions/switch_*/action.yaml) and what an engineer types around them; each rule names the vendor reference it
follows. References (cited by their short names below):

- IOS-CMD: Cisco Catalyst 9300 Series Switches Interface and Hardware Components Command Reference,
  Cisco IOS XE 17.x (`interface`, `mtu`, `speed`, `duplex`, `shutdown`, `description`).
- IOS-L2: Cisco Catalyst 9300 Series Switches Layer 2 Configuration Guide, IOS XE 17.x,
  "Configuring EtherChannels" (`channel-group`, `port-channel load-balance`, `interface port-channel`,
  "EtherChannel Configuration Guidelines") and "Configuring VLANs" / "Configuring VLAN Trunks"
  (`switchport mode`, `switchport access vlan`, `switchport trunk allowed vlan`, `switchport trunk
  native vlan`).
- IOS-FUND: Cisco IOS Configuration Fundamentals Command Reference (`configure terminal`, `end`,
  `exit`, `copy running-config startup-config`, `write memory`).
- NX-INT: Cisco Nexus 9000 Series NX-OS Interfaces Configuration Guide, Release 10.x: "Configuring
  Basic Interface Parameters" (`description`, `speed`, `duplex`, `mtu`: "For Layer 2 interfaces, you
  can configure the MTU to be either the system default MTU (1500 bytes) or the system jumbo MTU",
  `shutdown`), "Configuring Layer 2 Interfaces" (`switchport ...`), "Configuring Port Channels"
  (`channel-group`, `interface port-channel`, `port-channel load-balance`, `feature lacp`; "Port
  Channels", "Compatibility Requirements"), "Configuring vPCs" (`vpc`).
- NX-FUND: Cisco Nexus 9000 Series NX-OS Fundamentals Configuration Guide (`configure terminal`,
  `copy running-config startup-config`).
- EOS: Arista EOS User Manual: "Ethernet Ports" (`speed`, `mtu`: 68-9214, default 1500 - "Layer 3
  MTU Configuration"), "Port Channels and LACP" (`channel-group`, `interface port-channel`), "VLANs"
  / "Switchport" (`switchport ...`), "Multi-Chassis Link Aggregation" (`mlag`), "Command-Line
  Interface" (`configure`, `end`, `exit`, `copy`, `write`).

Error texts: where a real device's text was found in public material it is used verbatim (IOS
"Command rejected (Channel protocol mismatch ...)" and "Either port is L2 and port-channel is L3",
NX-OS "MTU on L2 interfaces can only be set to default or system-jumboMTU" and "Port-channel mode
cannot be changed in a non-empty port-channel ..."); elsewhere (marked MODELED) the rejection follows
the documented behaviour and the wording is the emulator's own.
"""

from __future__ import annotations

from hostlint import names
from hostlint.collect.switches import normalise
from hostlint.snapshot.switch import ChannelMode, LoadBalance, MemberState, PortChannel, Switch, SwitchPort
from hostlint.switches.cisco_ios.hashes import HASHES as IOS_HASHES
from hostlint.switches.cisco_nxos.hashes import HASHES as NXOS_HASHES
from switch_emulator.stateful.cisco_base import CiscoLikeSession, Target, channel_number
from switch_emulator.stateful.cli import Args, BadWord, Reject, Rule

# --- Cisco IOS (IOS XE, Catalyst) ------------------------------------------------------------------

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
            *_common_interface_rules(self, "IOS-CMD", "IOS-L2", 4094),
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
        return _inherit(name, first)

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


# --- Cisco NX-OS (Nexus 9000) ----------------------------------------------------------------------

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
            *_common_interface_rules(self, "NX-INT", "NX-INT", 4094),
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
        return _inherit(name, first)

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


# --- Arista EOS ------------------------------------------------------------------------------------

_EOS_SPEEDS = (
    "10full|10half|100full|100half|1000full|1000half|10000full|2.5gfull|5gfull|25gfull|40gfull|50gfull|"
    "100gfull|200gfull|400gfull"
)


class EosSession(CiscoLikeSession):
    platform = "arista_eos"
    invalid = "% Invalid input (at token {index}: '{word}')\n"
    incomplete = "% Incomplete command\n"
    physical = ("Ethernet",)
    # EOS "Port Channels and LACP": channel-group numbers 1-2000.
    channel_numbers = (1, 2000)
    # EOS: a member's switchport lines are the Port-Channel's business (members are not written to,
    # and a member's own lines neither suspend it nor take effect).
    vlans_follow_channel = False
    compatibility = ()

    def __init__(self, state: Switch, lacp_partners: frozenset[str]) -> None:
        super().__init__(state, lacp_partners)
        # Each interface's configured `l2 mtu` frame, where below the platform maximum (EOS_L2_DEFAULT).
        self.l2_frames: dict[str, int] = {}
        for item in (*state.ports, *state.port_channels):
            mode = self._tagging_mode(item)
            if item.l2_mtu is not None and mode != "routed":
                frame = item.l2_mtu + 14 + (4 if mode == "trunk" else 0)
                if frame < EOS_L2_DEFAULT:
                    self.l2_frames[names.interface_key(item.name)] = frame
        self._derive_l2()

    def exec_rules(self) -> list[Rule]:
        return [
            Rule("configure [terminal]", self.configure, "EOS Command-Line Interface: configure"),
            Rule(
                "copy running-config startup-config",
                lambda _: "Copy completed successfully.",
                "EOS copy running-config startup-config",
            ),
            Rule("write [memory]", lambda _: "Copy completed successfully.", "EOS write memory"),
            Rule("exit", lambda _: "", "EOS exit"),
        ]

    def config_rules(self) -> list[Rule]:
        return [
            Rule("interface <text>", self.interface_many, "EOS Ethernet Ports: interface (list and range)"),
            Rule("no interface <if>", self.no_interface, "EOS Port Channels: no interface port-channel"),
            Rule("end", self.end, "EOS end"),
            Rule("exit", self.exit, "EOS exit"),
        ]

    def interface_rules(self) -> list[Rule]:
        return [
            Rule(
                "channel-group <1-2000> mode {active|passive|on}",
                lambda a: self.channel_group(a[0], normalise.channel_mode(a[1])),
                "EOS Port Channels and LACP: channel-group",
            ),
            Rule("no channel-group", self.no_channel_group, "EOS no channel-group"),
            Rule("no channel-group <1-2000>", self.no_channel_group, "EOS no channel-group"),
            # EOS "Layer 3 MTU Configuration": 68-9214 bytes, default 1500.
            Rule("mtu <68-9214>", lambda a: self.set_mtu(a[0]), "EOS mtu"),
            Rule("no mtu", lambda _: self.set_mtu(None), "EOS mtu"),
            # EOS Ethernet Ports, `l2 mtu`: the largest bridged frame, 68-65535 (capped at the platform's
            # maximum, 9214 here, which is also its default).
            Rule("l2 mtu <68-65535>", lambda a: self.set_l2_mtu(a[0]), "EOS l2 mtu"),
            Rule("no l2 mtu", lambda _: self.set_l2_mtu(None), "EOS l2 mtu"),
            Rule("speed auto", lambda _: self.set_speed(None, None, True), "EOS Ethernet Ports: speed auto"),
            Rule(f"speed [forced] {{{_EOS_SPEEDS}}}", lambda a: self.eos_speed(str(a[1])), "EOS Ethernet Ports: speed"),
            Rule("no speed", lambda _: self.set_speed(None, None, True), "EOS speed"),
            Rule("mlag <1-2000>", lambda a: self.set_mlag(a[0], 1), "EOS Multi-Chassis Link Aggregation: mlag"),
            Rule("no mlag", lambda _: self.set_mlag(None, 1), "EOS no mlag"),
            Rule("no mlag <1-2000>", lambda _: self.set_mlag(None, 1), "EOS no mlag"),
            *_common_interface_rules(self, "EOS Ethernet Ports", "EOS Switchport", 4094),
            *self.opaque_rules(),
        ]

    opaque = (
        (
            "port-channel lacp fallback",
            "port-channel lacp fallback {individual|static}",
            "EOS Port Channels and LACP: LACP fallback",
        ),
        (
            "port-channel lacp fallback timeout",
            "port-channel lacp fallback timeout <1-300>",
            "EOS Port Channels and LACP: fallback timeout",
        ),
        ("lacp timer", "lacp timer {fast|normal}", "EOS Port Channels and LACP: lacp timer"),
        ("lacp port-priority", "lacp port-priority <0-65535>", "EOS Port Channels and LACP: lacp port-priority"),
        ("spanning-tree portfast", "spanning-tree portfast [network]", "EOS Spanning Tree: spanning-tree portfast"),
        ("spanning-tree bpduguard", "spanning-tree bpduguard {enable|disable}", "EOS Spanning Tree: bpduguard"),
        ("spanning-tree bpdufilter", "spanning-tree bpdufilter {enable|disable}", "EOS Spanning Tree: bpdufilter"),
    )

    def _falls_back(self, channel: PortChannel | None) -> bool:
        return channel is not None and "port-channel lacp fallback individual" in (channel.config_lines or [])

    def member_state(self, port: SwitchPort, mode: ChannelMode) -> MemberState | None:
        # EOS "LACP fallback": with `fallback individual` and no LACP partner the members come up as
        # individual switchports (their own configuration), not suspended.
        state = super().member_state(port, mode)
        channel = self.channel(port.port_channel) if port.port_channel else None
        return "individual" if state == "suspended" and self._falls_back(channel) else state

    def channel_status(self, channel: PortChannel) -> None:
        # MODELED: a channel whose members run individually in fallback shows up, as the labs record it.
        super().channel_status(channel)
        members = [p.member_state for p in self.state.ports if p.name in channel.members]
        if self._falls_back(channel) and "individual" in members:
            channel.status = "up"

    def after_opaque(self, item: SwitchPort | PortChannel) -> None:
        if isinstance(item, PortChannel):
            for port in (p for p in self.state.ports if p.name in item.members):
                mode = self.member_modes.get(names.interface_key(port.name))
                if mode is not None:
                    port.member_state = self.member_state(port, mode)
            self.channel_status(item)

    def interface_mode_name(self) -> str:
        return f"config-if-{self.eos_label()}"

    def eos_label(self) -> str:
        if any(t.port is None and t.channel is None for t in self.targets):
            return self.short(names.interface(self.target_label))
        return ",".join(self.short(t.port.name if t.port is not None else str(t.channel)) for t in self.targets)

    def interface_many(self, args: Args) -> str:
        self.targets = self.interface_list(str(args[0]), 1)
        for target in self.targets:
            if target.channel is not None and self.channel(target.channel) is None:
                self.add_channel(self.new_channel(target.channel, None))
        self.target_label = str(args[0])
        self.mode = "config-if"
        if any(t.port is None and t.channel is None for t in self.targets):
            return "! Interface does not exist. The configuration will not take effect until the module is inserted."
        return ""

    def missing_port(self, name: str, index: int) -> Target:
        # EOS takes configuration for an interface it does not have (a module not inserted): the
        # mode is entered with a warning, and what is typed there changes nothing this model holds.
        return Target()

    def set_l2_mtu(self, frame: int | None) -> str:
        """`l2 mtu FRAME` (or `no l2 mtu`: the platform maximum) on the targets; a Port-Channel's applies to
        its members. The L2 MTU is held as the largest IP packet a bridged frame carries (hostlint's
        `l2_mtu`), which depends on the switchport mode too: `_derive_l2` keeps it in step."""
        for target in self.targets:
            items: list[SwitchPort | PortChannel] = []
            if target.port is not None:
                items.append(target.port)
            elif target.channel is not None and (channel := self.channel(target.channel)) is not None:
                items += [channel, *(p for p in self.state.ports if p.name in channel.members)]
            for item in items:
                key = names.interface_key(item.name)
                if frame is None or frame >= EOS_L2_DEFAULT:
                    self.l2_frames.pop(key, None)
                else:
                    self.l2_frames[key] = frame
        self._derive_l2()
        return ""

    def execute(self, line: str) -> str:
        answer = super().execute(line)
        self._derive_l2()
        return answer

    def _derive_l2(self) -> None:
        for item in (*self.state.ports, *self.state.port_channels):
            mode = self._tagging_mode(item)
            frame = self.l2_frames.get(names.interface_key(item.name), EOS_L2_DEFAULT)
            item.l2_mtu = None if mode == "routed" else frame - 14 - (4 if mode == "trunk" else 0)

    def _tagging_mode(self, item: SwitchPort | PortChannel) -> str | None:
        """The switchport mode that decides whether its frames carry a tag, as the collector reads it: a
        channel's own, else its members'; a member's channel's, unless it runs individually (LACP fallback)."""
        if isinstance(item, PortChannel):
            members = [p.mode for p in self.state.ports if p.name in item.members and p.mode is not None]
            return item.switchport or next(iter(members), None)
        channel = self.channel(item.port_channel) if item.port_channel else None
        if channel is None or item.member_state == "individual":
            return item.mode
        return channel.switchport or item.mode

    def eos_speed(self, keyword: str) -> str:
        duplex = "half" if "half" in keyword else ("full" if "full" in keyword else None)
        return self.set_speed(normalise.speed_mbps(keyword), duplex, True)

    def set_mlag(self, number: int | None, index: int) -> str:
        if any(t.port is not None for t in self.targets):
            raise BadWord(0 if number is not None else 1)
        for target in self.targets:
            channel = self.channel(target.channel) if target.channel else None
            if channel is not None:
                channel.multichassis_id = number
        return ""

    def new_channel(self, name: str, first: SwitchPort | None) -> PortChannel:
        # EOS: a new Port-Channel has the default configuration (access port in VLAN 1, MTU 1500),
        # whoever creates it: it does not take its first member's (see switch-static-port-channel).
        return PortChannel(name=name, switchport="access", access_vlan=1, mtu=1500, status="down")

    def check_switchport(self, port: SwitchPort) -> None:
        # MODELED: on EOS a member's VLANs are its Port-Channel's; its own switchport lines would not
        # take effect, so the emulator refuses them rather than keep lines that do nothing.
        raise Reject(f"% {port.name} is a member of {port.port_channel}: configure switchport on the Port-Channel")

    def mode_mismatch(self, port: SwitchPort, channel: PortChannel) -> str:
        # MODELED wording: EOS keeps one LACP mode family per channel (EOS "Port Channels and LACP").
        return f"% Cannot add {port.name} to {channel.name}: its channel-group mode differs from the other members'"

    def layer_mismatch(self, port: SwitchPort, channel: PortChannel) -> str:
        return f"% Cannot add {port.name} to {channel.name}: routed and switched ports cannot share a Port-Channel"

    def no_such_channel(self, name: str) -> str:
        return ""  # EOS deletes an interface it does not have without a word


# EOS: the L2 MTU's default, the platform maximum (hostlint.platforms, EOS).
EOS_L2_DEFAULT = 9214


def _inherit(name: str, first: SwitchPort) -> PortChannel:
    """A port-channel created by its first member's `channel-group`, with that port's Layer 2 config."""
    return PortChannel(
        name=name,
        switchport=first.mode,
        access_vlan=first.access_vlan,
        native_vlan=first.native_vlan,
        allowed_vlans=None if first.allowed_vlans is None else list(first.allowed_vlans),
        mtu=first.mtu,
        # Where a switch-wide figure limits bridged frames (Nexus 3000/5000/6000 network-qos, older Catalysts'
        # system mtu jumbo: render_global_mtu), a new channel carries it as its first member does.
        l2_mtu=first.l2_mtu,
        status="down",
    )


def _common_interface_rules(session: CiscoLikeSession, basic: str, layer2: str, last_vlan: int) -> list[Rule]:
    """shutdown, description and switchport: the same words on the three platforms."""
    vlan = f"<1-{last_vlan}>"
    return [
        Rule("shutdown", lambda _: session.set_shutdown(True), f"{basic} shutdown"),
        Rule("no shutdown", lambda _: session.set_shutdown(False), f"{basic} shutdown"),
        Rule("description <text>", lambda a: session.set_description(str(a[0])), f"{basic} description"),
        Rule("no description", lambda _: session.set_description(None), f"{basic} description"),
        Rule("switchport", lambda _: session.switchport({"mode": "access"}), f"{layer2} switchport"),
        Rule("no switchport", lambda _: session.switchport({"mode": "routed"}), f"{layer2} no switchport"),
        Rule("switchport mode {access|trunk}", lambda a: session.switchport({"mode": a[0]}), f"{layer2} mode"),
        # MODELED: the default mode is an access port here (NX-OS and EOS documented; IOS `dynamic auto`).
        Rule("no switchport mode", lambda _: session.switchport({"mode": "access"}), f"{layer2} mode"),
        Rule(
            f"switchport access vlan {vlan}",
            lambda a: session.switchport({"access_vlan": a[0]}),
            f"{layer2} switchport access vlan",
        ),
        Rule("no switchport access vlan", lambda _: session.switchport({"access_vlan": 1}), f"{layer2} access"),
        Rule(
            f"switchport trunk native vlan {vlan}",
            lambda a: session.switchport({"native_vlan": a[0]}),
            f"{layer2} switchport trunk native vlan",
        ),
        Rule("no switchport trunk native vlan", lambda _: session.switchport({"native_vlan": 1}), f"{layer2} native"),
        Rule(
            "switchport trunk allowed vlan {add|remove|except} <word>",
            lambda a: session.trunk_allowed(str(a[0]), str(a[1])),
            f"{layer2} switchport trunk allowed vlan",
        ),
        Rule(
            "switchport trunk allowed vlan <word>",
            lambda a: session.trunk_allowed(None, str(a[0])),
            f"{layer2} switchport trunk allowed vlan",
        ),
        Rule(
            "no switchport trunk allowed vlan",
            lambda _: session.trunk_allowed(None, "all"),
            f"{layer2} switchport trunk allowed vlan",
        ),
        Rule("exit", session.exit, f"{basic} exit"),
        Rule("end", session.end, f"{basic} end"),
    ]


SESSIONS: dict[str, type[CiscoLikeSession]] = {
    "cisco_ios": IosSession,
    "cisco_nxos": NxosSession,
    "arista_eos": EosSession,
}
