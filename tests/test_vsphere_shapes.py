"""Shapes real vCenters return and govmomi's simulator never does (fixtures/vsphere/shapes/, a scenario
each), served by sim/vcsim over real SOAP and TLS: `collect vsphere` records every host, guesses no value and names
each gap (exit 3); `check` gives the right findings (no MT008 across two datacenters' `DSwitch`, no LG002
on basic LACP, a Junos ifIndex port joined through the LLDP Port Description)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from support.vcsim import launcher, needs_simulator

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.join import build_facts
from hostlint.snapshot import Snapshot, load_site, load_snapshot

ROOT = Path(__file__).resolve().parents[1]
SHAPES = sorted((ROOT / "fixtures" / "vsphere" / "shapes").glob("*.yaml"))
# Each scenario alone: the hosts it has, and whether the collection is complete (0) or names a gap (3).
ALONE = {
    "basic-lacp": (["esx24"], Exit.CLEAN),
    "dv-port-without-portgroup": (["esx27"], Exit.PARTIAL),
    "dvs-no-config": (["esx29"], Exit.PARTIAL),
    "junos-port-description": (["esx23"], Exit.CLEAN),
    "lag-no-port-count": (["esx30"], Exit.PARTIAL),
    "lldp-multiline": (["esx21"], Exit.CLEAN),
    "no-config-network": (["esx25"], Exit.PARTIAL),
    "nsx": (["esx26"], Exit.CLEAN),
    "same-name-dswitch": (["esx22", "esx28"], Exit.CLEAN),
}
SWITCHES = ROOT / "fixtures" / "vsphere" / "shapes-switches.json"
CLEAN_LAB = ROOT / "fixtures" / "labs" / "clean"
PASSWORD = "shapes-secret"

pytestmark = needs_simulator


def collect(binary: Path, scenario: Path, out: Path):
    with launcher.Simulator(binary, scenario, password=PASSWORD) as sim:
        args = ["collect", "vsphere", "--server", sim.url, "--user", sim.user, "--ca-bundle", sim.cert, "-o", str(out)]
        return CliRunner().invoke(cli, args, env={"HOSTLINT_VSPHERE_PASSWORD": PASSWORD}, standalone_mode=False)


def all_shapes() -> dict:
    """Every scenario of fixtures/vsphere/shapes/ as one inventory (their names do not collide)."""
    merged: dict = {"esxi_hosts": [], "distributed_switches": [], "unset": []}
    for path in SHAPES:
        for key, items in yaml.safe_load(path.read_text()).items():
            merged[key] += items
    return merged


@pytest.fixture(scope="module")
def shapes(vcsim_binary, tmp_path_factory) -> tuple[Path, object]:
    folder = tmp_path_factory.mktemp("shapes")
    scenario = folder / "all.yaml"
    scenario.write_text(yaml.safe_dump(all_shapes()))
    out = folder / "snap.json"
    return out, collect(vcsim_binary, scenario, out)


def test_the_simulator_serves_each_shape_alone(vcsim_binary, tmp_path):
    assert sorted(path.stem for path in SHAPES) == sorted(ALONE)
    for path in SHAPES:
        hosts, code = ALONE[path.stem]
        out = tmp_path / f"{path.stem}.json"
        outcome = collect(vcsim_binary, path, out)
        assert outcome.return_value == code, (path.stem, outcome.output)
        assert sorted(h.name.split(".")[0] for h in load_snapshot(out).esxi_hosts) == hosts, path.stem


def check(*paths: Path) -> tuple[int, dict]:
    args = ["check", *(str(p) for p in paths), "--format", "json", "--profile", "strict"]
    outcome = CliRunner().invoke(cli, args, standalone_mode=False)
    return outcome.return_value, json.loads(outcome.stdout)


def host(snapshot: Snapshot, short: str):
    return next(h for h in snapshot.esxi_hosts if h.name.startswith(short + "."))


def dvs(snapshot: Snapshot, name: str, datacenter: str = "DC0"):
    return next(d for d in snapshot.distributed_switches if d.name == name and d.datacenter == datacenter)


def errors_of(snapshot: Snapshot, target: str) -> list[str]:
    return [e.reason for e in snapshot.collection_errors if e.target.startswith(target)]


# --- collection: every host recorded, no value guessed, every gap named ------------------------------


def test_every_host_is_recorded_and_each_gap_is_a_named_collection_error(shapes):
    out, outcome = shapes
    assert outcome.return_value == Exit.PARTIAL, outcome.output
    assert "Traceback" not in outcome.output
    snapshot = load_snapshot(out)
    assert sorted(h.name.split(".")[0] for h in snapshot.esxi_hosts) == sorted(
        name for hosts, _ in ALONE.values() for name in hosts
    )
    assert sorted(d.name for d in snapshot.distributed_switches) == [
        "DSwitch",
        "DSwitch",
        "DSwitch-Basic",
        "DSwitch-Lag",
        "DSwitch-NSX",
        "DSwitch-NoConfig",
        "DSwitch-Ports",
    ]
    # The terminal says each gap on one line, naming host or switch.
    assert "esx25.shapes.example: config.network not returned" in outcome.output
    assert "DSwitch-NoConfig: distributed switch config not returned" in outcome.output


def test_multi_line_lldp_and_cdp_text_is_kept_escaped_never_refused(shapes):
    snapshot = load_snapshot(shapes[0])
    nics = {nic.name: nic for nic in host(snapshot, "esx21").pnics}
    lldp, cdp = nics["vmnic1"].neighbour, nics["vmnic0"].neighbour
    assert lldp.protocol == "lldp" and lldp.system_name == "leaf-21"
    assert lldp.platform == (
        "Cisco Nexus Operating System (NX-OS) Software 10.2(5)\\nTAC support: http://www.cisco.com/tac\\n"
        "Copyright (c) 2002-2023, Cisco Systems, Inc. All rights reserved."
    )
    assert cdp.platform == (
        "cisco C9300-48P\\nCisco IOS Software [Cupertino], Catalyst L3 Switch Software\\r\\nVersion 17.9.4"
    )
    # No control character is written: the file is one line per value, as a reader sees it.
    assert "\n" not in lldp.platform and "\r" not in cdp.platform
    assert lldp.port_description == "esx21 vmnic1\tvSwitch0"
    # Reading the snapshot again changes nothing (escaping is idempotent).
    assert load_snapshot(shapes[0]) == snapshot


def test_vmks_on_nsx_on_a_portless_dv_port_and_on_an_opaque_network_are_their_own_kind(shapes):
    snapshot = load_snapshot(shapes[0])
    vmks = {vmk.name: vmk for name in ("esx26", "esx27") for vmk in host(snapshot, name).vmks}
    switch = dvs(snapshot, "DSwitch-NSX")
    nsx_pg = next(pg for pg in switch.portgroups if pg.name == "nsx-overlay-tep")
    # An NSX port group: its teaming and VLAN are NSX's, unknown here (never vCenter's defaults).
    assert (nsx_pg.backing, nsx_pg.teaming, nsx_pg.vlan) == ("nsx", None, None)
    assert nsx_pg.key and nsx_pg.key.startswith("dvportgroup-")
    tep = vmks["vmk10"]
    assert (tep.network, tep.portgroup, tep.portgroup_key, tep.dvswitch_uuid) == (
        "nsx",
        "nsx-overlay-tep",
        nsx_pg.key,
        switch.uuid,
    )
    segment, unlisted = vmks["vmk11"], vmks["vmk12"]
    assert (segment.network, segment.portgroup, segment.opaque_network) == (
        "opaque",
        "seg-storage",
        "7f3c1a52-4c1e-4d67-9a55-2b8f1c0e6d10",
    )
    assert (unlisted.network, unlisted.portgroup, unlisted.opaque_network) == (
        "opaque",
        None,
        "0b6e44c1-93d2-4a8e-8f0e-5d1c2a7b9e31",
    )
    portless = vmks["vmk2"]
    assert (portless.network, portless.portgroup, portless.dvswitch, portless.dv_port) == (
        "distributed",
        None,
        "DSwitch-Ports",
        "100",
    )
    assert errors_of(snapshot, "esx27") == [
        "vmk2: on distributed port 100 of DSwitch-Ports, which belongs to no port group; the port's own teaming "
        "and VLAN are not read"
    ]


def test_a_host_without_config_network_keeps_its_pci_devices_and_is_named(shapes):
    snapshot = load_snapshot(shapes[0])
    esx25 = host(snapshot, "esx25")
    assert esx25.connection_state == "connected"
    assert [d.address for d in esx25.pci_devices] == ["0000:86:00.0", "0000:86:00.1"]
    assert (esx25.vswitches, esx25.pnics, esx25.vmks) == ([], [], [])
    assert errors_of(snapshot, "esx25") == [
        "config.network not returned: the host's networking (vSwitches, port groups, vmks, pNICs) is unknown, not empty"
    ]


def test_a_switch_without_config_and_a_lag_without_port_count_are_unknown_not_defaults(shapes):
    snapshot = load_snapshot(shapes[0])
    noconfig = dvs(snapshot, "DSwitch-NoConfig")
    assert (noconfig.max_mtu, noconfig.lacp_api_version, noconfig.lags, noconfig.discovery) == (None, None, [], None)
    assert [m.host.split(".")[0] for m in noconfig.hosts] == ["esx29"]  # its members are still known
    assert errors_of(snapshot, "DSwitch-NoConfig") == [
        "distributed switch config not returned: its MTU, LACP, LAGs, uplink names and discovery protocol are unknown"
    ]
    lag = dvs(snapshot, "DSwitch-Lag").lags[0]
    assert (lag.name, lag.mode, lag.load_balance, lag.uplink_count) == ("lag1", "active", "srcDestIp", None)
    assert errors_of(snapshot, "DSwitch-Lag") == ["LAG lag1: uplinkNum not reported; its port count is unknown"]


def test_objects_carry_their_stable_ids(shapes):
    snapshot = load_snapshot(shapes[0])
    assert snapshot.schema_version == 3
    vcenters = {h.vcenter_uuid for h in snapshot.esxi_hosts}
    assert len(vcenters) == 1 and None not in vcenters
    assert len({h.moid for h in snapshot.esxi_hosts}) == len(snapshot.esxi_hosts) == 10
    east, west = dvs(snapshot, "DSwitch", "DC-East"), dvs(snapshot, "DSwitch")
    assert east.uuid != west.uuid and None not in (east.uuid, west.uuid)
    assert host(snapshot, "esx22").datacenter == "DC-East"
    assert [(m.host.split(".")[0], m.host_id) for m in east.hosts] == [("esx22", host(snapshot, "esx22").moid)]


# --- check: the right findings on these shapes -------------------------------------------------------


@pytest.fixture(scope="module")
def checked(shapes) -> tuple[int, dict]:
    return check(shapes[0], SWITCHES)


def test_check_on_the_shapes_exits_3_without_false_mt008_or_lg002(checked):
    code, report = checked
    assert code == Exit.PARTIAL  # the collection errors
    codes = {(f["code"], f["object"].split(".")[0]) for f in report["findings"]}
    assert not {c for c in codes if c[0] in ("MT008", "LG002")}, codes
    targets = {e["target"].split(".")[0] for e in report["collection_errors"]}
    assert {"esx27", "esx25", "DSwitch-NoConfig", "DSwitch-Lag"} <= targets


def test_nsx_and_portless_vmks_are_named_skips_not_passes(checked):
    _, report = checked
    skipped = {(s["code"], s["object"]): s["reason"] for s in report["skipped"]}
    assert (
        "is on NSX port group nsx-overlay-tep: its uplinks, teaming and MTU are NSX's"
        in skipped[("MT001", "esx26.shapes.example/vmk10")]
    )
    assert "is on NSX segment seg-storage: its uplinks" in skipped[("MT001", "esx26.shapes.example/vmk11")]
    assert "is on NSX segment 0b6e44c1-93d2" in skipped[("MT001", "esx26.shapes.example/vmk12")]
    assert "which belongs to no port group" in skipped[("MT001", "esx27.shapes.example/vmk2")]
    # The LAG without a port count skips the rule that compares it, naming the API property.
    assert "VMwareDvsLacpGroupConfig.uplinkNum" in skipped[("LG009", "esx30.shapes.example/DSwitch-Lag/dvpg-lag")]


def test_junos_ifindex_port_ids_join_through_the_lldp_port_description(shapes):
    facts = build_facts(load_site([shapes[0], SWITCHES]))
    joined = {
        u.nic: (u.switch, u.port) for u in facts.uplinks if u.host.startswith("esx23") and u.nic in ("vmnic0", "vmnic1")
    }
    assert joined == {"vmnic0": ("qfx-b", "xe-0/0/5"), "vmnic1": ("qfx-b", "xe-0/0/6")}
    # Without the description the ifIndex ("517") names no port: the uplink stays unresolved.
    raw = json.loads(shapes[0].read_text())
    for h in raw["esxi_hosts"]:
        for nic in h["pnics"]:
            if nic.get("neighbour"):
                nic["neighbour"]["port_description"] = None
    bare = load_site([SWITCHES])
    bare.esxi_hosts = Snapshot.model_validate(raw).esxi_hosts
    unresolved = {u.object for u in build_facts(bare).unresolved}
    assert "esx23.shapes.example/vmnic0" in unresolved


def test_basic_lacp_is_a_lag_and_turned_off_it_is_lg002(checked, vcsim_binary, tmp_path):
    _, report = checked
    assert not [f for f in report["findings"] if f["code"] == "LG002"]
    # The same switch with LACP off on the uplink port group is IP hash facing an LACP channel: LG002.
    scenario = yaml.safe_load((ROOT / "fixtures" / "vsphere" / "shapes" / "basic-lacp.yaml").read_text())
    next(pg for pg in scenario["distributed_switches"][0]["portgroups"] if pg.get("uplink"))["lacp"] = "off"
    path = tmp_path / "lacp-off.yaml"
    path.write_text(yaml.safe_dump(scenario))
    out = tmp_path / "off.json"
    assert collect(vcsim_binary, path, out).return_value == Exit.CLEAN
    _, off = check(out, SWITCHES)
    assert {f["object"] for f in off["findings"] if f["code"] == "LG002"} == {
        "esx24.shapes.example/DSwitch-Basic/dvpg-basic"
    }


def test_same_named_switches_in_two_datacenters_stay_two(shapes):
    """Joined by UUID, each host meets its own DSwitch. By name (a snapshot without ids, as before
    version 3) esx22 would be compared with the other datacenter's 9000: the false MT008."""
    facts = build_facts(load_snapshot(shapes[0]))
    proxies = {t.object: (t.mtu, t.proxy_mtu) for t in facts.teams if t.kind == "dvs" and t.vswitch == "DSwitch"}
    assert proxies == {"esx28.shapes.example/DSwitch": (9000, 9000), "esx22.shapes.example/DSwitch": (1500, 1500)}
    raw = json.loads(shapes[0].read_text())
    for switch in raw["distributed_switches"]:
        switch["uuid"] = None
        for member in switch["hosts"]:
            member["host_id"] = None
    by_name = build_facts(Snapshot.model_validate(raw))
    mismatched = {t.object for t in by_name.teams if t.kind == "dvs" and t.proxy_mtu != t.mtu}
    assert "esx22.shapes.example/DSwitch" in mismatched


# --- several vCenters: one scan, objects told apart ---------------------------------------------------


def test_a_scan_of_two_vcenters_sharing_host_names_merges_and_stores_one_scan(vcsim_binary, tmp_path):
    scenario = CLEAN_LAB / "hosts.json"
    env = {"HOSTLINT_VSPHERE_PASSWORD": PASSWORD}
    with (
        launcher.Simulator(vcsim_binary, scenario, password=PASSWORD) as first,
        launcher.Simulator(vcsim_binary, scenario, password=PASSWORD) as second,
    ):
        inventory = tmp_path / "scan.yaml"
        inventory.write_text(
            yaml.safe_dump(
                {
                    "vsphere": [
                        {"server": sim.url, "user": sim.user, "ca_bundle": str(sim.cert)} for sim in (first, second)
                    ],
                    "snapshots": [str(CLEAN_LAB / "switches.json")],
                }
            )
        )
        db = f"sqlite:///{tmp_path / 'history.sqlite'}"
        run = CliRunner().invoke(
            cli, ["scan", "--inventory", str(inventory), "--db", db], env=env, standalone_mode=False
        )
        parts = []
        for index, sim in enumerate((first, second)):
            part = tmp_path / f"vc{index}.json"
            args = [
                "collect",
                "vsphere",
                "--server",
                sim.url,
                "--user",
                sim.user,
                "--ca-bundle",
                sim.cert,
                "-o",
                str(part),
            ]
            assert CliRunner().invoke(cli, args, env=env, standalone_mode=False).return_value == Exit.CLEAN
            parts.append(part)
    # Before identity by id this was refused whole (exit 2, nothing stored).
    assert run.return_value == Exit.CLEAN, run.output
    history = CliRunner().invoke(cli, ["history", "--db", db, "--format", "json"], standalone_mode=False)
    scans = json.loads(history.stdout)["scans"]
    assert len(scans) == 1 and scans[0]["counts"]["collection_errors"] == 0
    # Each vCenter's host is its own object; where two share a name, findings qualify it by its vCenter.
    site = load_site([*parts, CLEAN_LAB / "switches.json"])
    names = sorted({h.name for h in site.esxi_hosts})
    assert len(site.esxi_hosts) == 2 * len(names)
    assert len({(h.vcenter_uuid, h.moid) for h in site.esxi_hosts}) == len(site.esxi_hosts)
    shown = {t.host for t in build_facts(site).teams}
    servers = {sim.url.split("://")[1].split("/")[0] for sim in (first, second)}
    assert shown == {f"{name}@{server}" for name in names for server in servers}
