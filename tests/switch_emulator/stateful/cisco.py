"""Configuration sessions for cisco_ios, cisco_nxos and arista_eos over hostlint's Switch model.

The grammar is the configuration hostlint's fix templates write for these platforms (rules/fixes/
switch-*.yaml) and what an engineer types around them; each rule names the vendor reference it
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

import bisect
import re
from dataclasses import dataclass
from typing import ClassVar, Literal

from hostlint import names, vlans
from hostlint import platforms as registry
from hostlint.collect.switches import normalise
from hostlint.snapshot.switch import ChannelMode, LoadBalance, MemberState, PortChannel, Switch, SwitchPort
from switch_emulator.stateful.cli import Args, BadWord, Reject, Rule, parse, words_of

Mode = Literal["exec", "config", "config-if"]


@dataclass
class _Target:
    """An interface under configuration: a port of the switch, or a port-channel by name."""

    port: SwitchPort | None = None
    channel: str | None = None


def _family(mode: ChannelMode | None) -> str | None:
    if mode is None:
        return None
    return {"static": "on", "lacp-active": "lacp", "lacp-passive": "lacp", "pagp": "pagp"}[mode]


class CiscoLikeSession:
    """The shared machinery: modes, parsing, the Switch model's bookkeeping. Subclasses give the
    dialect: interface types, ranges, rule tables and texts."""

    platform: ClassVar[str]
    invalid: ClassVar[str]
    incomplete: ClassVar[str]
    enter_config: ClassVar[str] = ""
    physical: ClassVar[tuple[str, ...]]
    channel_numbers: ClassVar[tuple[int, int]]
    mtu_range: ClassVar[tuple[int, int]]

    def __init__(self, state: Switch, lacp_partners: frozenset[str]) -> None:
        self.state = state
        self.lacp_partners = frozenset(names.interface_key(p) for p in lacp_partners)
        self.mode: Mode = "exec"
        self.targets: list[_Target] = []
        self.target_label = ""
        self.spec = registry.switch(self.platform)
        # Each member's own channel-group mode (a channel shows one; its members may differ in LACP role).
        self.member_modes: dict[str, ChannelMode] = {}
        for channel in state.port_channels:
            for member in channel.members:
                if channel.mode is not None:
                    self.member_modes[names.interface_key(member)] = channel.mode
        # Whether each port's link comes up when enabled: what it showed, or, shut, whether it is cabled.
        self.link_up = {
            names.interface_key(p.name): p.status == "up" or (p.status == "disabled" and bool(p.neighbours))
            for p in state.ports
        }

    # --- the Protocol ---------------------------------------------------------------------------

    def prompt(self) -> str:
        host = self.state.name
        if self.mode == "exec":
            return f"{host}#"
        if self.mode == "config":
            return f"{host}(config)#"
        return f"{host}({self.interface_mode_name()})#"

    def execute(self, line: str) -> str:
        text = line.rstrip()
        found = words_of(text)
        words = [w for w, _ in found]
        if not words or words[0].startswith("!"):
            return ""  # a comment line: every one of the three CLIs ignores it
        prompt = self.prompt()
        offset = 0
        modes: list[list[Rule]] = [self.rules(self.mode)]
        if self.mode != "exec" and words[0].lower() == "do" and len(words) > 1:
            # `do CMD`: an exec command from configuration mode, which stays as it is.
            offset, modes = 1, [self.rules("exec")]
        elif self.mode == "config-if":
            # A global command typed in a submode runs in global configuration (and leaves the submode).
            modes.append(self.rules("config"))
        parsed = parse(modes[0], words[offset:])
        saved = (self.mode, self.targets)
        if parsed.rule is None and len(modes) > 1:
            fallback = parse(modes[1], words)
            if fallback.rule is not None:
                self.mode, self.targets = "config", []
                parsed = fallback
        if parsed.rule is None:
            if parsed.incomplete:
                return self.incomplete_text(prompt, text)
            return self.invalid_text(prompt, found, parsed.failed_at + offset)
        try:
            answer = parsed.rule.handler(parsed.args)
        except BadWord as bad:
            self.mode, self.targets = saved
            return self.invalid_text(prompt, found, bad.index + offset)
        except Reject as rejected:
            self.mode, self.targets = saved
            return rejected.text if rejected.text.endswith("\n") else rejected.text + "\n"
        if offset and self.mode == "exec":
            self.mode, self.targets = saved  # `do configure terminal` changes nothing
        return answer + "\n" if answer and not answer.endswith("\n") else answer

    def show_command(self, line: str) -> str | None:
        """The show command `line` asks for, if this mode takes one (IOS: `show` in exec mode, `do
        show` in configuration; NX-OS and EOS: `show` anywhere, `do show` too), else None. For the
        switch that routes show commands to its renderer."""
        words = line.split()
        if self.mode != "exec" and words[:1] == ["do"]:
            words = words[1:]
        elif self.mode != "exec" and not self.show_in_config:
            return None
        return " ".join(words) if words[:1] == ["show"] else None

    show_in_config: ClassVar[bool] = True

    # --- texts ----------------------------------------------------------------------------------

    def invalid_text(self, prompt: str, found: list[tuple[str, int]], index: int) -> str:
        index = min(index, len(found) - 1)
        word, column = found[index]
        caret = " " * (len(prompt) + column) + "^"
        return self.invalid.format(caret=caret, word=word, index=index)

    def incomplete_text(self, prompt: str, line: str) -> str:
        caret = " " * (len(prompt) + len(line) + 1) + "^"
        return self.incomplete.format(caret=caret)

    def interface_mode_name(self) -> str:
        return "config-if-range" if len(self.targets) > 1 else "config-if"

    # --- rules ----------------------------------------------------------------------------------

    def rules(self, mode: Mode) -> list[Rule]:
        if mode == "exec":
            return self.exec_rules()
        if mode == "config":
            return self.config_rules()
        return self.interface_rules()

    def exec_rules(self) -> list[Rule]:
        raise NotImplementedError

    def config_rules(self) -> list[Rule]:
        raise NotImplementedError

    def interface_rules(self) -> list[Rule]:
        raise NotImplementedError

    # Handlers shared by the three dialects ------------------------------------------------------

    def configure(self, _: Args) -> str:
        self.mode = "config"
        return self.enter_config

    def end(self, _: Args) -> str:
        self.mode = "exec"
        self.targets = []
        return ""

    def exit(self, _: Args) -> str:
        if self.mode == "config-if":
            self.mode = "config"
            self.targets = []
        else:
            self.mode = "exec"
        return ""

    def interface(self, args: Args) -> str:
        """`interface NAME` (each dialect may allow a list or range in NAME)."""
        targets = self.resolve_list(str(args[0]), 1)
        created = [t.channel for t in targets if t.channel is not None and self.channel(t.channel) is None]
        for name in created:
            assert name is not None
            self.add_channel(self.new_channel(name, None))
        self.targets = targets
        self.target_label = str(args[0])
        self.mode = "config-if"
        return ""

    # --- names ----------------------------------------------------------------------------------

    def resolve_list(self, text: str, index: int) -> list[_Target]:
        return [self.resolve(text, index)]

    def resolve(self, text: str, index: int) -> _Target:
        """An interface of this switch by any spelling the platform takes; BadWord(index) if none."""
        canonical = names.interface(text)
        match = re.fullmatch(r"([A-Za-z-]+)(\d+(?:/\d+)*)", canonical)
        if match is None:
            raise BadWord(index)
        kind, number = match.groups()
        if kind == "Port-channel":
            if "/" in number or not self.channel_numbers[0] <= int(number) <= self.channel_numbers[1]:
                raise BadWord(index)
            return _Target(channel=self.spec.channel_interface.format(int(number)))
        if kind not in self.physical:
            raise BadWord(index)
        port = self.port(canonical)
        if port is None:
            return self.missing_port(canonical, index)
        return _Target(port=port)

    def missing_port(self, name: str, index: int) -> _Target:
        raise BadWord(index)

    def port(self, name: str) -> SwitchPort | None:
        key = names.interface_key(name)
        return next((p for p in self.state.ports if names.interface_key(p.name) == key), None)

    def channel(self, name: str) -> PortChannel | None:
        key = names.interface_key(name)
        return next((c for c in self.state.port_channels if names.interface_key(c.name) == key), None)

    def channel_name(self, number: int) -> str:
        return self.spec.channel_interface.format(number)

    def short(self, name: str) -> str:
        from hostlint.fixes.spelling import short_interface

        return short_interface(name, self.platform)

    # --- the model's bookkeeping ----------------------------------------------------------------

    def new_channel(self, name: str, first: SwitchPort | None) -> PortChannel:
        """A port-channel interface as the platform creates it: by `interface port-channelN` (first
        None: the default configuration) or by a port's `channel-group` (first: that port)."""
        return PortChannel(name=name, status="down", mtu=1500)

    def add_channel(self, channel: PortChannel) -> None:
        """Into the list in channel-number order, where `show` lists it."""
        numbers = [_number(c.name) for c in self.state.port_channels]
        self.state.port_channels.insert(bisect.bisect(numbers, _number(channel.name)), channel)

    def member_state(self, port: SwitchPort, mode: ChannelMode) -> MemberState | None:
        """What a member of a channel in `mode` becomes: LACP needs an LACP partner (lacp_partners)."""
        if port.status is None:
            return None
        if port.status != "up":
            return "down"
        if mode == "static":
            return "bundled"
        if mode == "pagp":
            return "individual"  # no host speaks PAgP: silent mode leaves the port stand-alone (IOS-L2)
        if names.interface_key(port.name) in self.lacp_partners:
            return "bundled"
        return self.spec.unanswered_lacp_member

    def channel_status(self, channel: PortChannel) -> None:
        """Up while at least one member is bundled (NX-INT, "Port Channels"; IOS-L2; EOS)."""
        states = [p.member_state for p in self.state.ports if p.name in channel.members]
        channel.status = "up" if "bundled" in states else "down"

    def order(self, members: list[str]) -> list[str]:
        position = {p.name: i for i, p in enumerate(self.state.ports)}
        return sorted(members, key=lambda m: position.get(m, len(position)))

    def join(self, port: SwitchPort, number: int, mode: ChannelMode) -> None:
        name = self.channel_name(number)
        channel = self.channel(name)
        if channel is None:
            channel = self.new_channel(name, port)
            self.add_channel(channel)
        if not channel.members:
            channel.mode = mode
        channel.members = self.order([*channel.members, port.name])
        port.port_channel = channel.name
        self.member_modes[names.interface_key(port.name)] = mode
        port.member_state = self.member_state(port, mode)
        if port.member_state not in (None, "down") and self.incompatible(port, channel):
            port.member_state = "suspended"
        self.channel_status(channel)

    # Compared when a port joins a channel: a member whose (known) value differs is suspended (IOS-L2
    # "EtherChannel Configuration Guidelines", %EC-5-CANNOT_BUNDLE2 "... will be suspended"; NX-INT
    # "Compatibility Requirements": "the software suspends that port in the port channel").
    compatibility: ClassVar[tuple[tuple[str, str], ...]] = (
        ("mode", "switchport"),
        ("access_vlan", "access_vlan"),
        ("native_vlan", "native_vlan"),
        ("allowed_vlans", "allowed_vlans"),
    )

    def incompatible(self, port: SwitchPort, channel: PortChannel) -> bool:
        for port_field, channel_field in self.compatibility:
            mine, theirs = getattr(port, port_field), getattr(channel, channel_field)
            if mine is not None and theirs is not None and mine != theirs:
                return True
        return False

    def leave(self, port: SwitchPort) -> None:
        channel = self.channel(port.port_channel) if port.port_channel else None
        port.port_channel = None
        port.member_state = None
        self.member_modes.pop(names.interface_key(port.name), None)
        if channel is not None:
            channel.members = [m for m in channel.members if names.interface_key(m) != names.interface_key(port.name)]
            if not channel.members:
                channel.mode = None
            self.channel_status(channel)

    def check_join(self, port: SwitchPort, number: int, mode: ChannelMode) -> None:
        """Reject a member whose mode or layer does not fit the channel's other members."""
        channel = self.channel(self.channel_name(number))
        if channel is None:
            return
        others = [m for m in channel.members if names.interface_key(m) != names.interface_key(port.name)]
        if not others:
            return
        family = _family(channel.mode)
        if family is not None and family != _family(mode):
            raise Reject(self.mode_mismatch(port, channel))
        layers = (channel.switchport, port.mode)
        if None not in layers and (layers[0] == "routed") != (layers[1] == "routed"):
            raise Reject(self.layer_mismatch(port, channel))

    def mode_mismatch(self, port: SwitchPort, channel: PortChannel) -> str:
        raise NotImplementedError

    def layer_mismatch(self, port: SwitchPort, channel: PortChannel) -> str:
        raise NotImplementedError

    # --- interface handlers -----------------------------------------------------------------

    def ports_only(self, keyword_index: int = 0) -> list[SwitchPort]:
        """The ports under configuration; a port-channel among them makes the command invalid there."""
        if any(t.channel is not None for t in self.targets):
            raise BadWord(keyword_index)
        return [t.port for t in self.targets if t.port is not None]

    def channel_group(self, number: int, mode: ChannelMode) -> str:
        ports = self.ports_only()
        for port in ports:
            self.check_join(port, number, mode)
        for port in ports:
            if port.port_channel is not None:
                self.leave(port)
            self.join(port, number, mode)
        return ""

    def no_channel_group(self, _: Args) -> str:
        for port in self.ports_only(1):
            if port.port_channel is not None:
                self.leave(port)
        return ""

    def no_interface(self, args: Args) -> str:
        target = self.resolve(str(args[0]), 2)
        if target.channel is None:
            raise BadWord(2)  # a physical interface cannot be deleted
        channel = self.channel(target.channel)
        if channel is None:
            return self.no_such_channel(target.channel)
        # Deleting a channel takes its members out as `no channel-group` would (NX-INT "Compatibility
        # Requirements", note; IOS-L2; EOS).
        for port in [p for p in self.state.ports if p.name in channel.members]:
            self.leave(port)
        self.state.port_channels.remove(channel)
        return ""

    def no_such_channel(self, name: str) -> str:
        raise NotImplementedError

    def set_mtu(self, value: int | None) -> str:
        mtu = 1500 if value is None else value
        for target in self.targets:
            self.check_mtu(target, mtu)
        for target in self.targets:
            if target.port is not None:
                target.port.mtu = mtu
            elif target.channel is not None and (channel := self.channel(target.channel)) is not None:
                channel.mtu = mtu
                if self.mtu_follows_channel:
                    for port in self.state.ports:
                        if port.name in channel.members:
                            port.mtu = mtu
        return ""

    mtu_follows_channel: ClassVar[bool] = False

    def check_mtu(self, target: _Target, mtu: int) -> None:
        """Platform checks beyond the parser's range."""

    def set_shutdown(self, shut: bool) -> str:
        for target in self.targets:
            if target.port is not None:
                port = target.port
                up = self.link_up.get(names.interface_key(port.name), False)
                port.status = "disabled" if shut else ("up" if up else "down")
                if port.port_channel is not None:
                    mode = self.member_modes.get(names.interface_key(port.name))
                    if mode is not None:
                        port.member_state = self.member_state(port, mode)
                    channel = self.channel(port.port_channel)
                    if channel is not None:
                        self.channel_status(channel)
            elif target.channel is not None and (channel := self.channel(target.channel)) is not None:
                if shut:
                    channel.status = "down"
                    for port in self.state.ports:
                        if port.name in channel.members:
                            port.member_state = "down"
                else:
                    for port in self.state.ports:
                        mode = self.member_modes.get(names.interface_key(port.name))
                        if port.name in channel.members and mode is not None:
                            port.member_state = self.member_state(port, mode)
                    self.channel_status(channel)
        return ""

    def set_speed(self, speed: int | None, duplex: str | None, touch_duplex: bool) -> str:
        """A forced speed (and duplex) bounces the link at that speed; auto keeps what the link ran at
        (the far end decides, which the switch cannot know). A speed this model was never shown stays
        unknown."""
        for port in self.ports_only():
            port.configured_speed_mbps = speed
            if speed is not None and port.speed_mbps is not None:
                port.speed_mbps = speed
            if touch_duplex:
                self.apply_duplex(port, duplex)
        return ""

    def apply_duplex(self, port: SwitchPort, duplex: str | None) -> None:
        port.configured_duplex = normalise.duplex(duplex) if duplex else None
        if port.configured_duplex is not None and port.duplex is not None:
            port.duplex = port.configured_duplex

    def duplex_rule(self, args: Args) -> str:
        return self.set_duplex(None if args[0] == "auto" else str(args[0]))

    def set_duplex(self, duplex: str | None) -> str:
        for port in self.ports_only():
            self.apply_duplex(port, duplex)
        return ""

    def set_description(self, text: str | None) -> str:
        for target in self.targets:
            if target.port is not None:
                target.port.description = text
        return ""

    # Switchport (VLANs): a port-channel's lines go to the channel (and, where the platform copies them,
    # to its members); a member's own lines where the platform takes them.
    vlans_follow_channel: ClassVar[bool] = True

    def check_switchport(self, port: SwitchPort) -> None:
        """A member port refusing switchport lines of its own, where the platform does."""

    def switchport(self, change: dict[str, object], allowed: str | None = None) -> str:
        for target in self.targets:
            if target.port is not None and target.port.port_channel is not None:
                self.check_switchport(target.port)
        for target in self.targets:
            if target.port is not None:
                _set_vlans(target.port, change, allowed, is_port=True)
            elif target.channel is not None and (channel := self.channel(target.channel)) is not None:
                _set_vlans(channel, change, allowed, is_port=False)
                if self.vlans_follow_channel:
                    for port in self.state.ports:
                        if port.name in channel.members:
                            _set_vlans(port, change, allowed, is_port=True)
        return ""

    def trunk_allowed(self, verb: str | None, listed: str) -> str:
        """`switchport trunk allowed vlan [add|remove|except] LIST` (LIST: `10,20-30`, `all`, `none`)."""
        try:
            vlans.parse_list(listed)
        except ValueError:
            raise BadWord(5 if verb else 4) from None
        if verb and listed.lower() in ("all", "none") and verb != "except":
            raise BadWord(5)
        return self.switchport({}, allowed=f"{verb} {listed}" if verb else listed)

    def interface_list(self, text: str, index: int) -> list[_Target]:
        """`Ethernet1/1-2, Ethernet1/5` (NX-OS), `Ethernet1-2,5` (EOS), `Gi1/0/1 - 2` (IOS `range`):
        every interface named, each resolved."""
        flat = re.sub(r"\s*([,-])\s*", r"\1", text.strip())
        flat = re.sub(r"([A-Za-z])\s+(\d)", r"\1\2", flat)
        if re.search(r"\s", flat) or not flat:
            raise BadWord(index)
        targets: list[_Target] = []
        kind = ""
        for item in flat.split(","):
            if item[:1].isdigit():
                item = kind + item  # EOS `Ethernet1,3`: a bare number continues the previous name
            parts = re.fullmatch(r"(.*?)(\d+)(?:-(\d+))?", item)
            if parts is None:
                raise BadWord(index)
            head, low = parts.group(1), int(parts.group(2))
            high = int(parts.group(3)) if parts.group(3) else low
            if low > high:
                raise BadWord(index)
            targets += [self.resolve(f"{head}{n}", index) for n in range(low, high + 1)]
            kind = head
        return targets


def _number(name: str) -> int:
    found = re.search(r"(\d+)$", name)
    return int(found.group(1)) if found else 0


def _set_vlans(item: SwitchPort | PortChannel, change: dict[str, object], allowed: str | None, is_port: bool) -> None:
    for field, value in change.items():
        if field == "mode":
            if is_port:
                assert isinstance(item, SwitchPort)
                item.mode = value  # type: ignore[assignment]
            else:
                assert isinstance(item, PortChannel)
                item.switchport = value  # type: ignore[assignment]
        else:
            setattr(item, field, value)
    if allowed is not None:
        verb = allowed.split()[0].lower()
        if verb in ("add", "remove"):
            # Added to or taken from a list this emulator was never shown: still unknown.
            if item.allowed_vlans is not None:
                current = list(item.allowed_vlans)
                changed = vlans.apply_commands([vlans.text(current), allowed])
                item.allowed_vlans = changed
        else:
            item.allowed_vlans = vlans.apply_commands([allowed])


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
        ]

    def interface_range(self, args: Args) -> str:
        self.targets = self.interface_list(str(args[0]), 2)
        self.target_label = str(args[0])
        self.mode = "config-if"
        return ""

    def load_balance(self, args: Args) -> str:
        return self.set_hash(str(args[0]))

    def set_hash(self, keyword: str) -> str:
        self.state.load_balance = LoadBalance(hash=normalise.ios_hash(keyword), raw=keyword)
        return ""

    def new_channel(self, name: str, first: SwitchPort | None) -> PortChannel:
        # Created by `interface port-channel`: a Layer 2 access port in VLAN 1; its MTU is the
        # system MTU, which this model does not hold. Created by a port's `channel-group`: it takes
        # that port's Layer 2 configuration (IOS-L2, "Layer 2 EtherChannel Configuration Guidelines").
        if first is None:
            return PortChannel(name=name, switchport="access", access_vlan=1, status="down")
        return _inherit(name, first)

    def mode_mismatch(self, port: SwitchPort, channel: PortChannel) -> str:
        return (
            f"Command rejected (Channel protocol mismatch for interface {self.short(port.name)} in group "
            f"{_number(channel.name)}): the interface can not be added to the channel group"
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
        self.state.load_balance = LoadBalance(hash=normalise.nxos_hash(raw), raw=raw)
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

    def check_mtu(self, target: _Target, mtu: int) -> None:
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
            Rule("speed auto", lambda _: self.set_speed(None, None, True), "EOS Ethernet Ports: speed auto"),
            Rule(f"speed [forced] {{{_EOS_SPEEDS}}}", lambda a: self.eos_speed(str(a[1])), "EOS Ethernet Ports: speed"),
            Rule("no speed", lambda _: self.set_speed(None, None, True), "EOS speed"),
            Rule("mlag <1-2000>", lambda a: self.set_mlag(a[0], 1), "EOS Multi-Chassis Link Aggregation: mlag"),
            Rule("no mlag", lambda _: self.set_mlag(None, 1), "EOS no mlag"),
            Rule("no mlag <1-2000>", lambda _: self.set_mlag(None, 1), "EOS no mlag"),
            *_common_interface_rules(self, "EOS Ethernet Ports", "EOS Switchport", 4094),
        ]

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

    def missing_port(self, name: str, index: int) -> _Target:
        # EOS takes configuration for an interface it does not have (a module not inserted): the
        # mode is entered with a warning, and what is typed there changes nothing this model holds.
        return _Target()

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


def _inherit(name: str, first: SwitchPort) -> PortChannel:
    """A port-channel created by its first member's `channel-group`, with that port's Layer 2 config."""
    return PortChannel(
        name=name,
        switchport=first.mode,
        access_vlan=first.access_vlan,
        native_vlan=first.native_vlan,
        allowed_vlans=None if first.allowed_vlans is None else list(first.allowed_vlans),
        mtu=first.mtu,
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
