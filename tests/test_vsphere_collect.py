"""The vSphere collector against govmomi's vCenter simulator (sim/vcsim), over real SOAP and TLS.

Each scenario is a snapshot's ESXi part; collecting it back from the simulator must give the
same facts (the PCIe link width excepted: the vSphere API has none).
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from support import moved, vcsim
from support.vcsim import PASSWORD, SITE, launcher, needs_simulator

from hostlint.change.whatif import what_if
from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.join import build_facts
from hostlint.rules import load_rules
from hostlint.snapshot import Snapshot, load_snapshot
from hostlint.snapshot.esxi import TeamingSet

ROOT = Path(__file__).resolve().parents[1]
CLEAN_LAB = ROOT / "fixtures" / "labs" / "clean"

pytestmark = needs_simulator

# `vcsim_binary` is a fixture (tests/conftest.py). Moved to tests/support: see support/moved.py.
__getattr__ = moved.forward(vcsim, "vcsim_binary")


@pytest.fixture(scope="module")
def site_sim(vcsim_binary):
    with launcher.Simulator(vcsim_binary, SITE, password=PASSWORD) as sim:
        yield sim


def run_collect(sim, out: Path, *extra: str, password: str = PASSWORD, server: str | None = None):
    env = {"HOSTLINT_VSPHERE_PASSWORD": password}
    args = ["collect", "vsphere", "--server", server or sim.url, "--user", sim.user, "-o", str(out), *extra]
    return CliRunner().invoke(cli, args, env=env, standalone_mode=False)


@pytest.fixture(scope="module")
def site_snapshot(site_sim, tmp_path_factory) -> tuple[Snapshot, object]:
    out = tmp_path_factory.mktemp("site") / "snap.json"
    outcome = run_collect(site_sim, out, "--ca-bundle", site_sim.cert)
    return load_snapshot(out), outcome


def expected_site() -> Snapshot:
    return Snapshot.model_validate(yaml.safe_load(SITE.read_text()))


def test_maintenance_mode_is_collected_per_host(site_snapshot):
    snapshot, _ = site_snapshot
    modes = {h.name.split(".")[0]: (h.connection_state, h.in_maintenance_mode) for h in snapshot.esxi_hosts}
    assert modes == {
        "esx11": ("connected", False),
        "esx12": ("connected", True),
        "esx13": ("disconnected", False),
    }


# What identifies an object in its vCenter (ids, keys, datacenter) and what the backing says a vmk sits
# on: the server assigns them, a scenario does not say them (tests/test_vsphere_shapes.py checks them).
HOST_IDS = {"vcenter", "vcenter_uuid", "moid", "datacenter"}
VMK_IDS = ("network", "dvswitch_uuid", "portgroup_key", "dv_port", "opaque_network")


def comparable(host) -> dict:
    """A host as collected facts can be compared: no ids, no PCIe widths (not in the API), no LACP view
    (evidence the scenario need not state: tests/test_vsphere_health.py)."""
    data = host.model_dump(exclude={*HOST_IDS, "lacp_status"})
    for device in data["pci_devices"] or []:
        for key in ("width_capable", "width_negotiated", "speed_capable_gts", "speed_negotiated_gts"):
            device[key] = None
    for vmk in data["vmks"]:
        for key in VMK_IDS:
            vmk.pop(key)
    return data


def comparable_dvs(dvs) -> dict:
    """A distributed switch without the ids its vCenter gives it, nor its health check (evidence the scenario
    need not state: tests/test_vsphere_health.py)."""
    data = dvs.model_dump(exclude={"uuid", "datacenter", "vcenter", "health_check"})
    for pg in data["portgroups"]:
        pg.pop("key")
    for member in data["hosts"]:
        member.pop("host_id")
        member.pop("health")
    return data


def host_named(snapshot: Snapshot, name: str):
    return next(h for h in snapshot.esxi_hosts if h.name == name)


# --- the scenario comes back as it went in ------------------------------------------------------


def test_connected_hosts_match_the_scenario(site_snapshot):
    snapshot, _ = site_snapshot
    for want in expected_site().esxi_hosts:
        if want.connection_state != "connected":
            continue
        got = host_named(snapshot, want.name)
        assert comparable(got) == comparable(want), want.name


def test_teaming_mtu_and_effective_port_group_policy(site_snapshot):
    host = host_named(site_snapshot[0], "esx11.vsphere.example.net")
    vswitches = {vs.name: vs for vs in host.vswitches}
    assert vswitches["vSwitch1"].teaming.policy == "loadbalance_ip"
    assert vswitches["vSwitch1"].mtu == 9000
    assert vswitches["vSwitch0"].teaming.failure_detection == "beacon"
    assert vswitches["vSwitch0"].teaming.standby == ["vmnic1"]
    portgroups = {pg.name: pg for pg in host.portgroups}
    assert portgroups["vMotion"].teaming is None  # inherits the vSwitch's
    assert portgroups["iSCSI-A"].teaming.active == ["vmnic8"]
    assert portgroups["iSCSI-A"].teaming.unused == ["vmnic9"]


def _set_fields(pg) -> dict[str, str]:
    return dataclasses.asdict(pg.teaming_set)


def test_port_group_teaming_pinned_or_inherited_per_field(site_snapshot):
    host = host_named(site_snapshot[0], "esx11.vsphere.example.net")
    portgroups = {pg.name: pg for pg in host.portgroups}
    # Same effective policy as vSwitch1 (so no teaming of its own), but every field pinned.
    assert portgroups["VM-Prod"].teaming is None
    assert set(_set_fields(portgroups["VM-Prod"]).values()) == {"pinned"}
    assert set(_set_fields(portgroups["vMotion"]).values()) == {"inherited"}
    assert _set_fields(portgroups["iSCSI-A"]) == {
        "policy": "inherited",
        "failure_detection": "inherited",
        "notify_switches": "inherited",
        "failback": "inherited",
        "order": "pinned",
    }


def test_plan_on_the_collected_snapshot_keeps_the_pinned_port_group(site_snapshot):
    snapshot, _ = site_snapshot
    result = what_if(snapshot, load_rules(), ["esx11*/vSwitch1.teaming=loadbalance_srcid"])
    reach = {r.object.rsplit("/", 1)[1]: (r.follows, r.pinned) for r in result.portgroups}
    assert reach == {"vMotion": (["policy"], {}), "VM-Prod": ([], {"policy": "loadbalance_ip"})}


def test_speeds_neighbours_services_and_iscsi(site_snapshot):
    host = host_named(site_snapshot[0], "esx11.vsphere.example.net")
    pnics = {p.name: p for p in host.pnics}
    assert (pnics["vmnic1"].speed_mbps, pnics["vmnic1"].configured_speed_mbps) == (1000, 1000)
    assert pnics["vmnic0"].configured_speed_mbps is None  # auto-negotiate
    assert pnics["vmnic9"].link_up is False and pnics["vmnic9"].speed_mbps is None
    assert pnics["vmnic2"].neighbour.protocol == "cdp"
    assert pnics["vmnic2"].neighbour.port_id == "TenGigabitEthernet1/1/1"
    assert pnics["vmnic4"].neighbour.protocol == "lldp"
    assert pnics["vmnic4"].neighbour.system_name == "leaf1.example.net"
    vmks = {v.name: v for v in host.vmks}
    assert vmks["vmk1"].services == ["vmotion", "vSphereProvisioning"]
    assert (vmks["vmk4"].dvswitch, vmks["vmk4"].portgroup) == ("dvs-prod", "dvpg-nfs")
    assert host.iscsi_adapters[0].bound_vmks == ["vmk2", "vmk3"]
    dependent = host_named(site_snapshot[0], "esx12.vsphere.example.net").iscsi_adapters[0]
    assert (dependent.kind, dependent.pnic) == ("dependent", "vmnic6")


def test_distributed_switch_lags_and_uplinks(site_snapshot):
    snapshot, _ = site_snapshot
    assert [comparable_dvs(d) for d in snapshot.distributed_switches] == [
        comparable_dvs(d) for d in expected_site().distributed_switches
    ]
    dvs = snapshot.distributed_switches[0]
    assert (dvs.max_mtu, dvs.lacp_api_version) == (9000, "multipleLag")
    assert dvs.lags[0].load_balance == "srcDestIp"
    assert next(pg for pg in dvs.portgroups if pg.name == "dvpg-lag").uplink_lag == "lag1"
    assert [(pg.name, pg.vlan) for pg in dvs.portgroups if pg.uplink] == [("dvs-prod-uplinks", 4095)]
    # The uplink port group is no team: each member host has one per VM/vmk port group only.
    teams = [t.object for t in build_facts(snapshot).teams if t.kind == "dvs-portgroup" and t.host.startswith("esx11")]
    assert teams == [
        f"esx11.vsphere.example.net/dvs-prod/{name}" for name in ("dvpg-vm", "dvpg-lag", "dvpg-nfs", "dvpg-guest-trunk")
    ]
    # VLAN settings as the API holds them: one VLAN, or a VLAN trunk with its ranges
    vlans = {pg.name: (pg.vlan, pg.vlan_spec, pg.trunk_ranges) for pg in dvs.portgroups}
    assert vlans["dvpg-vm"] == (200, "vlan", None)
    assert vlans["dvpg-guest-trunk"] == (4095, "trunk", [(300, 310), (400, 400)])
    # each member host's proxy switch MTU, as the host has it (esx12's has not taken the switch's 9000)
    assert [(m.host.split(".")[0], m.mtu) for m in dvs.hosts] == [("esx11", 9000), ("esx12", 1500)]


def test_vms_and_their_vnics_give_the_vnic_and_vm_advisories(site_snapshot, tmp_path):
    host = host_named(site_snapshot[0], "esx11.vsphere.example.net")
    app01 = next(vm for vm in host.vms if vm.name == "app01")
    assert (app01.vcpus, app01.cpu_hot_add) == (12, True)
    assert [(n.model, n.portgroup) for n in app01.nics] == [("e1000e", "VM-Prod"), ("vmxnet3", "dvpg-vm")]
    path = tmp_path / "snap.json"
    path.write_text(site_snapshot[0].model_dump_json())
    args = ["check", str(path), "--select", "VN001,VM001", "--profile", "strict", "--format", "json"]
    report = json.loads(CliRunner().invoke(cli, args, standalone_mode=False).stdout)
    assert sorted((f["code"], f["object"]) for f in report["findings"]) == [
        ("VM001", "esx11.vsphere.example.net/vm:app01"),
        ("VN001", "esx11.vsphere.example.net/vm:app01/Network adapter 1"),
    ]


# --- a disconnected host ------------------------------------------------------------------------


def test_disconnected_host_is_marked_and_the_rest_collected(site_snapshot):
    snapshot, outcome = site_snapshot
    assert outcome.return_value == Exit.PARTIAL
    assert len(snapshot.esxi_hosts) == 3
    assert host_named(snapshot, "esx13.vsphere.example.net").connection_state == "disconnected"
    assert [e.target for e in snapshot.collection_errors] == ["esx13.vsphere.example.net"]
    assert "hostlint: esx13.vsphere.example.net: host is disconnected" in outcome.stderr


def test_disconnected_host_rules_are_skipped(site_snapshot, tmp_path):
    snapshot, _ = site_snapshot
    path = tmp_path / "snap.json"
    path.write_text(snapshot.model_dump_json())
    outcome = CliRunner().invoke(cli, ["check", str(path), "--format", "json"], standalone_mode=False)
    report = json.loads(outcome.stdout)
    skipped = [s for s in report["skipped"] if s["object"].startswith("esx13.vsphere.example.net")]
    assert skipped, "rules on the disconnected host must be reported skipped"
    assert all("disconnected" in s["reason"] for s in skipped)
    assert not [f for f in report["findings"] if f["object"].startswith("esx13")]
    assert outcome.return_value == Exit.PARTIAL


# --- credentials and TLS ------------------------------------------------------------------------


def test_wrong_password_is_one_clear_error_exit_2(site_sim, tmp_path):
    out = tmp_path / "snap.json"
    env = {**os.environ, "HOSTLINT_VSPHERE_PASSWORD": "not-the-password"}
    done = subprocess.run(
        [sys.executable, "-c", "from hostlint.cli.main import main; main()", "collect", "vsphere",
         "--server", site_sim.url, "--ca-bundle", site_sim.cert, "-o", str(out)],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == Exit.USAGE
    assert done.stderr.strip().splitlines() == [
        f"hostlint: 127.0.0.1:{site_sim.port}: login failed for user 'administrator@vsphere.local': "
        "wrong user name or password"
    ]
    assert "not-the-password" not in done.stderr + done.stdout
    assert not out.exists()


def test_self_signed_certificate_refused_without_insecure(site_sim, tmp_path):
    outcome = run_collect(site_sim, tmp_path / "snap.json")
    assert outcome.return_value == Exit.USAGE
    assert "certificate not trusted" in outcome.output
    assert "--insecure" in outcome.output


def test_insecure_accepts_the_self_signed_certificate(site_sim, tmp_path):
    out = tmp_path / "snap.json"
    outcome = run_collect(site_sim, out, "--insecure", server=f"127.0.0.1:{site_sim.port}")
    assert outcome.return_value == Exit.PARTIAL  # esx13 is disconnected
    assert PASSWORD not in out.read_text()


def test_no_password_without_a_terminal_is_a_usage_error(site_sim, tmp_path):
    args = ["collect", "vsphere", "--server", site_sim.url, "--insecure", "-o", str(tmp_path / "s.json")]
    outcome = CliRunner().invoke(cli, args, env={"HOSTLINT_VSPHERE_PASSWORD": ""}, standalone_mode=False)
    assert outcome.return_value == Exit.USAGE
    assert "HOSTLINT_VSPHERE_PASSWORD" in outcome.stderr
    assert not (tmp_path / "s.json").exists()


# --- end to end: vCenter + switches -> the IP-hash finding ---------------------------------------


@pytest.fixture(scope="module")
def clean_lab_snapshot(vcsim_binary, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("clean") / "vsphere.json"
    with launcher.Simulator(vcsim_binary, CLEAN_LAB / "hosts.json", password=PASSWORD) as sim:
        outcome = run_collect(sim, out, "--ca-bundle", sim.cert)
    assert outcome.return_value == Exit.CLEAN, outcome.output
    return out


def _check(*paths: Path) -> tuple[int, dict]:
    outcome = CliRunner().invoke(cli, ["check", *map(str, paths), "--format", "json"], standalone_mode=False)
    return outcome.return_value, json.loads(outcome.stdout)


def test_collected_clean_lab_with_its_switches_is_clean(clean_lab_snapshot):
    code, report = _check(clean_lab_snapshot, CLEAN_LAB / "switches.json")
    assert code == Exit.CLEAN, report


def test_port_removed_from_its_port_channel_gives_lg001(clean_lab_snapshot, tmp_path):
    switches = json.loads((CLEAN_LAB / "switches.json").read_text())
    nx1 = next(s for s in switches["switches"] if s["name"] == "nx1")
    port = next(p for p in nx1["ports"] if p["name"] == "Ethernet1/11")
    channel = next(c for c in nx1["port_channels"] if c["name"] == port["port_channel"])
    channel["members"].remove("Ethernet1/11")
    port["port_channel"] = None
    broken = tmp_path / "switches.json"
    broken.write_text(json.dumps(switches))

    code, report = _check(clean_lab_snapshot, broken)
    assert code == Exit.FINDINGS
    lg001 = [f for f in report["findings"] if f["code"] == "LG001"]
    assert [f["object"] for f in lg001] == ["esx01.lab.example.net/vSwitch1"]


def test_check_vsphere_collects_live_and_checks_with_switch_data(vcsim_binary, tmp_path):
    """`hostlint check --vsphere`: collect and check in one go, merged with a switch snapshot."""
    switches = json.loads((CLEAN_LAB / "switches.json").read_text())
    nx2 = next(s for s in switches["switches"] if s["name"] == "nx2")
    for item in [*nx2["ports"], *nx2["port_channels"]]:
        item["mtu"] = 1500
    jumbo_broken = tmp_path / "switches.json"
    jumbo_broken.write_text(json.dumps(switches))
    with launcher.Simulator(vcsim_binary, CLEAN_LAB / "hosts.json", password=PASSWORD) as sim:
        args = [
            "check",
            str(jumbo_broken),
            "--vsphere",
            sim.url,
            "--vsphere-user",
            sim.user,
            "--ca-bundle",
            str(sim.cert),
        ]
        outcome = CliRunner().invoke(
            cli, [*args, "--format", "json"], env={"HOSTLINT_VSPHERE_PASSWORD": PASSWORD}, standalone_mode=False
        )
        refused = CliRunner().invoke(cli, args[:6], env={"HOSTLINT_VSPHERE_PASSWORD": PASSWORD}, standalone_mode=False)
    assert outcome.return_value == Exit.FINDINGS, outcome.output
    findings = json.loads(outcome.stdout)["findings"]
    assert sorted({(f["code"], f["object"].split(".")[0]) for f in findings}) == [
        ("MT002", "esx01"),
        ("MT002", "esx02"),
        ("MT002", "esx03"),
    ]
    assert refused.return_value == Exit.USAGE  # the simulator's self-signed certificate, not trusted by default


# --- a standalone ESXi host (no vCenter) ---------------------------------------------------------


def test_standalone_esxi_host(vcsim_binary, tmp_path):
    lab = load_snapshot(CLEAN_LAB / "hosts.json")
    # The lab does not say; a standalone host serving the API is in maintenance mode or not, here not.
    lab.esxi_hosts[0].in_maintenance_mode = False
    # Nor which teaming fields its port groups pin: the simulator pins every field of a port group
    # with a teaming of its own, none of one without.
    for pg in lab.esxi_hosts[0].portgroups:
        how = "pinned" if pg.teaming is not None else "inherited"
        pg.teaming_set = TeamingSet(policy=how, failure_detection=how, notify_switches=how, failback=how, order=how)
    scenario = tmp_path / "one-host.json"
    scenario.write_text(Snapshot(esxi_hosts=lab.esxi_hosts[:1]).model_dump_json())
    out = tmp_path / "esx.json"
    with launcher.Simulator(vcsim_binary, scenario, password=PASSWORD, user="root", extra_args=("-esx",)) as sim:
        outcome = run_collect(sim, out, "--ca-bundle", sim.cert)
    assert outcome.return_value == Exit.CLEAN, outcome.output
    host = load_snapshot(out).esxi_hosts[0]
    assert host.vcenter is None
    assert comparable(host) == comparable(lab.esxi_hosts[0])


def test_simulator_stops_cleanly_on_sigterm(vcsim_binary):
    sim = launcher.Simulator(vcsim_binary, SITE, password=PASSWORD)
    with sim:
        assert sim.url.startswith("https://127.0.0.1:")
        assert Path(sim.cert).read_text().startswith("-----BEGIN CERTIFICATE-----")
    assert sim.stop() == 0
    assert not Path(sim.cert).exists()  # its temporary folder is gone
