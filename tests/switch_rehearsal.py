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

import re
from pathlib import Path
from typing import Any

from netmiko import ConnectHandler
from switch_emulator import EmulatedSwitch, SwitchEmulator
from switch_emulator.stateful import StatefulSwitch

from hostlint import names
from hostlint import platforms as registry
from hostlint.collect.hostkeys import HostKeyPolicy
from hostlint.collect.switches import Device, collect_switches
from hostlint.collect.switches.inventory import PASSWORD_ENV
from hostlint.fixes.scripts import script_name
from hostlint.fixes.steps import Step
from hostlint.snapshot import Snapshot
from hostlint.snapshot.switch import Switch, SwitchPort

USER, PASSWORD = "netadmin", "lab-secret"
# What a rejection looks like on each platform's CLI (IOS/NX-OS/EOS `% Invalid ...`, Junos `syntax error`,
# `error: ...`, `unknown command.`).
REJECTED = r"^\s*% |syntax error|^\s*error:|unknown command"


def lacp_partners(snapshot: Snapshot, switch: Switch) -> frozenset[str]:
    """The switch's ports whose far end runs LACP: a DVS LAG uplink, a KVM 802.3ad bond member."""
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
    ports = set()
    for nic in lacp_nics:
        neighbour = getattr(nic, "neighbour", None)
        if neighbour and names.device_key(neighbour.device_id) in {key, *map(names.device_key, switch.aliases)}:
            ports.add(names.interface(neighbour.port_id))
    return frozenset(ports)


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
            stateful = StatefulSwitch(switch, lacp_partners(snapshot, switch))
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

    def states(self) -> list[Switch]:
        """The emulators' live states (the objects the sessions change), in snapshot order."""
        return [s.state for s in self.switches.values()]

    def collect(self, monkeypatch: Any) -> list[Switch]:
        """hostlint's switch collection over SSH; the management address is the inventory's (the lab's),
        not the loopback the test connects to."""
        monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
        collected = collect_switches(self.devices, concurrency=8, policy=HostKeyPolicy(self.known_hosts))
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


def cabled(snapshot: Snapshot) -> list[tuple[Any, SwitchPort]]:
    """(host NIC, switch port) for every NIC whose neighbour is a port of a switch in the snapshot."""
    from hostlint.fixes.apply import _pnic_port

    links = []
    for host in snapshot.esxi_hosts:
        for pnic in host.pnics:
            _, port = _pnic_port(snapshot, host, pnic.name)
            if port is not None:
                links.append((pnic, port))
    return links


def forced_ends(snapshot: Snapshot) -> dict[int, tuple[Any, Any, tuple[Any, Any], tuple[Any, Any]]]:
    return {id(p): (p, s, _forced(p), _forced(s)) for p, s in cabled(snapshot)}


def settle_links(snapshot: Snapshot, before: dict[int, tuple[Any, Any, tuple[Any, Any], tuple[Any, Any]]]) -> None:
    """Links where either end's forced speed/duplex changed come up again: both ends auto agree on full
    duplex; a forced end runs its forced duplex and its auto partner falls to half (parallel detection,
    IEEE 802.3 clause 28). An end whose duplex the snapshot does not know stays unknown."""
    now = {id(p): (p, s) for p, s in cabled(snapshot)}
    for key, (pnic, port) in now.items():
        old = before.get(key)
        if old is not None and (old[2], old[3]) == (_forced(pnic), _forced(port)) and old[1] is port:
            continue
        host_auto = _forced(pnic) == (None, None)
        port_auto = _forced(port) == (None, None)
        for end, auto, partner_auto in ((pnic, host_auto, port_auto), (port, port_auto, host_auto)):
            if end.duplex is None:
                continue  # a link state the snapshot does not know stays unknown: nothing here can tell it
            if auto:
                end.duplex = "full" if partner_auto else "half"
            else:
                end.duplex = end.configured_duplex or end.duplex
