"""A state shown is the state collected: IOS, NX-OS and EOS show commands rendered from a `Switch`
(each platform's RENDER in tests/switch_emulator/platforms/, on stateful/render_cisco.py), served over SSH,
read by the real collector.

Every lab switch of those platforms (fixtures/labs/*/switches.json) and every switch of the synthetic
per-platform sites of tests/support/fix_sites.py is served by a StatefulSwitch and collected with
`collect_switches` (netmiko, the platforms' ttp templates, the assembly). The collected switch must
equal the state, except for what a collection cannot give back as the state holds it: each such
field is listed in NOT_COLLECTABLE with the reason, and every entry must be needed by some switch.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.offline_collect import offline
from switch_emulator import EmulatedSwitch, SwitchEmulator
from switch_emulator.stateful import RENDERERS, StatefulSwitch
from switch_emulator.stateful.render_cisco import peer_link

from hostlint import names, vlans
from hostlint.collect.hostkeys import HostKeyPolicy
from hostlint.collect.switches import Device, collect_switches, load_platform, stanzas
from hostlint.collect.switches.inventory import PASSWORD_ENV
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.switch import LoadBalance, MultiChassis, PortChannel, Switch, SwitchPort

LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"
PLATFORMS = ("cisco_ios", "cisco_nxos", "arista_eos")
LOOPBACK = "127.0.0.1"

# Fields a collection cannot give back as the state holds them; everything else comes back exactly.
NOT_COLLECTABLE = {
    "config_lines": "each interface's own running-configuration lines as the switch shows them (its modelled "
    "lines and those the session keeps as typed); a state holds none, or (a lab) its stanza",
    "mgmt_address": "the collector records the address it connected to (the inventory's): the loopback here",
    "aliases": "the configured hostname is an alias only when its short name differs from the device's name",
    "interface names": "collected in hostlint's canonical long form (hostlint.names): `port-channel11` and "
    "`Port-Channel11` come back as `Port-channel11`",
    "load_balance.raw": "the hash as the platform prints it; a state's text the platform does not print (a lab's "
    "hand-written `fields ip src-ip dst-ip ...`, or none) comes back in the platform's own spelling",
    "unknown switchport VLANs": "an IOS/EOS switchport whose VLANs the state leaves unknown (and that does not "
    "follow its channel's mode): the switch's configuration always says them, its silence being the vendor "
    "default (trunk: all VLANs, native 1; access: VLAN 1)",
    "EOS mac+ip hash": "EOS prints a `fields mac` line beside `fields ip`; the collector reads the IP fields only",
    "multichassis.peer": "the collector names the peer from the CDP/LLDP neighbour on a peer-link member: "
    "unknown when the state has no peer-link channel or its members show no neighbour",
    "multichassis.peer_link_up": "read from the peer-link row of `show vpc brief`: unknown when the state has "
    "no peer-link channel (a channel of the pair without a vPC id)",
}


def _canonical_names(switch: Switch) -> None:
    for port in switch.ports:
        port.name = names.interface(port.name)
        port.port_channel = names.interface(port.port_channel) if port.port_channel else None
    for channel in switch.port_channels:
        channel.name = names.interface(channel.name)
        channel.members = [names.interface(m) for m in channel.members]


def _spelling(platform: str, balance: LoadBalance) -> str:
    """What the collector reads back as `raw` for this hash (the renderer's spelling, read by the collector)."""
    collected, _ = offline(Switch(name="probe", platform=platform, load_balance=balance))
    assert collected.load_balance is not None
    return str(collected.load_balance.raw)


def expected(state: Switch, hostname: str) -> tuple[Switch, set[str]]:
    """The switch a collection of `state` must give, and the NOT_COLLECTABLE entries that made it differ."""
    want = state.model_copy(deep=True)
    used: set[str] = set()

    def change(reason: str, before: object, after: object) -> object:
        if before != after:
            used.add(reason)
        return after

    want.mgmt_address = change("mgmt_address", want.mgmt_address, hostname)
    kept = [a for a in want.aliases if names.device_key(a) != names.device_key(want.name)][:1]
    want.aliases = change("aliases", want.aliases, kept)  # type: ignore[assignment]
    before = want.model_dump()
    _canonical_names(want)
    change("interface names", before, want.model_dump())
    if want.load_balance is not None:
        if want.platform == "arista_eos" and want.load_balance.hash == "src-dst-mac-ip":
            used.add("EOS mac+ip hash")
            want.load_balance = LoadBalance(hash="src-dst-ip", raw="source-ip destination-ip")
        raw = _spelling(want.platform, want.load_balance)
        want.load_balance.raw = change("load_balance.raw", want.load_balance.raw, raw)  # type: ignore[assignment]
    channels = {c.name: c for c in want.port_channels}
    for port in want.ports:
        unknown = port.access_vlan is None and port.native_vlan is None and port.allowed_vlans is None
        channel = channels.get(port.port_channel or "")
        follows = channel is not None and channel.switchport == port.mode
        if want.platform != "cisco_nxos" and unknown and port.mode in ("access", "trunk") and not follows:
            used.add("unknown switchport VLANs")
            if port.mode == "trunk":
                port.allowed_vlans, port.native_vlan = list(vlans.ALL), 1
            else:
                port.access_vlan = 1
    if want.multichassis is not None and want.multichassis.kind in ("vpc", "mlag"):
        link = peer_link(state)
        members = {names.interface(m) for m in link.members} if link else set()
        seen = [p.neighbours[0] for p in want.ports if p.name in members and p.neighbours]
        peer = (seen[0].system_name or seen[0].device_id) if seen else None
        want.multichassis.peer = change("multichassis.peer", want.multichassis.peer, peer)  # type: ignore[assignment]
        if want.multichassis.kind == "vpc" and link is None:
            up = want.multichassis.peer_link_up
            want.multichassis.peer_link_up = change("multichassis.peer_link_up", up, None)  # type: ignore[assignment]
    shown = stanzas.interface_lines(RENDERERS[state.platform](state, _config_command(state.platform)) or "")
    for item in [*want.ports, *want.port_channels]:
        lines = shown.get(names.interface(item.name), [])
        item.config_lines = change("config_lines", item.config_lines, lines)  # type: ignore[assignment]
    return want, used


def _config_command(platform: str) -> str:
    return next(c.command for c in load_platform(platform).commands if c.section == "config")


class ShowOnly:
    """A session that only has exec mode: every configuration line is refused (show-only tests)."""

    def __init__(self, state: Switch, lacp_partners: frozenset[str]) -> None:
        self._name = state.name

    def prompt(self) -> str:
        return f"{self._name}#"

    def execute(self, line: str) -> str:
        return "% Invalid input detected at '^' marker.\n"


def _states() -> list[tuple[str, Switch]]:
    from support.fix_sites import site

    found = []
    for lab in sorted(p for p in LABS.iterdir() if (p / "switches.json").is_file()):
        snapshot = Snapshot.model_validate_json((lab / "switches.json").read_text(encoding="utf-8"))
        found += [(lab.name, s) for s in snapshot.switches if s.platform in PLATFORMS]
    for platform in PLATFORMS:
        found += [(f"site-{platform}", s) for s in site(platform).switches]
    return found


STATES = _states()
IDS = [f"{source}/{state.name}" for source, state in STATES]


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    """Every state served by its own StatefulSwitch and collected over SSH in one concurrent run."""
    with SwitchEmulator() as emulator:
        devices = []
        for index, (_, state) in enumerate(STATES):
            switch = StatefulSwitch(state, session=ShowOnly)
            port = emulator.add(EmulatedSwitch(name=state.name, platform=state.platform, stateful=switch))
            devices.append(
                Device(name=state.name, hostname=LOOPBACK, port=port, platform=state.platform, username="netadmin")
            )
            assert index == len(devices) - 1
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv(PASSWORD_ENV, "lab-secret")
            known_hosts = emulator.write_known_hosts(tmp_path_factory.mktemp("ssh") / "known_hosts")
            snapshot = collect_switches(devices, concurrency=4, policy=HostKeyPolicy(known_hosts))
    return snapshot


@pytest.mark.parametrize("index", range(len(STATES)), ids=IDS)
def test_the_collector_reads_back_the_state(collected, index: int) -> None:
    _, state = STATES[index]
    assert [e for e in collected.collection_errors if e.target == state.name] == []
    got = collected.switches[index]
    want, _ = expected(state, LOOPBACK)
    assert json.loads(got.model_dump_json()) == json.loads(want.model_dump_json())


def test_every_exception_is_needed_and_nothing_else_differs() -> None:
    used = set().union(*(expected(state, LOOPBACK)[1] for _, state in STATES))
    assert used == set(NOT_COLLECTABLE), f"listed but never needed: {set(NOT_COLLECTABLE) - used}"


def test_a_show_command_the_platform_lacks_is_rejected_in_its_words() -> None:
    _, state = next(s for s in STATES if s[1].platform == "cisco_nxos")
    switch = StatefulSwitch(state, session=ShowOnly)
    assert "% Invalid command at '^' marker." in switch.execute("show etherchannel summary")
    assert switch.execute("terminal length 0") == ""
    assert switch.execute("show vpc brief").startswith("Legend:")
    assert switch.state == state and switch.state is not state


# --- generated states -----------------------------------------------------------------------------

_PORT_NAMES = {
    "cisco_ios": "GigabitEthernet1/0/{}",
    "cisco_nxos": "Ethernet1/{}",
    "arista_eos": "Ethernet{}",
}
_HASHES = {
    "cisco_ios": ["src-mac", "src-dst-ip", "src-dst-mac", "src-dst-ip-port"],
    "cisco_nxos": ["src-dst-ip", "src-dst-mac", "src-dst-ip-port", "src-dst-ip-vlan"],
    "arista_eos": ["src-dst-ip-port", "src-dst-ip", "src-dst-mac"],
}
_VLAN_LISTS = st.lists(st.tuples(st.integers(2, 2000), st.integers(0, 50)), max_size=3).map(
    lambda pairs: vlans.merge([(low, low + span) for low, span in pairs])
)


@st.composite
def _states_drawn(draw) -> Switch:
    platform = draw(st.sampled_from(PLATFORMS))
    numbers = draw(st.lists(st.integers(1, 48), min_size=1, max_size=8, unique=True))
    channel_of = {n: draw(st.sampled_from([None, None, 10, 20])) for n in numbers}
    channel_modes = {10: draw(st.sampled_from(["static", "lacp-active"])), 20: "lacp-passive"}
    ports = []
    for number in numbers:
        status = draw(st.sampled_from(["up", "up", "down", "disabled", "err-disabled"]))
        mode = draw(st.sampled_from(["access", "trunk"]))
        member = channel_of[number]
        port = SwitchPort(
            name=_PORT_NAMES[platform].format(number),
            description=draw(st.sampled_from([None, "esx01 vmnic2", "uplink core1"])),
            status=status,
            mode=mode,
            mtu=draw(st.sampled_from([1500, 9000, 9198, 9214, 9216])),
            speed_mbps=draw(st.sampled_from([1000, 10000, 25000])) if status == "up" else None,
            duplex="full" if status == "up" else None,
            port_channel=f"Port-channel{member}" if member else None,
            member_state=draw(st.sampled_from(["bundled", "suspended", "down"])) if member else None,
        )
        if member is None:
            if mode == "trunk":
                port.allowed_vlans = draw(_VLAN_LISTS | st.just(list(vlans.ALL)))
                port.native_vlan = draw(st.sampled_from([1, 10]))
            else:
                port.access_vlan = draw(st.integers(1, 4000))
        if draw(st.booleans()):
            port.neighbours = [
                Neighbour(
                    protocol="cdp" if platform != "arista_eos" and draw(st.booleans()) else "lldp",
                    device_id=f"esx{number:02d}.lab.example.net",
                    system_name=f"esx{number:02d}.lab.example.net",
                    port_id=f"vmnic{number % 8}",
                    mgmt_address=f"10.0.0.{number}",
                )
            ]
            if port.neighbours[0].protocol == "cdp":
                port.neighbours[0].system_name = None if platform == "cisco_ios" else port.neighbours[0].system_name
                port.neighbours[0].platform = "VMware ESX"
        ports.append(port)
    channels = [
        PortChannel(
            name=f"Port-channel{number}",
            mode=channel_modes[number],  # type: ignore[arg-type]
            switchport="trunk",
            native_vlan=1,
            allowed_vlans=draw(_VLAN_LISTS),
            members=[p.name for p in ports if p.port_channel == f"Port-channel{number}"],
            mtu=9000,
            status=draw(st.sampled_from(["up", "down"])),
        )
        for number in sorted({n for n in channel_of.values() if n})
    ]
    for port in ports:
        if port.port_channel:
            port.mode = "trunk"
    if platform == "arista_eos":
        # A member's own switchport lines are the default (an access port in VLAN 1: EOS keeps them for LACP
        # fallback); bundled, its channel's trunk carries its frames. EOS bridges up to its L2 MTU, the
        # platform maximum (a 9214-byte frame): as the largest IP packet, less the Ethernet header and, on
        # a trunk, the 802.1Q tag.
        for port in ports:
            if port.port_channel:
                port.mode, port.access_vlan = "access", 1
        for item in (*ports, *channels):
            tagged = item.switchport == "trunk" if isinstance(item, PortChannel) else item.mode == "trunk"
            item.l2_mtu = 9214 - 14 - (4 if tagged or getattr(item, "port_channel", None) else 0)
    balance = draw(st.sampled_from(_HASHES[platform]))
    return Switch(
        name="gen-sw1",
        platform=platform,
        model=None,
        os_version=draw(st.sampled_from([None, "10.2(5)", "17.9.4a"])),
        load_balance=LoadBalance(hash=balance, raw=None),
        ports=ports,
        port_channels=channels,
        multichassis=None
        if platform == "cisco_ios" or not draw(st.booleans())
        else MultiChassis(kind="vpc" if platform == "cisco_nxos" else "mlag", domain_id="7", peer_link_up=True),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=_states_drawn())
def test_generated_states_read_back(state: Switch) -> None:
    got, errors = offline(state)
    assert errors == []
    want, _ = expected(state, LOOPBACK)
    assert json.loads(got.model_dump_json()) == json.loads(want.model_dump_json())
