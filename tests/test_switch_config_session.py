"""The stateful configuration sessions for IOS, NX-OS and EOS (tests/switch_emulator/platforms/cisco_ios.py,
cisco_nxos.py and arista_eos.py, on switch_emulator.stateful.cisco_base).

Every fix script hostlint writes for these platforms (every lab under fixtures/labs, and the
synthetic per-platform sites of tests/support/fix_sites.py and tests/support/kvm_sites.py) is pasted line by
line, change then rollback, into a session over a copy of the switch: each line must be accepted,
and after the rollback the switch must equal what it was. Then what the real devices refuse.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.fix_sites import findings_for, site
from support.kvm_sites import kvm_site, lab_result
from switch_emulator.stateful import RENDERERS
from switch_emulator.stateful import SESSIONS as ALL_SESSIONS
from switch_emulator.stateful.cisco_base import CiscoLikeSession

from hostlint.check import check_snapshot
from hostlint.fixes import write_scripts
from hostlint.join import build_facts
from hostlint.results import CheckResult
from hostlint.rules import load_rules
from hostlint.snapshot import Snapshot, load_site
from hostlint.snapshot.switch import PortChannel, Switch, SwitchPort

ROOT = Path(__file__).resolve().parent.parent
# Labs whose switch plan the emulators show to be wrong; strict, so fixing one fails here until listed off.
KNOWN_BAD: dict[str, str] = {}
LABS = [
    pytest.param(name, marks=pytest.mark.xfail(strict=True, raises=AssertionError, reason=KNOWN_BAD[name]))
    if name in KNOWN_BAD
    else name
    for name in sorted(p.name for p in (ROOT / "fixtures" / "labs").iterdir() if (p / "switches.json").is_file())
]
# The Cisco-like sessions: those built on the shared CiscoLikeSession machinery.
SESSIONS: dict[str, type[CiscoLikeSession]] = {
    name: session
    for name, session in ALL_SESSIONS.items()
    if isinstance(session, type) and issubclass(session, CiscoLikeSession)
}
PLATFORMS = sorted(SESSIONS)


def lacp_partners(snapshot: Snapshot, switch: Switch) -> frozenset[str]:
    """Ports whose far end speaks LACP: members an LACP channel shows bundled, and ports cabled to a
    KVM bond in 802.3ad mode."""
    bundled = {
        p.name
        for p in switch.ports
        for c in switch.port_channels
        if p.name in c.members and c.mode in ("lacp-active", "lacp-passive") and p.member_state == "bundled"
    }
    facts = build_facts(snapshot)
    lacp_bonds = {b.object for b in facts.bonds if b.policy == "802.3ad"}
    cabled = {u.port for u in facts.uplinks if u.team in lacp_bonds and u.switch == switch.name and u.port is not None}
    return frozenset(bundled | cabled)


def made_whole(switch: Switch) -> Switch:
    """The switch as the device would show it where a lab or synthetic site left a channel's own
    lines unread: a channel is up while a member is bundled, down when none is; on IOS and NX-OS a
    channel's switchport configuration and MTU equal its members' (the compatibility check suspends
    anything else), so a channel created again by `channel-group` shows them, and a member whose lines
    were not read has the channel's. Fields the lab did read are kept as they are."""
    whole = switch.model_copy(deep=True)
    ports = {p.name: p for p in whole.ports}
    for channel in whole.port_channels:
        members = [ports[m] for m in channel.members if m in ports]
        states = [m.member_state for m in members]
        if channel.status is None and members and None not in states:
            channel.status = "up" if "bundled" in states else "down"
        if whole.platform == "arista_eos":
            # An EOS member's own lines are its own: a trunk member whose VLANs were not read shows
            # what a trunk without VLAN lines carries (all VLANs, native VLAN 1).
            for member in members:
                if member.mode == "trunk" and member.native_vlan is None and member.allowed_vlans is None:
                    member.native_vlan, member.allowed_vlans = 1, [(1, 4094)]
            continue
        if not members:
            continue
        if channel.switchport is None:
            channel.switchport = members[0].mode
        for field in ("access_vlan", "native_vlan", "allowed_vlans", "mtu"):
            if getattr(channel, field) is None:
                setattr(channel, field, getattr(members[0], field))
            # ... and the members' own lines, where the lab read only the channel's.
            for member in members:
                if getattr(member, field) is None:
                    setattr(member, field, getattr(channel, field))
    return whole


def paste(session: CiscoLikeSession, script: str) -> list[tuple[str, str]]:
    """Every line of a fix script as an engineer pastes it; the (line, answer) of each one refused."""
    refused = []
    acknowledgements = {"", session.enter_config}
    for line in script.splitlines():
        answer = session.execute(line)
        if answer.strip() not in acknowledgements:
            refused.append((line, answer))
    return refused


def _scripts(result: CheckResult, snapshot: Snapshot, tmp_path: Path) -> dict[str, tuple[str, str, Switch]]:
    """switch name -> (change script, rollback script, switch) for the IOS, NX-OS and EOS switches."""
    write_scripts(result, snapshot, tmp_path)
    scripts = {}
    for switch in snapshot.switches:
        if switch.platform not in SESSIONS:
            continue
        change = tmp_path / f"{switch.name}.{switch.platform}.txt"
        rollback = tmp_path / f"{switch.name}.rollback.{switch.platform}.txt"
        if change.is_file():
            scripts[switch.name] = (change.read_text(encoding="utf-8"), rollback.read_text(encoding="utf-8"), switch)
    return scripts


def rehearse(result: CheckResult, snapshot: Snapshot, tmp_path: Path) -> int:
    """Paste each switch's change then rollback script; returns the number of switches rehearsed."""
    scripts = _scripts(result, snapshot, tmp_path)
    for name, (change, rollback, switch) in scripts.items():
        state = made_whole(switch)
        session = SESSIONS[switch.platform](state, lacp_partners(snapshot, switch))
        # The switch as the session holds it (EOS derives each port's L2 MTU from its frame and mode).
        original = state.model_copy(deep=True)
        configured = RENDERERS[switch.platform](state, "show running-config")
        assert paste(session, change) == [], f"{name}: change refused"
        assert session.mode == "exec", f"{name}: change script leaves configuration mode open"
        assert state != original or "! REVIEW" in change, f"{name}: the change changed nothing"
        assert paste(session, rollback) == [], f"{name}: rollback refused"
        assert _differences(state, original) == [], f"{name}: rollback does not restore the switch"
        # Line for line, the lines no field models (kept by the session as typed) included.
        assert RENDERERS[switch.platform](state, "show running-config") == configured, f"{name}: running-config"
    return len(scripts)


def _steps(script: str) -> dict[int, str]:
    """Step number -> its block (comments, configure terminal ... end) in a switch fix script."""
    bodies = re.finditer(r"^! (?:Undo step|Step) (\d+) of .*?^! end of step \1$", script, flags=re.M | re.S)
    found = {int(m.group(1)): m.group(0) for m in bodies}
    assert len(found) == script.count("! end of step "), "a step block without its end"
    return found


def rehearse_each_step(result: CheckResult, snapshot: Snapshot, tmp_path: Path) -> int:
    """Each step's undo, pasted right after the step, gives back the switch from before the step
    (earlier steps applied); returns the number of steps rehearsed."""
    count = 0
    for name, (change, rollback, switch) in _scripts(result, snapshot, tmp_path).items():
        undo = _steps(rollback)
        state = made_whole(switch)
        session = SESSIONS[switch.platform](state, lacp_partners(snapshot, switch))
        for number, block in _steps(change).items():
            before = state.model_copy(deep=True)
            assert paste(session, block) == [], f"{name} step {number} refused"
            after = state.model_copy(deep=True)
            assert paste(session, undo[number]) == [], f"{name} undo {number} refused"
            assert _differences(state, before) == [], f"{name}: undo {number} does not restore the switch"
            assert paste(session, block) == [] and state == after, f"{name} step {number} again differs"
            count += 1
    return count


def _differences(after: Switch, before: Switch) -> list[str]:
    found = [f"{p.name}: {a!r} != {b!r}" for p, a, b in _pairs(after.ports, before.ports) if a != b]
    found += [f"{c.name}: {a!r} != {b!r}" for c, a, b in _pairs(after.port_channels, before.port_channels) if a != b]
    if after.load_balance != before.load_balance:
        found.append(f"load_balance: {after.load_balance} != {before.load_balance}")
    if not found and after != before:
        found.append("switch differs")
    return found


def _pairs(
    after: list[SwitchPort] | list[PortChannel], before: list[SwitchPort] | list[PortChannel]
) -> list[tuple[SwitchPort | PortChannel, object, object]]:
    names = {i.name for i in after} | {i.name for i in before}
    a = {i.name: i for i in after}
    b = {i.name: i for i in before}
    return [(a.get(n) or b[n], a.get(n), b.get(n)) for n in sorted(names)]


# --- every script hostlint writes, pasted and rolled back -------------------------------------------


@pytest.mark.parametrize("lab", LABS)
def test_lab_scripts_are_accepted_and_roll_back(lab: str, tmp_path: Path) -> None:
    snapshot = load_site([ROOT / "fixtures" / "labs" / lab])
    result = check_snapshot(snapshot, load_rules())
    rehearse(result, snapshot, tmp_path)


@pytest.mark.parametrize("platform", PLATFORMS)
def test_synthetic_site_scripts_are_accepted_and_roll_back(platform: str, tmp_path: Path) -> None:
    snapshot = site(platform)
    assert rehearse(findings_for(snapshot), snapshot, tmp_path) >= 1


@pytest.mark.parametrize("lab", LABS)
def test_each_lab_step_is_undone_by_its_rollback_step(lab: str, tmp_path: Path) -> None:
    snapshot = load_site([ROOT / "fixtures" / "labs" / lab])
    rehearse_each_step(check_snapshot(snapshot, load_rules()), snapshot, tmp_path)


@pytest.mark.parametrize("platform", PLATFORMS)
def test_each_synthetic_step_is_undone_by_its_rollback_step(platform: str, tmp_path: Path) -> None:
    snapshot = site(platform)
    assert rehearse_each_step(findings_for(snapshot), snapshot, tmp_path) >= 5


@pytest.mark.parametrize("platform", PLATFORMS)
def test_kvm_site_lacp_scripts_are_accepted_and_roll_back(platform: str, tmp_path: Path) -> None:
    snapshot = kvm_site(platform)
    assert rehearse(lab_result(snapshot), snapshot, tmp_path) == 1


# --- what the real devices refuse -----------------------------------------------------------------


def _switch(platform: str) -> Switch:
    """sw1 of the synthetic site: ports 1, 2, 11 (and 12 on IOS) alone; 21+22 in LACP channel 20,
    31+32 in LACP channel 30, 49 in static channel 1; a vPC/MLAG pair on NX-OS and EOS."""
    return made_whole(site(platform).switches[0])


def _port(platform: str, number: int) -> str:
    return {"cisco_ios": "TenGigabitEthernet1/0/{}", "cisco_nxos": "Ethernet1/{}", "arista_eos": "Ethernet{}"}[
        platform
    ].format(number)


def _session(platform: str, partners: frozenset[str] = frozenset()) -> tuple[CiscoLikeSession, Switch]:
    state = _switch(platform)
    return SESSIONS[platform](state, partners), state


def _refused(platform: str, setup: list[str], line: str) -> str:
    """The answer to `line` after `setup`, asserting the switch did not change."""
    session, state = _session(platform)
    assert paste(session, "\n".join(setup)) == []
    before = state.model_copy(deep=True)
    answer = session.execute(line)
    assert state == before, f"{line!r} was refused but changed the switch"
    return answer


_IF = "configure terminal\ninterface {}"

# (platform, setup lines with {port} N placeholders, the line, what the platform answers)
REFUSALS: list[tuple[str, list[str], str, str]] = [
    # Unknown keyword and wrong mode: the parser's own text, the caret under the word.
    (
        "cisco_ios",
        ["configure terminal", "interface {11}"],
        " switchport trunk allowed vlan ad 100",
        " " * len("sw1(config-if)# switchport trunk allowed vlan ") + "^\n% Invalid input detected at '^' marker.\n",
    ),
    (
        "cisco_nxos",
        ["configure terminal", "interface {11}"],
        "  frobnicate",
        " " * len("sw1(config-if)#  ") + "^\n% Invalid command at '^' marker.\n",
    ),
    (
        "arista_eos",
        ["configure terminal", "interface {11}"],
        "   frobnicate",
        "% Invalid input (at token 0: 'frobnicate')\n",
    ),
    ("cisco_ios", [], "interface {11}", " " * len("sw1#") + "^\n% Invalid input detected at '^' marker.\n"),
    ("cisco_ios", ["configure terminal"], "channel-group 20 mode on", "% Invalid input detected at '^' marker."),
    ("arista_eos", ["configure terminal"], "mtu 9214", "% Invalid input (at token 0: 'mtu')\n"),
    ("cisco_ios", ["configure terminal", "interface {11}"], "channel-group 20", "% Incomplete command.\n"),
    ("arista_eos", ["configure terminal", "interface {11}"], "channel-group 20", "% Incomplete command\n"),
    ("cisco_nxos", ["configure terminal", "interface {11}"], "switchport trunk allowed vlan", "% Incomplete command"),
    # Out-of-range values: IOS per-port MTU 1500-9198, NX-OS 576-9216 (L2: 1500 or 9216), EOS 68-9214.
    ("cisco_ios", ["configure terminal", "interface {11}"], "mtu 9216", "% Invalid input detected at '^' marker."),
    ("cisco_ios", ["configure terminal", "interface {11}"], "mtu 1499", "% Invalid input detected at '^' marker."),
    ("cisco_nxos", ["configure terminal", "interface {11}"], "mtu 9217", "% Invalid command at '^' marker."),
    (
        "cisco_nxos",
        ["configure terminal", "interface {11}"],
        "mtu 9000",
        "ERROR: Ethernet1/11: MTU on L2 interfaces can only be set to default or system-jumboMTU\n",
    ),
    ("arista_eos", ["configure terminal", "interface {11}"], "mtu 9215", "% Invalid input (at token 1: '9215')\n"),
    ("arista_eos", ["configure terminal", "interface {11}"], "mtu 67", "% Invalid input (at token 1: '67')\n"),
    ("cisco_ios", ["configure terminal", "interface {11}"], "speed 7", "% Invalid input detected at '^' marker."),
    ("arista_eos", ["configure terminal", "interface {11}"], "speed 1000", "% Invalid input (at token 1: '1000')\n"),
    ("cisco_ios", ["configure terminal", "interface {11}"], "switchport access vlan 4095", "% Invalid input"),
    ("cisco_ios", ["configure terminal", "interface {11}"], "switchport trunk allowed vlan add 10-5", "% Invalid"),
    # Channel numbers: IOS 1-128, EOS 1-2000; PAgP is IOS only; vPC only with a vPC domain.
    ("cisco_ios", ["configure terminal", "interface {11}"], "channel-group 129 mode on", "% Invalid input"),
    ("arista_eos", ["configure terminal", "interface {11}"], "channel-group 2001 mode on", "% Invalid input"),
    ("cisco_nxos", ["configure terminal", "interface {11}"], "channel-group 5 mode desirable", "% Invalid command"),
    ("cisco_nxos", ["configure terminal", "interface {11}"], "vpc 11", "% Invalid command at '^' marker."),
    ("cisco_ios", ["configure terminal", "interface Port-channel20"], "vpc 20", "% Invalid input detected"),
    ("arista_eos", ["configure terminal", "interface {11}"], "mlag 11", "% Invalid input (at token 0: 'mlag')\n"),
    ("cisco_ios", ["configure terminal", "interface Port-channel20"], "channel-group 20 mode on", "% Invalid input"),
    # A mode that does not fit the channel's other members.
    (
        "cisco_ios",
        ["configure terminal", "interface {11}"],
        "channel-group 20 mode on",
        "Command rejected (Channel protocol mismatch for interface Te1/0/11 in group 20): the interface can not be"
        " added to the channel group\n",
    ),
    (
        "cisco_ios",
        ["configure terminal", "interface {11}"],
        "channel-group 1 mode desirable",
        "Command rejected (Channel protocol mismatch for interface Te1/0/11 in group 1)",
    ),
    (
        "cisco_nxos",
        ["configure terminal", "interface {11}"],
        "channel-group 20 mode on",
        "ERROR: Port-channel mode cannot be changed in a non-empty port-channel, and port mode must match with"
        " port-channel mode\n",
    ),
    ("cisco_nxos", ["configure terminal", "interface {11}"], "channel-group 20", "ERROR: Port-channel mode cannot"),
    ("arista_eos", ["configure terminal", "interface {11}"], "channel-group 1 mode active", "% Cannot add Ethernet11"),
    # Layer 2 and Layer 3 in one channel.
    (
        "cisco_ios",
        ["configure terminal", "interface {11}", "no switchport"],
        "channel-group 20 mode active",
        "Command rejected (Port-channel20, Te1/0/11): Either port is L2 and port-channel is L3, or vice-versa\n",
    ),
    # A port-channel's members: NX-OS takes MTU and switchport lines only on the channel; EOS VLANs too.
    ("cisco_nxos", ["configure terminal", "interface {21}"], "mtu 9216", "ERROR: Ethernet1/21: Cannot configure MTU"),
    ("cisco_nxos", ["configure terminal", "interface {21}"], "switchport trunk native vlan 5", "ERROR: Ethernet1/21"),
    ("arista_eos", ["configure terminal", "interface {21}"], "switchport trunk allowed vlan add 5", "% Ethernet21"),
    # Deleting what is not there, or what cannot be deleted.
    ("cisco_ios", ["configure terminal"], "no interface Port-channel99", "% Invalid input detected at '^' marker."),
    ("cisco_nxos", ["configure terminal"], "no interface port-channel99", "ERROR: Interface port-channel99 does not"),
    ("cisco_ios", ["configure terminal"], "no interface {11}", "% Invalid input detected at '^' marker."),
    # A port the switch does not have (IOS, NX-OS); an interface type of another platform.
    ("cisco_ios", ["configure terminal"], "interface TenGigabitEthernet1/0/99", "% Invalid input detected"),
    ("cisco_nxos", ["configure terminal"], "interface Ethernet1/99", "% Invalid command at '^' marker."),
    ("cisco_nxos", ["configure terminal"], "interface GigabitEthernet1/0/1", "% Invalid command at '^' marker."),
    ("arista_eos", ["configure terminal"], "interface Port-channel2001", "% Invalid input (at token 1:"),
    # Saving: NX-OS has no `write memory`; `end` is no exec command.
    ("cisco_nxos", [], "write memory", "% Invalid command at '^' marker."),
    ("cisco_ios", [], "end", "% Invalid input detected at '^' marker."),
]


@pytest.mark.parametrize(("platform", "setup", "line", "answer"), REFUSALS)
def test_refused_like_the_device(platform: str, setup: list[str], line: str, answer: str) -> None:
    def fill(text: str) -> str:
        return text.replace("{11}", _port(platform, 11)).replace("{21}", _port(platform, 21))

    got = _refused(platform, [fill(s) for s in setup], fill(line))
    assert answer in got, f"{platform}: {line!r} answered {got!r}"


def test_nxos_lacp_modes_need_feature_lacp() -> None:
    """On a switch with no LACP channel (so no `feature lacp` to assume), `mode active` is no command
    until `feature lacp` (NX-INT, Enabling LACP)."""
    state = _switch("cisco_nxos")
    state.port_channels = [c for c in state.port_channels if c.mode == "static"]
    session = SESSIONS["cisco_nxos"](state, frozenset({"Ethernet1/11"}))
    assert paste(session, "configure terminal\ninterface Ethernet1/11") == []
    before = state.model_copy(deep=True)
    refused = session.execute("channel-group 40 mode active")
    assert refused.endswith("^\n% Invalid command at '^' marker.\n") and state == before
    assert paste(session, "feature lacp\ninterface Ethernet1/11\nchannel-group 40 mode active\nend") == []
    assert next(p for p in state.ports if p.name == "Ethernet1/11").member_state == "bundled"


@pytest.mark.parametrize("platform", PLATFORMS)
def test_a_refused_line_in_a_range_changes_no_port(platform: str) -> None:
    """One port of a range that cannot take a line: none of them does (NX-OS member MTU, EOS member
    VLANs, IOS protocol mismatch)."""
    line = {
        "cisco_ios": "channel-group 1 mode active",
        "cisco_nxos": "mtu 9216",
        "arista_eos": "switchport trunk allowed vlan add 5",
    }[platform]
    ports = f"{_port(platform, 2)}, {_port(platform, 21)}"
    setup = ["configure terminal", f"interface range {ports}" if platform == "cisco_ios" else f"interface {ports}"]
    got = _refused(platform, setup, line)
    assert got.strip(), line


# --- state: the model changes as the device would ----------------------------------------------------


@pytest.mark.parametrize("platform", PLATFORMS)
def test_lacp_towards_a_port_without_lacp_is_not_bundled(platform: str) -> None:
    port = _port(platform, 11)
    session, state = _session(platform)
    assert paste(session, f"configure terminal\ninterface {port}\nchannel-group 40 mode active\nend") == []
    member = next(p for p in state.ports if p.name == port)
    channel = next(c for c in state.port_channels if c.members == [port])
    # IOS leaves an unanswered LACP port stand-alone (I), NX-OS and EOS suspend it (s).
    assert member.member_state == ("individual" if platform == "cisco_ios" else "suspended")
    assert (channel.name, channel.mode, channel.status, member.port_channel) == (
        {"cisco_ios": "Port-channel40", "cisco_nxos": "port-channel40", "arista_eos": "Port-Channel40"}[platform],
        "lacp-active",
        "down",
        channel.name,
    )
    # The far end answering LACP bundles it; a static member bundles whatever the far end runs.
    session, state = _session(platform, frozenset({port}))
    assert paste(session, f"configure terminal\ninterface {port}\nchannel-group 40 mode passive\nend") == []
    assert next(p for p in state.ports if p.name == port).member_state == "bundled"
    assert next(c for c in state.port_channels if c.members == [port]).status == "up"
    session, state = _session(platform)
    assert paste(session, f"configure terminal\ninterface {port}\nchannel-group 40 mode on\nend") == []
    assert next(p for p in state.ports if p.name == port).member_state == "bundled"


@pytest.mark.parametrize("platform", PLATFORMS)
def test_a_new_channel_takes_the_first_members_layer_2_config_except_on_eos(platform: str) -> None:
    port = _port(platform, 2)
    session, state = _session(platform)
    member = next(p for p in state.ports if p.name == port)
    member.mtu = 9216 if platform == "cisco_nxos" else 9000
    assert paste(session, f"configure terminal\ninterface {port}\nchannel-group 40 mode on\nend") == []
    channel = next(c for c in state.port_channels if c.members == [port])
    got = (channel.switchport, channel.access_vlan, channel.native_vlan, channel.allowed_vlans, channel.mtu)
    if platform == "arista_eos":
        assert got == ("access", 1, None, None, 1500)
    else:
        assert got == ("trunk", None, 5, [(10, 10)], member.mtu)
    # Channels stay in number order, as `show` lists them.
    numbers = [int("".join(c for c in ch.name if c.isdigit())) for ch in state.port_channels]
    assert numbers == sorted(numbers)


@pytest.mark.parametrize("platform", PLATFORMS)
def test_channel_lines_reach_the_members_where_the_platform_copies_them(platform: str) -> None:
    session, state = _session(platform)
    channel = next(c for c in state.port_channels if c.name.endswith("20"))
    members = [p for p in state.ports if p.name in channel.members]
    for item in (channel, *members):
        item.allowed_vlans = [(10, 10)]
    script = f"configure terminal\ninterface {channel.name}\nswitchport trunk allowed vlan add 20-30\nmtu 9000\nend"
    if platform == "cisco_nxos":
        script = script.replace("mtu 9000", "mtu 9216")
    assert paste(session, script) == []
    assert channel.allowed_vlans == [(10, 10), (20, 30)]
    # IOS and NX-OS apply a channel's switchport lines to its members; EOS members keep their own.
    expected = [(10, 10)] if platform == "arista_eos" else [(10, 10), (20, 30)]
    assert [m.allowed_vlans for m in members] == [expected, expected]
    # NX-OS members take the channel's MTU; IOS (set on both) and EOS (the member's own) do not.
    assert [m.mtu for m in members] == ([9216, 9216] if platform == "cisco_nxos" else [1500, 1500])


@pytest.mark.parametrize("platform", PLATFORMS)
def test_deleting_a_channel_frees_its_members(platform: str) -> None:
    session, state = _session(platform)
    channel = next(c for c in state.port_channels if c.name.endswith("30"))
    members = list(channel.members)
    assert paste(session, f"configure terminal\nno interface {channel.name}\nend") == []
    assert channel.name not in {c.name for c in state.port_channels}
    assert [(p.port_channel, p.member_state) for p in state.ports if p.name in members] == [(None, None)] * 2
    # EOS deletes a channel it does not have without a word; IOS and NX-OS refuse (see REFUSALS).
    if platform == "arista_eos":
        assert paste(session, "configure terminal\nno interface Port-Channel99\nend") == []


@pytest.mark.parametrize("platform", PLATFORMS)
def test_shutdown_takes_a_member_out_and_no_shutdown_brings_it_back(platform: str) -> None:
    session, state = _session(platform)
    port = next(p for p in state.ports if p.name == _port(platform, 49))
    channel = next(c for c in state.port_channels if port.name in c.members)
    before = state.model_copy(deep=True)
    assert paste(session, f"configure terminal\ninterface {port.name}\nshutdown") == []
    assert (port.status, port.member_state, channel.status) == ("disabled", "down", "down")
    assert paste(session, "no shutdown\nend") == []
    assert state == before


def test_prompts_follow_the_mode() -> None:
    prompts = {}
    for platform in PLATFORMS:
        session, _ = _session(platform)
        seen = [session.prompt()]
        for line in ("configure terminal", f"interface {_port(platform, 1)}"):
            session.execute(line)
            seen.append(session.prompt())
        prompts[platform] = seen
    assert prompts == {
        "cisco_ios": ["sw1#", "sw1(config)#", "sw1(config-if)#"],
        "cisco_nxos": ["sw1#", "sw1(config)#", "sw1(config-if)#"],
        "arista_eos": ["sw1#", "sw1(config)#", "sw1(config-if-Et1)#"],
    }
    # A global command refused from a submode leaves the submode as it was.
    session, _ = _session("cisco_ios")
    paste(session, f"configure terminal\ninterface {_port('cisco_ios', 1)}")
    assert "% Invalid input" in session.execute("no interface Port-channel99")
    assert session.prompt() == "sw1(config-if)#"


def test_abbreviations_ranges_and_global_commands_in_a_submode() -> None:
    session, state = _session("arista_eos")
    answers = [session.execute(line) for line in ("conf t", "int Et1-2,11", "mtu 9000", "no interface Port-Channel30")]
    assert answers == ["", "", "", ""]
    assert [p.mtu for p in state.ports if p.name in ("Ethernet1", "Ethernet2", "Ethernet11")] == [9000] * 3
    # `no interface` ran in global configuration, and left the interface mode.
    assert session.prompt() == "sw1(config)#"
    assert "Port-Channel30" not in {c.name for c in state.port_channels}
    assert session.execute("interface Ethernet99").startswith("! Interface does not exist.")
    assert session.prompt() == "sw1(config-if-Et99)#"
    before = state.model_copy(deep=True)
    assert session.execute("mtu 9000") == "" and state == before


def test_do_runs_exec_commands_and_show_commands_go_where_the_mode_takes_them() -> None:
    for platform in PLATFORMS:
        session, _ = _session(platform)
        assert session.show_command("show interfaces") == "show interfaces"
        session.execute("configure terminal")
        session.execute(f"interface {_port(platform, 1)}")
        assert session.show_command("do show interfaces") == "show interfaces"
        # IOS wants `do` in configuration modes; NX-OS and EOS take show commands there.
        expected = None if platform == "cisco_ios" else "show interfaces"
        assert session.show_command("show interfaces") == expected, platform
        prompt = session.prompt()
        assert session.execute("do copy running-config startup-config").strip()
        assert session.prompt() == prompt
        refused = session.execute("do frobnicate")
        assert refused.strip() and session.prompt() == prompt


def test_saving_answers_as_each_platform_does() -> None:
    answers = {}
    for platform in PLATFORMS:
        session, _ = _session(platform)
        answers[platform] = session.execute("copy running-config startup-config").splitlines()[-1]
    assert answers == {
        "cisco_ios": "[OK]",
        "cisco_nxos": "Copy complete.",
        "arista_eos": "Copy completed successfully.",
    }


@pytest.mark.parametrize("platform", PLATFORMS)
def test_a_member_whose_vlans_differ_from_the_channel_is_suspended(platform: str) -> None:
    """IOS and NX-OS suspend a member whose switchport lines differ from its channel's; NX-OS `force`
    makes the port take the channel's; EOS members' own lines do not count."""
    port = _port(platform, 2)  # trunk allowing 10, native VLAN 5
    session, state = _session(platform, frozenset({port}))
    channel = next(c for c in state.port_channels if c.name.endswith("30"))
    channel.switchport, channel.allowed_vlans, channel.native_vlan = "trunk", [(10, 10)], 1
    assert paste(session, f"configure terminal\ninterface {port}\nchannel-group 30 mode active\nend") == []
    member = next(p for p in state.ports if p.name == port)
    assert member.member_state == ("bundled" if platform == "arista_eos" else "suspended")
    if platform == "cisco_nxos":
        assert paste(session, f"configure terminal\ninterface {port}\nchannel-group 30 force mode active\nend") == []
        assert (member.member_state, member.native_vlan) == ("bundled", 1)
