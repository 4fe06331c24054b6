"""A site's switches as StatefulSwitch emulators over SSH: fix blocks pasted with netmiko, collected for real.

`SwitchSite(snapshot)` serves every switch of the snapshot from a StatefulSwitch seeded with it (its
far ends that run LACP taken from the hosts' DVS LAGs and 802.3ad bonds); `collect()` runs hostlint's
switch collection over SSH; `paste(folder, step, rollback)` reads the step's block from the switch
file hostlint wrote and sends it the way an engineer would with netmiko: `send_config_set` enters the
platform's configuration mode itself, sends the block's commands, leaves the mode; a Junos block
ending in `commit confirmed` is then confirmed with its CONFIRM lines. Any rejection fails the paste.
`link(snapshot)` settles what the physical links negotiate after a change of forced speed/duplex on
either end (that is the link's doing, not the switch's nor esxcli's).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from netmiko import ConnectHandler
from switch_emulator import EmulatedSwitch, SwitchEmulator
from switch_emulator.platforms.juniper_junos import JunosSession
from switch_emulator.stateful import RENDERERS, StatefulSwitch
from switch_emulator.stateful.render_cisco import peer_link

from hostlint import names
from hostlint import platforms as registry
from hostlint.collect.hostkeys import HostKeyPolicy
from hostlint.collect.switches import Device, collect_switches
from hostlint.collect.switches.inventory import PASSWORD_ENV
from hostlint.collect.switches.platforms import load_platform
from hostlint.fixes.scripts import script_name
from hostlint.fixes.steps import Step
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.switch import PortChannel, Switch, SwitchPort

USER, PASSWORD = "netadmin", "lab-secret"
# What a rejection looks like on each platform's CLI (IOS/NX-OS/EOS/Comware `% Invalid ...`, Junos `syntax
# error`, `error: ...`, `unknown command.`, VRP `Error: ...`).
REJECTED = r"^\s*% |syntax error|^\s*error:|^\s*Error:|unknown command"


def site_vlans(snapshot: Snapshot) -> dict[str, int]:
    """The VLANs the site's port groups use, as a Junos switch defines them (`set vlans NAME vlan-id N`).

    A Junos trunk fix names VLANs by id and its REVIEW note asks a person to define a missing one
    first (Junos refuses the commit otherwise): the rehearsal's switches have them defined, as the
    engineer following the note would."""
    ids = {pg.vlan for host in snapshot.esxi_hosts for pg in host.portgroups if pg.vlan is not None}
    ids |= {pg.vlan for dvs in snapshot.distributed_switches for pg in dvs.portgroups if pg.vlan is not None}
    return {f"vlan{vlan}": vlan for vlan in sorted(ids) if 1 <= vlan <= 4094}


def _junos_with_site_vlans(snapshot: Snapshot) -> Any:
    vlans = site_vlans(snapshot)
    return lambda state, partners: JunosSession(state, partners, vlans=vlans)


def lacp_partners(snapshot: Snapshot, switch: Switch) -> frozenset[str]:
    """The switch's ports whose far end runs LACP: a DVS LAG uplink, a KVM 802.3ad bond member, a port
    the switch shows bundled in an LACP channel."""
    lacp_nics: list[Any] = []
    hosts = {names.device_key(h.name): h for h in snapshot.esxi_hosts}
    for dvs in snapshot.distributed_switches:
        lags = [lag.name for lag in dvs.lags]
        for member in dvs.hosts:
            host = hosts.get(names.device_key(member.host))
            for uplink, nic in member.uplinks.items():
                if host is not None and any(uplink.startswith(f"{lag}-") for lag in lags):
                    lacp_nics += [p for p in host.pnics if p.name == nic]
    for kvm in snapshot.kvm_hosts:
        for bond in kvm.bonds:
            if bond.mode == "802.3ad":
                wanted = {m.name for m in bond.members}
                lacp_nics += [i for i in kvm.interfaces if i.name in wanted]
    key = names.device_key(switch.name)
    # A member bundled in an LACP channel has a partner that answers LACP: the switch itself says so.
    lacp = {names.interface_key(c.name) for c in switch.port_channels if c.mode in ("lacp-active", "lacp-passive")}
    ports = {
        names.interface(p.name)
        for p in switch.ports
        if p.member_state == "bundled" and p.port_channel and names.interface_key(p.port_channel) in lacp
    }
    for nic in lacp_nics:
        neighbour = getattr(nic, "neighbour", None)
        if neighbour and names.device_key(neighbour.device_id) in {key, *map(names.device_key, switch.aliases)}:
            ports.add(names.interface(neighbour.port_id))
    return frozenset(ports)


# A peer-link added where a lab's vPC/MLAG pair lists none: platform -> (channel, its two members).
_PEER_LINK = {
    "cisco_nxos": ("port-channel{}", ("Ethernet1/{}", "Ethernet1/{}")),
    "arista_eos": ("Port-Channel{}", ("Ethernet{}/1", "Ethernet{}/1")),
}


def as_configured(snapshot: Snapshot) -> Snapshot:
    """The snapshot with its IOS/NX-OS/EOS port-channels as a real switch holds them: a channel a plan
    may delete and recreate has a definite configuration, which a lab may leave unknown. A channel whose
    switchport mode is unknown has its members' mode (when they agree), and a trunk or access channel
    whose VLANs are unknown has the vendor defaults (all VLANs, native 1; access VLAN 1), which is what
    the switch gives a channel created from such members. Ports are left as the snapshot has them."""
    done = snapshot.model_copy(deep=True)
    for switch in done.switches:
        if switch.platform not in ("cisco_ios", "cisco_nxos", "arista_eos"):
            continue
        for channel in switch.port_channels:
            key = names.interface_key(channel.name)
            modes = {p.mode for p in switch.ports if p.port_channel and names.interface_key(p.port_channel) == key}
            if channel.switchport is None and len(modes) == 1 and None not in modes:
                channel.switchport = modes.pop()
            if channel.switchport == "trunk":
                channel.allowed_vlans = [(1, 4094)] if channel.allowed_vlans is None else channel.allowed_vlans
                channel.native_vlan = 1 if channel.native_vlan is None else channel.native_vlan
            elif channel.switchport == "access" and channel.access_vlan is None:
                channel.access_vlan = 1
    return done


def with_peer_links(snapshot: Snapshot) -> Snapshot:
    """The snapshot with what a real vPC/MLAG pair has and a hand-written lab may leave out: a peer-link
    channel whose members see the peer over LLDP (the collector names the peer from that neighbour).

    Where the pair's switch has a channel without a vPC/MLAG id (the renderer's peer-link), its members
    that show no neighbour get the peer as an LLDP neighbour; where it has none, a channel 4000 of two
    100G members (the first free numbers from 53/49) is added, bundled, trunking all VLANs."""
    done = snapshot.model_copy(deep=True)
    for switch in done.switches:
        pair = switch.multichassis
        if pair is None or pair.kind not in ("vpc", "mlag") or not pair.peer or switch.platform not in _PEER_LINK:
            continue
        link = peer_link(switch)
        if link is None:
            channel_name, member_names = _PEER_LINK[switch.platform]
            taken = {names.interface_key(p.name) for p in switch.ports}
            numbers = [n for n in range(53, 200) if names.interface_key(member_names[0].format(n)) not in taken]
            link = PortChannel(
                name=channel_name.format(4000),
                mode="lacp-active",
                switchport="trunk",
                native_vlan=1,
                allowed_vlans=[(1, 4094)],
                members=[member_names[0].format(n) for n in numbers[:2]],
                mtu=9216 if switch.platform == "cisco_nxos" else 9214,
                status="up",
            )
            switch.port_channels.append(link)
            for member in link.members:
                switch.ports.append(
                    SwitchPort(
                        name=member,
                        description="vpc peer-link",
                        status="up",
                        mode="trunk",
                        speed_mbps=100000,
                        duplex="full",
                        mtu=link.mtu,
                        port_channel=link.name,
                        member_state="bundled",
                    )
                )
        members = {names.interface_key(m) for m in link.members}
        for port in switch.ports:
            if names.interface_key(port.name) in members and not port.neighbours:
                port.neighbours = [
                    Neighbour(protocol="lldp", device_id=pair.peer, system_name=pair.peer, port_id=port.name)
                ]
    return done


def _blocks(text: str, platform: str) -> dict[int, tuple[list[str], list[str]]]:
    """Step number -> (the block's live lines, its CONFIRM lines), from a switch file hostlint wrote."""
    vocabulary = registry.target(platform).vocabulary
    found: dict[int, tuple[list[str], list[str]]] = {}
    number = None
    live: list[str] = []
    for line in text.splitlines():
        title = re.match(rf"{re.escape(vocabulary.comment)} (?:Undo step|Step) (\d+) of \d+ ", line)
        if title:
            number, live = int(title.group(1)), []
            continue
        if number is None:
            continue
        if line.startswith(f"{vocabulary.comment} end of step {number}"):
            confirm = list(vocabulary.confirm)
            if confirm and live[-len(confirm) :] == confirm:
                found[number] = (live[: -len(confirm)], confirm)
            else:
                found[number] = (live, [])
            number = None
        elif line.strip() and not line.startswith(vocabulary.comment):
            live.append(line)
    return found


class SwitchSite:
    """Every switch of `snapshot` served by its own StatefulSwitch; use in a `with` block."""

    def __init__(self, snapshot: Snapshot, known_hosts: Path) -> None:
        self.emulator = SwitchEmulator()
        self.switches: dict[str, StatefulSwitch] = {}
        self.devices: list[Device] = []
        self.addresses: dict[str, str | None] = {}
        for switch in snapshot.switches:
            session = _junos_with_site_vlans(snapshot) if switch.platform == "juniper_junos" else None
            stateful = StatefulSwitch(switch, lacp_partners(snapshot, switch), session)
            port = self.emulator.add(EmulatedSwitch(name=switch.name, platform=switch.platform, stateful=stateful))
            self.switches[switch.name] = stateful
            self.addresses[switch.name] = switch.mgmt_address
            self.devices.append(
                Device(name=switch.name, hostname="127.0.0.1", port=port, platform=switch.platform, username=USER)
            )
        self.known_hosts = self.emulator.write_known_hosts(known_hosts)
        self._connections: dict[str, Any] = {}

    def __enter__(self) -> SwitchSite:
        return self

    def __exit__(self, *exc: object) -> None:
        for connection in self._connections.values():
            connection.disconnect()
        self.emulator.close()

    def running_configs(self) -> dict[str, str]:
        """Each switch's running configuration as its emulator shows it (the command the collector reads
        it with), every line: what a rollback must give back exactly."""
        return {name: running_config(stateful) for name, stateful in self.switches.items()}

    def states(self) -> list[Switch]:
        """The emulators' live states (the objects the sessions change), in snapshot order."""
        return [s.state for s in self.switches.values()]

    def collect(self, monkeypatch: Any) -> list[Switch]:
        """hostlint's switch collection over SSH; the management address is the inventory's (the lab's),
        not the loopback the test connects to."""
        monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
        collected = collect_switches(self.devices, concurrency=4, policy=HostKeyPolicy(self.known_hosts))
        assert collected.collection_errors == [], collected.collection_errors
        for switch in collected.switches:
            switch.mgmt_address = self.addresses[switch.name]
        return collected.switches

    def _connection(self, device: Device) -> Any:
        if device.name not in self._connections:
            self._connections[device.name] = ConnectHandler(
                device_type=device.platform,
                host=device.hostname,
                port=device.port,
                username=USER,
                password=PASSWORD,
                fast_cli=False,
                conn_timeout=20,
            )
        return self._connections[device.name]

    def paste(self, folder: Path, step: Step, rollback: bool) -> str:
        """Paste one step's block from the device's switch file; the CLI's answers, for the record."""
        device = next(d for d in self.devices if d.name == step.device)
        platform = device.platform
        text = (folder / script_name(step.device, platform, rollback)).read_text(encoding="utf-8")
        live, confirm = _blocks(text, platform)[step.number]
        if not live:
            return ""  # a block of REVIEW comments only: a change hostlint leaves to a human
        vocabulary = registry.target(platform).vocabulary
        enter, leave = list(vocabulary.enter), list(vocabulary.leave)
        assert live[: len(enter)] == enter and live[-len(leave) :] == leave, live
        # netmiko enters the mode with the block's own command and leaves it its platform's way
        # (`end`; Junos `exit configuration-mode`): the leave lines before that (Junos `commit
        # confirmed 10`) are sent as commands.
        commands = live[len(enter) : len(live) - len(leave)] + leave[:-1]
        connection = self._connection(device)
        output = connection.send_config_set(commands, config_mode_command=enter[0], error_pattern=REJECTED)
        if confirm:
            assert confirm[0] == enter[0] and confirm[-1] == leave[-1], confirm
            output += connection.send_config_set(confirm[1:-1], config_mode_command=confirm[0], error_pattern=REJECTED)
        return str(output)


def _forced(item: Any) -> tuple[Any, Any]:
    return item.configured_speed_mbps, item.configured_duplex


@dataclass(frozen=True)
class Link:
    """A host NIC and its switch port, with what each end forces and the duplex each end runs."""

    pnic: Any
    port: SwitchPort

    @property
    def forced(self) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
        return _forced(self.pnic), _forced(self.port)

    @property
    def duplex(self) -> tuple[Any, Any]:
        return self.pnic.duplex, self.port.duplex


Links = dict[tuple[str, str], tuple[tuple[tuple[Any, Any], tuple[Any, Any]], tuple[Any, Any]]]


def links(snapshot: Snapshot) -> dict[tuple[str, str], Link]:
    """(host, NIC) -> its link, for every NIC whose neighbour is a port of a switch in the snapshot."""
    from hostlint.fixes.apply import _pnic_port

    found = {}
    for host in snapshot.esxi_hosts:
        for pnic in host.pnics:
            _, port = _pnic_port(snapshot, host, pnic.name)
            if port is not None:
                found[(host.name, pnic.name)] = Link(pnic, port)
    return found


def forced_ends(snapshot: Snapshot) -> Links:
    """What every link's ends force and run now (to settle_links after a step)."""
    return {key: (link.forced, link.duplex) for key, link in links(snapshot).items()}


def settle_links(snapshot: Snapshot, before: Links, origin: Links) -> None:
    """Links where either end's forced speed/duplex changed come up again. Under the configuration they
    had at the start (`origin`) they come up as they did then; otherwise both ends auto agree on full
    duplex, a forced end runs its forced duplex and its auto partner falls to half (parallel detection,
    IEEE 802.3 clause 28, as hostlint's simulated applier has it). An end whose duplex the snapshot does
    not know stays unknown."""
    for key, link in links(snapshot).items():
        if key in before and before[key][0] == link.forced:
            continue
        if key in origin and origin[key][0] == link.forced:
            link.pnic.duplex, link.port.duplex = origin[key][1]
            continue
        host_auto, port_auto = link.forced[0] == (None, None), link.forced[1] == (None, None)
        for end, auto, partner_auto in ((link.pnic, host_auto, port_auto), (link.port, port_auto, host_auto)):
            if end.duplex is None:
                continue  # a link state the snapshot does not know stays unknown: nothing here can tell it
            if not auto:
                end.duplex = end.configured_duplex or end.duplex
            else:
                end.duplex = "full" if partner_auto else "half"


def running_config(stateful: StatefulSwitch) -> str:
    """The running configuration: the session's own where it keeps the platform's configuration itself
    (VRP: what `display current-configuration` shows of the committed state, lines no `Switch` field
    holds included), else the platform's rendering of the `Switch`."""
    own = getattr(stateful.session, "running_config", None)
    if callable(own):
        return str(own())
    command = next(c.command for c in load_platform(stateful.platform).commands if c.section == "config")
    return RENDERERS[stateful.platform](stateful.state, command) or ""


def config_differences(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """The lines that differ between two running configurations per switch (a unified diff, no context)."""
    found: list[str] = []
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name, "").splitlines(), after.get(name, "").splitlines()
        diff = difflib.unified_diff(old, new, f"{name} before", f"{name} after", n=0, lineterm="")
        found += [line for line in diff if not line.startswith("@@")]
    return found


def differences(before: list[Switch], after: list[Switch]) -> list[str]:
    """Where two collections of the same switches differ, as `switch.ports[name].field: old -> new`."""
    found: list[str] = []

    def walk(a: Any, b: Any, path: str) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b)):
                walk(a.get(key), b.get(key), f"{path}.{key}")
        elif isinstance(a, list) and isinstance(b, list) and all(isinstance(x, dict) and "name" in x for x in a + b):
            left, right = {x["name"]: x for x in a}, {x["name"]: x for x in b}
            for key in sorted(set(left) | set(right)):
                walk(left.get(key), right.get(key), f"{path}[{key}]")
        elif a != b:
            found.append(f"{path}: {a!r} -> {b!r}")

    walk({s.name: s.model_dump(mode="json") for s in before}, {s.name: s.model_dump(mode="json") for s in after}, "")
    return found


def emulated(snapshot: Snapshot) -> Snapshot:
    """The network the emulators hold for a snapshot: its switches as configured, with their peer-links."""
    return with_peer_links(as_configured(snapshot))
