"""End to end: emulated switches collected over SSH + a host with an IP-hash vSwitch -> `hostlint check`.

Each platform's samples describe the switch side of esx01's vSwitch1 (vmnic2 +
vmnic3, route based on IP hash, MTU 9000); each scenario changes one thing.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from switch_emulator import EmulatedSwitch, SwitchEmulator, build
from switch_emulator.scenarios import NAMES, PAIRS, SCENARIOS

from hostlint.cli.main import cli
from hostlint.collect.hostkeys import HostKeyPolicy
from hostlint.collect.switches import Device, collect_switches
from hostlint.collect.switches.inventory import PASSWORD_ENV
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.esxi import EsxiHost, PhysicalNic, StandardVSwitch, Teaming

# Where esx01's vmnic2 and vmnic3 are cabled, per platform: (switch, port as the host's CDP/LLDP shows it).
CABLING = {
    "cisco_ios": [("sw-ios1", "Gi1/0/3"), ("sw-ios1", "Gi1/0/4")],
    "cisco_nxos": [
        ("nx1.lab.example.net(FDO22310ABC)", "Ethernet1/11"),
        ("nx2.lab.example.net(FDO22310QRS)", "Ethernet1/11"),
    ],
    "arista_eos": [("eos1.lab.example.net", "Ethernet11"), ("eos2.lab.example.net", "Ethernet11")],
    "juniper_junos": [("ex1", "xe-0/0/2"), ("ex1", "xe-0/0/3")],
}
WATCHED = {"LG001", "LG002", "LG003", "LG004", "MT002", "LK001"}
EXPECTED = {
    "static": set(),
    "lacp": {"LG002"},
    "wrong-hash": {"LG003"},
    "no-channel": {"LG001"},
    "non-jumbo": {"MT002"},
    "forced-speed": {"LK001"},
    # Two vPC/MLAG switches whose peer-link is down are two switches: one channel cannot span them.
    "peer-link-down": {"LG001", "LG004"},
}
CASES = [(platform, scenario) for platform, scenarios in SCENARIOS.items() for scenario in scenarios]


def _host(platform: str) -> Snapshot:
    protocol = "lldp" if platform in ("arista_eos", "juniper_junos") else "cdp"
    nics = ["vmnic2", "vmnic3"]
    host = EsxiHost(
        name="esx01.lab.example.net",
        vswitches=[
            StandardVSwitch(
                name="vSwitch1", mtu=9000, uplinks=nics, teaming=Teaming(policy="loadbalance_ip", active=nics)
            )
        ],
        pnics=[
            PhysicalNic(
                name=nic,
                link_up=True,
                speed_mbps=10000,
                duplex="full",
                neighbour=Neighbour(protocol=protocol, device_id=switch, port_id=port),
            )
            for nic, (switch, port) in zip(nics, CABLING[platform], strict=True)
        ],
    )
    return Snapshot(source=f"test:{platform}", esxi_hosts=[host])


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    """Every (platform, scenario)'s switches, collected over SSH in one concurrent run."""
    with SwitchEmulator() as emulator:
        devices, owners = [], []
        for platform, scenario in CASES:
            second = [False, True] if platform in PAIRS else [False]
            for is_second in second:
                name = PAIRS[platform][0][1] if is_second else NAMES[platform]
                outputs = build(platform, scenario, second=is_second)
                port = emulator.add(EmulatedSwitch(name=name, platform=platform, outputs=outputs))
                devices.append(
                    Device(name=name, hostname="127.0.0.1", port=port, platform=platform, username="netadmin")
                )
                owners.append((platform, scenario))
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv(PASSWORD_ENV, "lab-secret")
            known_hosts = emulator.write_known_hosts(tmp_path_factory.mktemp("ssh") / "known_hosts")
            snapshot = collect_switches(devices, concurrency=16, policy=HostKeyPolicy(known_hosts))
    assert snapshot.collection_errors == []
    by_case: dict[tuple[str, str], list] = {}
    for owner, switch in zip(owners, snapshot.switches, strict=True):
        by_case.setdefault(owner, []).append(switch)
    folder = tmp_path_factory.mktemp("e2e")
    return folder, by_case


@pytest.mark.parametrize(("platform", "scenario"), CASES)
def test_check_finds_what_the_scenario_breaks(collected, platform, scenario):
    folder, by_case = collected
    hosts = folder / f"{platform}-{scenario}-hosts.json"
    switches = folder / f"{platform}-{scenario}-switches.json"
    hosts.write_text(_host(platform).model_dump_json(), encoding="utf-8")
    switches.write_text(Snapshot(switches=by_case[(platform, scenario)]).model_dump_json(), encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["check", str(hosts), str(switches), "--format", "json"], standalone_mode=False, catch_exceptions=False
    )
    report = json.loads(result.stdout)
    codes = {f["code"] for f in report["findings"]}
    skipped = {s["code"] for s in report["skipped"]}
    assert codes & WATCHED == EXPECTED[scenario], report["findings"]
    # The join found every switch port: no LG rule was skipped for missing switch facts.
    assert not skipped & {"LG001", "LG002", "LG003", "LG004"}, report["skipped"]
