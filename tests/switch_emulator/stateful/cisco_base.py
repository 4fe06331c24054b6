"""The machinery the IOS, NX-OS and EOS sessions share (tests/switch_emulator/platforms/cisco_ios.py,
cisco_nxos.py, arista_eos.py: each platform's `SESSION`): modes,
parsing a line against a mode's rules, the platform's error texts, and the bookkeeping that keeps
hostlint's Switch model consistent (channel membership, member states, MTU, switchport lines).

The references cited here by short name (IOS-L2, NX-INT, EOS...) are listed in those modules."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import ClassVar, Literal

from hostlint import names, vlans
from hostlint import platforms as registry
from hostlint.collect.switches import normalise
from hostlint.snapshot.switch import ChannelMode, MemberState, PortChannel, Switch, SwitchPort
from switch_emulator.stateful.cli import Args, BadWord, Reject, Rule, parse, words_of
from switch_emulator.stateful.render_global_mtu import switch_wide_l2_mtu

Mode = Literal["exec", "config", "config-if"]


@dataclass
class Target:
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
        self.targets: list[Target] = []
        self.target_label = ""
        self.spec = registry.switch(self.platform)
        # Each member's own channel-group mode (a channel shows one; its members may differ in LACP role).
        self.member_modes: dict[str, ChannelMode] = {}
        for channel in state.port_channels:
            for member in channel.members:
                if channel.mode is not None:
                    self.member_modes[names.interface_key(member)] = channel.mode
        # Switchport lines the current mode does not show, per interface; interfaces created here.
        self.stash: dict[str, dict[str, object]] = {}
        self.created: set[str] = set()
        self.removed_at: dict[str, int] = {}
        # Lines no field models (OPAQUE), kept verbatim per interface in the state's `config_lines` (the
        # emulator holds only those there; the renderer shows them after the modelled lines, so a
        # collector reads the whole stanza back): a lab's stanza keeps its unmodelled lines.
        for item in (*state.ports, *state.port_channels):
            if item.config_lines is not None:
                kept = [line for line in item.config_lines if self.opaque_key(line) is not None]
                if isinstance(item, SwitchPort):  # a port's description is a field of the model
                    kept = [line for line in kept if self.opaque_key(line) != "description"]
                item.config_lines = kept or None
        self.line = ""
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
        self.line = " ".join(words)
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

    def resolve_list(self, text: str, index: int) -> list[Target]:
        return [self.resolve(text, index)]

    def resolve(self, text: str, index: int) -> Target:
        """An interface of this switch by any spelling the platform takes; BadWord(index) if none."""
        canonical = names.interface(text)
        match = re.fullmatch(r"([A-Za-z-]+)(\d+(?:/\d+)*)", canonical)
        if match is None:
            raise BadWord(index)
        kind, number = match.groups()
        if kind == "Port-channel":
            if "/" in number or not self.channel_numbers[0] <= int(number) <= self.channel_numbers[1]:
                raise BadWord(index)
            return Target(channel=self.spec.channel_interface.format(int(number)))
        if kind not in self.physical:
            raise BadWord(index)
        port = self.port(canonical)
        if port is None:
            return self.missing_port(canonical, index)
        return Target(port=port)

    def missing_port(self, name: str, index: int) -> Target:
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
        key = names.interface_key(channel.name)
        self.created.add(key)
        if channel.l2_mtu is None:
            channel.l2_mtu = switch_wide_l2_mtu(self.state)
        if key in self.removed_at:  # created again: where it was (the order the lab's `show` gave)
            self.state.port_channels.insert(self.removed_at.pop(key), channel)
            return
        numbers = [channel_number(c.name) for c in self.state.port_channels]
        self.state.port_channels.insert(bisect.bisect(numbers, channel_number(channel.name)), channel)

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
            if channel.switchport != "access" or channel.access_vlan != 1:
                self.created.discard(names.interface_key(name))  # it took the port's lines, known or not
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
        self.removed_at[names.interface_key(channel.name)] = self.state.port_channels.index(channel)
        self.state.port_channels.remove(channel)
        self.stash.pop(names.interface_key(channel.name), None)
        self.created.discard(names.interface_key(channel.name))
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

    def check_mtu(self, target: Target, mtu: int) -> None:
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
            elif target.channel is not None and (channel := self.channel(target.channel)) is not None:
                # A channel's description is no field of hostlint's model: kept as its line.
                self.keep(channel, "description", f"description {text}" if text is not None else None)
        return ""

    # Interface lines no field of the model holds, per dialect: (keyword, pattern, vendor reference). The
    # line is kept as typed (words single-spaced, as the running configuration shows them); the same
    # keyword again replaces it, `no KEYWORD ...` removes it. Longest keyword first wins.
    opaque: ClassVar[tuple[tuple[str, str, str], ...]] = ()

    def opaque_key(self, line: str) -> str | None:
        keys = [key for key, _, _ in self.opaque if line == key or line.startswith(key + " ")]
        if line == "description" or line.startswith("description "):
            keys.append("description")
        return max(keys, key=len) if keys else None

    def opaque_rules(self) -> list[Rule]:
        rules = []
        for key, pattern, cite in self.opaque:
            rules.append(Rule(pattern, lambda _, key=key: self.keep_line(key, self.line), cite))
            rules.append(Rule(f"no {key}", lambda _, key=key: self.keep_line(key, None), cite))
            rules.append(Rule(f"no {key} <text>", lambda _, key=key: self.keep_line(key, None), cite))
        return rules

    def keep_line(self, key: str, line: str | None) -> str:
        for target in self.targets:
            item = target.port if target.port is not None else self.channel(target.channel or "")
            if item is not None:
                self.keep(item, key, line)
        return ""

    def keep(self, item: SwitchPort | PortChannel, key: str, line: str | None) -> None:
        kept = list(item.config_lines or [])
        at = next((i for i, old in enumerate(kept) if self.opaque_key(old) == key), None)
        if at is not None:
            kept.pop(at)
        if line is not None:
            kept.insert(len(kept) if at is None else at, line)
        item.config_lines = kept or None
        self.after_opaque(item)

    def after_opaque(self, item: SwitchPort | PortChannel) -> None:
        """What a kept line changes in the modelled state (EOS LACP fallback); nothing by default."""

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
                self.set_vlans(target.port, change, allowed)
            elif target.channel is not None and (channel := self.channel(target.channel)) is not None:
                self.set_vlans(channel, change, allowed)
                if self.vlans_follow_channel:
                    for port in self.state.ports:
                        if port.name in channel.members:
                            self.set_vlans(port, change, allowed)
        return ""

    # What `show` gives for each switchport mode: an access port its access VLAN, a trunk its native
    # VLAN and allowed list (hostlint.snapshot.switch.SwitchPort). Lines of the other mode are kept
    # (`stash`) and shown again when the mode comes back.
    _SHOWN: ClassVar[dict[str, tuple[str, ...]]] = {
        "access": ("access_vlan",),
        "trunk": ("native_vlan", "allowed_vlans"),
        "routed": (),
    }
    _DEFAULTS: ClassVar[dict[str, object]] = {"access_vlan": 1, "native_vlan": 1, "allowed_vlans": vlans.ALL}

    def set_vlans(self, item: SwitchPort | PortChannel, change: dict[str, object], allowed: str | None) -> None:
        key = names.interface_key(item.name)
        stash = self.stash.setdefault(key, {})
        mode_field = "mode" if isinstance(item, SwitchPort) else "switchport"
        fields = ("access_vlan", "native_vlan", "allowed_vlans")
        for field, value in change.items():
            if field == "mode":
                if getattr(item, mode_field) != value:
                    setattr(item, mode_field, value)
                    self.show_for_mode(item, key, str(value))
                continue
            self.put(item, stash, field, value)
        if allowed is not None:
            mode = getattr(item, mode_field)
            shown = mode is None or "allowed_vlans" in self._SHOWN.get(str(mode), fields)
            current = item.allowed_vlans if shown else stash.get("allowed_vlans")
            if allowed.split()[0].lower() in ("add", "remove"):
                # Added to or taken from a list this emulator was never shown: still unknown.
                if current is not None:
                    assert isinstance(current, list)
                    self.put(item, stash, "allowed_vlans", vlans.apply_commands([vlans.text(current), allowed]))
            else:
                self.put(item, stash, "allowed_vlans", vlans.apply_commands([allowed]))

    def put(self, item: SwitchPort | PortChannel, stash: dict[str, object], field: str, value: object) -> None:
        """Set a switchport field: shown if the interface's mode shows it (or the mode is unknown),
        else kept for when the mode does."""
        mode = item.mode if isinstance(item, SwitchPort) else item.switchport
        if mode is None or field in self._SHOWN[mode]:
            setattr(item, field, value)
        else:
            stash[field] = value

    def show_for_mode(self, item: SwitchPort | PortChannel, key: str, mode: str) -> None:
        stash = self.stash.setdefault(key, {})
        for field in ("access_vlan", "native_vlan", "allowed_vlans"):
            value = getattr(item, field)
            if field not in self._SHOWN[mode]:
                if value is not None:
                    stash[field] = value
                setattr(item, field, None)
            elif value is None:
                if field in stash:
                    setattr(item, field, stash.pop(field))
                elif key in self.created:
                    # An interface this session created: its configuration is known, defaults included.
                    default = self._DEFAULTS[field]
                    setattr(item, field, list(default) if isinstance(default, list) else default)

    def trunk_allowed(self, verb: str | None, listed: str) -> str:
        """`switchport trunk allowed vlan [add|remove|except] LIST` (LIST: `10,20-30`, `all`, `none`)."""
        try:
            vlans.parse_list(listed)
        except ValueError:
            raise BadWord(5 if verb else 4) from None
        if verb and listed.lower() in ("all", "none") and verb != "except":
            raise BadWord(5)
        return self.switchport({}, allowed=f"{verb} {listed}" if verb else listed)

    def interface_list(self, text: str, index: int) -> list[Target]:
        """`Ethernet1/1-2, Ethernet1/5` (NX-OS), `Ethernet1-2,5` (EOS), `Gi1/0/1 - 2` (IOS `range`):
        every interface named, each resolved."""
        flat = re.sub(r"\s*([,-])\s*", r"\1", text.strip())
        flat = re.sub(r"([A-Za-z])\s+(\d)", r"\1\2", flat)
        if re.search(r"\s", flat) or not flat:
            raise BadWord(index)
        targets: list[Target] = []
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


def channel_number(name: str) -> int:
    found = re.search(r"(\d+)$", name)
    return int(found.group(1)) if found else 0


def inherit(name: str, first: SwitchPort) -> PortChannel:
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


def common_interface_rules(session: CiscoLikeSession, basic: str, layer2: str, last_vlan: int) -> list[Rule]:
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
