"""EOS for the stateful switch emulator: its configuration session (`SESSION`) and the show
commands hostlint's collector sends (`RENDER`), both over hostlint's own `Switch` model.

The machinery IOS, NX-OS and EOS share is in switch_emulator.stateful.cisco_base (sessions) and
switch_emulator.stateful.render_cisco (show output); here is what EOS says differently. The
grammar is the configuration hostlint's fix text for EOS writes
(hostlint/switches/arista_eos/fixes.yaml)
and what an engineer types around it; each rule names the vendor reference it follows:

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
from hostlint.snapshot.switch import ChannelMode, MemberState, PortChannel, Switch, SwitchPort
from switch_emulator.stateful.cisco_base import (
    CiscoLikeSession,
    Target,
    common_interface_rules,
)
from switch_emulator.stateful.cli import Args, BadWord, Reject, Rule
from switch_emulator.stateful.render_cisco import (
    Dialect,
    Render,
    all_channels,
    channel_holding,
    channel_label,
    channel_members,
    duplex_text,
    hostname_of,
    interfaces_config,
    line_protocol_header,
    lldp_device,
    peer_link,
    speed_text,
    spelled_hash,
    summary_rows,
)

# hostlint's hash name -> EOS's `fields ip` words (EOS User Manual, "port-channel load-balance fields").
_EOS_FIELDS = {
    "src-dst-ip-port": "source-ip destination-ip source-port destination-port",
    "src-dst-ip": "source-ip destination-ip",
    "src-ip": "source-ip",
    "dst-ip": "destination-ip",
    "src-dst-port": "source-port destination-port",
    "src-ip-port": "source-ip source-port",
    "dst-ip-port": "destination-ip destination-port",
    "src-dst-mac": "mac-header",
}
# Hashes EOS spells with a `fields mac` line beside the `fields ip` one; the collector reads the IP
# fields only (EOS User Manual, "port-channel load-balance fields").
EOS_MAC_AND_IP = {"src-dst-mac-ip": ("src-mac dst-mac", "source-ip destination-ip")}
# EOS: the L2 MTU's default, the platform maximum (hostlint.platforms, EOS).
EOS_L2_DEFAULT = 9214


def _speed_lines(speed: int | None, duplex: str | None) -> list[str]:
    # EOS User Manual, "Ethernet configuration": `speed forced 10000full` / `speed 10g`.
    if speed is not None and duplex is not None:
        return [f"speed forced {speed}{duplex}"]
    if speed is not None:
        return [f"speed {speed // 1000}g" if speed >= 1000 and speed % 1000 == 0 else f"speed {speed}"]
    return []


# What EOS prints differently in the shared show output (switch_emulator.stateful.render_cisco).
DIALECT = Dialect(
    platform="arista_eos",
    # `show port-channel summary` legend: bundled `PG+` (in Po, aggregable, in sync), individual `^`
    # (LACP fallback); a member in no known state `G-` (aggregable, out of sync).
    member_flags={"bundled": "PG+", "hot-standby": "H", "suspended": "s", "individual": "^", "down": "D", None: "G-"},
    protocols={"static": "Static", "lacp-active": "LACP(a)", "lacp-passive": "LACP(p)"},
    layer_flag=False,
    default_hash=None,
    spell_hash=lambda name: _EOS_FIELDS.get(name, name),
    auto_speed="unconfigured-speed",
    auto_duplex="Unconfigured",
    speed_lines=_speed_lines,
    mtu_before_switchport=True,
    l2_mtu_max=EOS_L2_DEFAULT,
    peer_link_line="switchport trunk group mlagpeer",
    multichassis_word="mlag",
)

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
            *common_interface_rules(self, "EOS Ethernet Ports", "EOS Switchport", 4094),
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


def _eos_show_interfaces(state: Switch) -> str:
    out: list[str] = []
    for port in state.ports:
        if port.status is None:
            continue
        out.append(line_protocol_header(port.name, port.status).replace("(err-disabled)", "(errdisabled)"))
        out.append("  Hardware is Ethernet, address is 001c.7312.ab00 (bia 001c.7312.ab00)")
        if port.description:
            out.append(f"  Description: {port.description}")
        channel = channel_holding(state, port)
        if channel is not None:
            out.append(f"  Member of {channel_label(DIALECT, channel.name)}")
        if port.mtu is not None:
            out.append(f"  Ethernet MTU {port.mtu} bytes, BW 10000000 kbit")
        up = port.status == "up"
        duplex = duplex_text(DIALECT, port.duplex if up else None)
        speed = speed_text(DIALECT, port.speed_mbps if up else None)
        out.append(f"  {duplex}-duplex, {speed}, auto negotiation: off, uni-link: n/a")
        out.append("  Loopback Mode : None")
    for name, channel in all_channels(state):
        if channel is None or channel.status is None:
            continue
        label = channel_label(DIALECT, name)
        if channel.status == "up":
            out.append(f"{label} is up, line protocol is up (connected)")
        else:
            out.append(f"{label} is down, line protocol is lowerlayerdown (notconnect)")
        out.append("  Hardware is Port-Channel, address is 001c.7312.ac00")
        if channel.mtu is not None:
            out.append(f"  Ethernet MTU {channel.mtu} bytes, BW 10000000 kbit")
        bundled = [p for p in channel_members(state, channel) if p.member_state == "bundled"]
        out.append(f"  Active members in this channel: {len(bundled)}" if bundled else "  No active members")
    return "\n".join(out) + "\n"


def _eos_summary(state: Switch) -> str:
    rows = summary_rows(DIALECT, state)
    head = [
        "",
        "                 Flags",
        "------------------------ ---------------------------- -------------------------",
        "  a - LACP Active          p - LACP Passive           * - static fallback",
        "  U - In Use               D - Down",
        "  + - In-Sync              - - Out-of-Sync            i - incompatible with agg",
        "  P - bundled in Po        s - suspended              G - Aggregable",
        "  I - Individual           S - ShortTimeout           w - wait for agg",
        "",
        f"Number of port channels in use: {len(rows)}",
        f"Number of aggregators: {len(rows)}",
        "",
        "   Port-Channel       Protocol    Ports",
        "------------------ -------------- ------------------------------",
    ]
    body = [f"   {po:<19}{proto:<12}{members}".rstrip() for _, po, proto, members in rows]
    return "\n".join(head + body) + "\n"


def _eos_lldp_detail(state: Switch) -> str:
    out = []
    index = 0
    for port in state.ports:
        lldp = [n for n in port.neighbours if n.protocol == "lldp"]
        if not lldp:
            continue
        out += [f"Interface {port.name} detected {len(lldp)} LLDP neighbors:", ""]
        for n in lldp:
            chassis, system = lldp_device(n, index)
            index += 1
            out.append(f'  Neighbor {chassis}/"{n.port_id}", age 12 seconds')
            out.append("  Discovered 12 days, 3:41:10 ago; Last changed 12 days, 3:41:10 ago")
            out += ["  - Chassis ID type: MAC address (4)", f"    Chassis ID     : {chassis}"]
            out += ["  - Port ID type: Interface name (5)", f'    Port ID        : "{n.port_id}"']
            out.append("  - Time To Live: 120 seconds")
            if n.port_description:
                out.append(f'  - Port Description: "{n.port_description}"')
            if system:
                out.append(f'  - System Name: "{system}"')
            if n.mgmt_address:
                out += ["  - Management Address Subtype: IPv4 (1)", f"    Management Address        : {n.mgmt_address}"]
            out.append("")
    return "\n".join(out) + "\n"


def _eos_version(state: Switch) -> str:
    out = [f"Arista {state.model}"] if state.model else []
    out += ["Hardware version: 11.02", ""]
    if state.os_version:
        out.append(f"Software image version: {state.os_version}")
    out += ["Architecture: x86_64", ""]
    return "\n".join(out) + "\n"


def _eos_config(state: Switch) -> str:
    out = ["! Command: show running-config", f"! device: {state.name}", "!", f"hostname {hostname_of(state)}", "!"]
    balance = state.load_balance
    if balance is not None and balance.hash in EOS_MAC_AND_IP:
        mac, ip = EOS_MAC_AND_IP[balance.hash]
        out += [f"port-channel load-balance trident fields mac {mac}", "!"]
        out += [f"port-channel load-balance trident fields ip {ip}", "!"]
    elif fields := spelled_hash(DIALECT, state):
        out += [f"port-channel load-balance trident fields ip {fields}", "!"]
    out += interfaces_config(DIALECT, state, "   ", "!")
    mlag = state.multichassis if state.multichassis and state.multichassis.kind == "mlag" else None
    if mlag:
        out += ["mlag configuration", f"   domain-id {mlag.domain_id}"]
        link_channel = peer_link(state)
        if link_channel is not None:
            out.append(f"   peer-link {channel_label(DIALECT, link_channel.name)}")
        out.append("!")
    return "\n".join([*out, "end"]) + "\n"


def _show_mlag(state: Switch) -> str:
    mlag = state.multichassis if state.multichassis and state.multichassis.kind == "mlag" else None
    if mlag is None:
        # `mlag configuration` not set: an empty domain and state Disabled (EOS User Manual, "show mlag").
        lines = ["MLAG Configuration:", f"{'domain-id':<35}:", "", "MLAG Status:", f"{'state':<35}: {'Disabled':>19}"]
        return "\n".join(lines) + "\n"
    link_channel = peer_link(state)
    link = "" if link_channel is None else channel_label(DIALECT, link_channel.name)
    link_status = {True: "Up", False: "Down", None: ""}[mlag.peer_link_up]
    out = [
        "MLAG Configuration:              ",
        f"domain-id                          : {mlag.domain_id:>19}",
        "local-interface                    :            Vlan4094",
        "peer-address                       :        10.255.255.2",
    ]
    if link:
        out.append(f"peer-link                          : {link:>19}")
    out += ["peer-config                        :          consistent", "", "MLAG Status:                     "]
    out.append("state                              :              Active")
    if link_status:
        out.append(f"peer-link status                   : {link_status:>18}")
    return "\n".join(out) + "\n"


_EOS: dict[str, Render] = {
    "show version": _eos_version,
    "show running-config": _eos_config,
    "show interfaces": _eos_show_interfaces,
    "show port-channel summary": _eos_summary,
    "show lldp neighbors detail": _eos_lldp_detail,
    "show mlag": _show_mlag,
}


def render(state: Switch, command: str) -> str | None:
    """The output of `command` (spaces normalised) on this state; None: not a command it knows."""
    answer = _EOS.get(" ".join(command.split()))
    return answer(state) if answer else None


SESSION = EosSession
RENDER = render
