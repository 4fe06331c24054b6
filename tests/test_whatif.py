"""Pre-change audit (`hostlint plan`) and simulated apply of remediation plans."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from hostlint.change.setexpr import ChangeError
from hostlint.change.whatif import what_if
from hostlint.check import check_snapshot
from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.fixes.simulate import simulate
from hostlint.rules import load_rules
from hostlint.snapshot import Snapshot, load_site
from hostlint.snapshot.esxi import TeamingSet

LABS = Path(__file__).parent.parent / "fixtures" / "labs"
RULES = load_rules()


def _plain_ports_srcid() -> Snapshot:
    """The clean lab before anyone bundled anything: vSwitch1 on port ID, plain trunk ports."""
    site = load_site([LABS / "clean"])
    for switch in site.switches:
        switch.port_channels = []
        for port in switch.ports:
            port.port_channel = None
    for host in site.esxi_hosts:
        host.vswitches[1].teaming.policy = "loadbalance_srcid"
    return site


def _steps(result) -> list[tuple[str, str, str]]:
    return [(s.stage, s.device, s.change.action) for s in result.plan.steps]


def test_enabling_ip_hash_on_plain_ports_plans_switch_first() -> None:
    result = what_if(_plain_ports_srcid(), RULES, ["esx01*/vSwitch1.teaming=loadbalance_ip"])
    assert [(f.code, f.object) for f in result.introduced] == [("LG001", "esx01.lab.example.net/vSwitch1")]
    assert not result.safe_as_given and result.simulation.accepted
    # One link keeps forwarding while both ends change (KB 1022751): nx2's port is shut around them.
    assert _steps(result) == [
        ("members-down", "nx2", "switch-port-admin"),
        ("switch", "nx1", "switch-static-port-channel"),
        ("switch", "nx2", "switch-static-port-channel"),
        ("host", "esx01.lab.example.net", "host-teaming"),
        ("members-up", "nx2", "switch-port-admin"),
    ]


def test_host_first_would_have_been_an_outage() -> None:
    result = what_if(_plain_ports_srcid(), RULES, ["esx01*/vSwitch1.teaming=loadbalance_ip"])
    steps = [s.change for s in result.plan.steps]
    host = next(i for i, c in enumerate(steps) if c.action == "host-teaming")
    wrong = simulate(_plain_ports_srcid(), [steps[host], *steps[:host], *steps[host + 1 :]], RULES)
    assert not wrong.accepted
    assert wrong.first_failure.step == 1
    assert [f.code for f in wrong.first_failure.new_outages] == ["LG001"]
    right = simulate(_plain_ports_srcid(), steps, RULES)
    assert right.accepted and not [f for s in right.states for f in s.new_outages]


def test_going_back_to_port_id_is_host_first() -> None:
    site = load_site([LABS / "clean"])
    result = what_if(site, RULES, ["esx02*/vSwitch1.teaming=loadbalance_srcid"])
    assert [f.code for f in result.introduced] == ["LG006"]
    assert _steps(result) == [
        ("members-down", "nx2", "switch-port-admin"),
        ("host", "esx02.lab.example.net", "host-teaming"),
        ("switch", "nx1", "switch-remove-port-channel"),
        ("switch", "nx2", "switch-remove-port-channel"),
        ("members-up", "nx2", "switch-port-admin"),
    ]
    assert result.simulation.accepted
    reverse = [s.change for s in result.plan.steps][::-1]
    failed = simulate(site, reverse, RULES).first_failure
    assert failed is not None and "LG001" in [f.code for f in failed.new_outages]


def _non_jumbo_site() -> Snapshot:
    site = load_site([LABS / "clean"])
    for switch in site.switches:
        for item in [*switch.ports, *switch.port_channels]:
            item.mtu = 1500
    for host in site.esxi_hosts:
        host.vswitches[1].mtu = 1500
        for vmk in host.vmks:
            vmk.mtu = 1500
    return site


def test_raising_mtu_orders_switch_vswitch_vmk() -> None:
    sets = ["esx*/vmk1.mtu=9000", "esx*/vSwitch1.mtu=9000"]
    result = what_if(_non_jumbo_site(), RULES, sets)
    assert {f.code for f in result.introduced} >= {"MT002"}
    actions = [a for _, _, a in _steps(result)]
    # one switch step per port-channel and vPC peer, then every vSwitch, then every vmk
    assert actions == ["switch-port-mtu"] * 6 + ["host-vswitch-mtu"] * 3 + ["vmk-mtu"] * 3
    assert result.simulation.accepted
    changes = [s.change for s in result.plan.steps]
    vmk_first = simulate(_non_jumbo_site(), [changes[-1], *changes[:-1]], RULES)
    assert "MT001" in [f.code for f in vmk_first.first_failure.new_outages]
    vswitch_before_switch = simulate(_non_jumbo_site(), [*changes[6:9], *changes[:6], *changes[9:]], RULES)
    assert "MT002" in [f.code for f in vswitch_before_switch.first_failure.new_outages]


def test_lowering_mtu_is_vmk_then_vswitch() -> None:
    site = load_site([LABS / "clean"])
    result = what_if(site, RULES, ["esx01*/vSwitch1.mtu=1500", "esx01*/vmk1.mtu=1500"])
    assert [a for _, _, a in _steps(result)] == ["vmk-mtu", "host-vswitch-mtu"]
    assert result.simulation.accepted
    changes = [s.change for s in result.plan.steps]
    assert "MT001" in [f.code for f in simulate(site, changes[::-1], RULES).first_failure.new_outages]


def test_unknown_object_lists_close_matches() -> None:
    with pytest.raises(
        ChangeError, match=r"no object esx01\*/vSwich1 in the snapshot; close matches: .*esx01/vSwitch1"
    ):
        what_if(load_site([LABS / "clean"]), RULES, ["esx01*/vSwich1.teaming=loadbalance_ip"])
    with pytest.raises(ChangeError, match="did you mean loadbalance_ip"):
        what_if(load_site([LABS / "clean"]), RULES, ["esx01*/vSwitch1.teaming=loadbalance_iphash"])


def _cli(*args: str):
    return CliRunner().invoke(cli, list(args), standalone_mode=False, catch_exceptions=False)


def test_cli_reports_outage_and_plan_on_access_ports(tmp_path: Path) -> None:
    site_file = tmp_path / "site.json"
    site_file.write_text(_plain_ports_srcid().model_dump_json())
    run = _cli(
        "plan",
        str(site_file),
        "--set",
        "esx01*/vSwitch1.teaming=loadbalance_ip",
        "--format",
        "json",
        "--fix-script",
        str(tmp_path / "fix"),
    )
    assert run.return_value == Exit.FINDINGS
    document = json.loads(run.stdout)
    assert document["safe_as_given"] is False and document["plan_accepted"] is True
    assert [s["device"] for s in document["steps"]] == ["nx2", "nx1", "nx2", "esx01.lab.example.net", "nx2"]
    assert document["steps"][-2]["requested"] is True
    plan_md = (tmp_path / "fix" / "PLAN.md").read_text()
    assert plan_md.index("nx1") < plan_md.index("loadbalance_srcid -> loadbalance_ip")


def test_cli_static_channel_with_ip_hash_is_safe() -> None:
    run = _cli("plan", str(LABS / "port-channel-no-ip-hash"), "--set", "esx-mad1-03*/vSwitch1.teaming=loadbalance_ip")
    assert run.return_value == Exit.CLEAN
    assert "safe as given" in run.stdout and "It would clear 1: LG006" in run.stdout


def test_cli_bad_set_is_usage_error() -> None:
    run = _cli("plan", str(LABS / "clean"), "--set", "vSwitch1.teaming")
    assert run.return_value == Exit.USAGE and "expected HOST/OBJECT.FIELD=VALUE" in run.stderr


def _iscsi_site() -> Snapshot:
    """esx01 with software iSCSI bound to vmk2/vmk3 on vSwitch0, and a storage distributed switch to move to."""
    from hostlint.snapshot.esxi import (
        DistributedSwitch,
        DvPortgroup,
        DvsHostMember,
        IscsiAdapter,
        PhysicalNic,
        PortGroup,
        Teaming,
        Vmk,
    )

    site = load_site([LABS / "clean"])
    host = site.esxi_hosts[0]
    host.portgroups += [
        PortGroup(name="iSCSI-A", vswitch="vSwitch0", vlan=50, teaming=Teaming(active=["vmnic0"], unused=["vmnic1"])),
        PortGroup(name="iSCSI-B", vswitch="vSwitch0", vlan=50, teaming=Teaming(active=["vmnic1"], unused=["vmnic0"])),
    ]
    host.vmks += [
        Vmk(
            name="vmk2",
            mtu=1500,
            portgroup="iSCSI-A",
            vswitch="vSwitch0",
            ip="10.0.50.11",
            prefix=24,
            services=["iscsi"],
        ),
        Vmk(
            name="vmk3",
            mtu=1500,
            portgroup="iSCSI-B",
            vswitch="vSwitch0",
            ip="10.0.50.12",
            prefix=24,
            services=["iscsi"],
        ),
    ]
    host.pnics += [
        PhysicalNic(name="vmnic4", link_up=True, speed_mbps=25000),
        PhysicalNic(name="vmnic5", link_up=True, speed_mbps=25000),
    ]
    host.iscsi_adapters = [IscsiAdapter(name="vmhba64", bound_vmks=["vmk2", "vmk3"], targets=["10.0.50.10:3260"])]
    site.distributed_switches = [
        DistributedSwitch(
            name="DSwitch-Storage",
            max_mtu=1500,
            portgroups=[
                DvPortgroup(name="dv-iSCSI-A", teaming=Teaming(active=["uplink1"], unused=["uplink2"])),
                DvPortgroup(name="dv-iSCSI-B", teaming=Teaming(active=["uplink2"], unused=["uplink1"])),
            ],
            hosts=[DvsHostMember(host=host.name, uplinks={"uplink1": "vmnic4", "uplink2": "vmnic5"})],
        )
    ]
    return site


MOVES = ["esx01*/vmk2.portgroup=DSwitch-Storage/dv-iSCSI-A", "esx01*/vmk3.portgroup=DSwitch-Storage/dv-iSCSI-B"]


def test_moving_iscsi_paths_one_at_a_time_is_accepted() -> None:
    result = what_if(_iscsi_site(), RULES, MOVES)
    assert [s.change.target for s in result.plan.steps] == ["vmk2", "vmk3"]
    assert result.simulation.accepted
    # Each move was also checked while under way: the other path carried the I/O.
    assert [s.during for s in result.simulation.states] == [True, False, True, False]
    final = check_snapshot(result.simulation.final, RULES)
    assert not [f for f in final.findings if f.code.startswith("IS")]


def test_moving_both_iscsi_paths_at_once_is_rejected_while_under_way() -> None:
    result = what_if(_iscsi_site(), RULES, MOVES)
    first, second = (s.change for s in result.plan.steps)
    both = replace(first, target="vmk2,vmk3", values={"moves": first.values["moves"] + second.values["moves"]})
    simulation = simulate(_iscsi_site(), [both], RULES)
    assert not simulation.accepted
    failure = simulation.first_failure
    assert failure.during and [(f.code, f.object) for f in failure.new_outages] == [
        ("IS005", "esx01.lab.example.net/vmhba64")
    ]
    # Once both have arrived all is well again: only the in-between state shows the outage.
    assert not simulation.states[-1].new_outages


def test_pre_change_lab_enabling_ip_hash_reports_outage_and_switch_first_plan() -> None:
    run = _cli(
        "plan", str(LABS / "pre-change-ip-hash"), "--set", "esx01*/vSwitch1.teaming=loadbalance_ip", "--format", "json"
    )
    assert run.return_value == Exit.FINDINGS
    document = json.loads(run.stdout)
    assert [(f["code"], f["object"]) for f in document["introduced"]] == [("LG001", "esx01.lab.example.net/vSwitch1")]
    assert [(s["device"], s["action"]) for s in document["steps"]] == [
        ("nx2", "switch-port-admin"),
        ("nx1", "switch-hash"),
        ("nx1", "switch-static-port-channel"),
        ("nx2", "switch-hash"),
        ("nx2", "switch-static-port-channel"),
        ("esx01.lab.example.net", "host-teaming"),
        ("nx2", "switch-port-admin"),
    ]
    assert document["plan_accepted"] is True


# --- port groups that pin their teaming or inherit it -------------------------------------------


def _teaming_set(pinned: set[str]) -> TeamingSet:
    fields = ("policy", "failure_detection", "notify_switches", "failback", "order")
    return TeamingSet(**{name: "pinned" if name in pinned else "inherited" for name in fields})


def _pinned_srcid_site(pinned: set[str]) -> Snapshot:
    """Port ID on plain ports; esx01's VM-Prod pins `pinned` (to vSwitch1's own values), vMotion inherits."""
    site = _plain_ports_srcid()
    for pg in site.esxi_hosts[0].portgroups:
        pg.teaming_set = _teaming_set(pinned if pg.name == "VM-Prod" else set())
    return site


def _reach(result) -> dict[str, tuple[list[str], dict[str, str], list[str]]]:
    return {r.object.rsplit("/", 1)[1]: (r.follows, r.pinned, [f.code for f in r.findings]) for r in result.portgroups}


def test_pinned_port_group_keeps_port_id_when_the_vswitch_moves_to_ip_hash() -> None:
    result = what_if(_pinned_srcid_site({"policy"}), RULES, ["esx01*/vSwitch1.teaming=loadbalance_ip"])
    # No IP-hash finding for the pinned port group: it stays on port ID.
    assert [(f.code, f.object) for f in result.introduced] == [("LG001", "esx01.lab.example.net/vSwitch1")]
    assert _reach(result) == {
        "vMotion": (["policy"], {}, []),
        # Once the port-channel the vSwitch needs is built, port ID on it is LG006: that matters.
        "VM-Prod": ([], {"policy": "loadbalance_srcid"}, ["LG006"]),
    }
    # The last change before the shut channel members come back (KB 1022751).
    assert [s for s in result.plan.steps if s.stage != "members-up"][-1].change.action == "host-teaming"


def test_inheriting_port_group_follows_the_vswitch() -> None:
    result = what_if(_pinned_srcid_site(set()), RULES, ["esx01*/vSwitch1.teaming=loadbalance_ip"])
    assert _reach(result) == {"vMotion": (["policy"], {}, []), "VM-Prod": (["policy"], {}, [])}
    assert result.simulation.accepted


def test_port_group_pinning_only_the_order_follows_the_policy() -> None:
    result = what_if(_pinned_srcid_site({"order", "failback"}), RULES, ["esx01*/vSwitch1.teaming=loadbalance_ip"])
    assert _reach(result)["VM-Prod"] == (["policy"], {}, [])


def test_port_group_inheritance_not_collected_is_named(tmp_path: Path) -> None:
    site = _plain_ports_srcid()
    path = tmp_path / "site.json"
    path.write_text(site.model_dump_json())
    run = _cli("plan", str(path), "--set", "esx01*/vSwitch1.teaming=loadbalance_ip", "--format", "json")
    reaches = {r["object"]: r for r in json.loads(run.output)["portgroups"]}
    assert set(reaches) == {"esx01.lab.example.net/vSwitch1/vMotion", "esx01.lab.example.net/vSwitch1/VM-Prod"}
    assert not any(r["teaming_set_collected"] for r in reaches.values())
    human = _cli("plan", str(path), "--set", "esx01*/vSwitch1.teaming=loadbalance_ip").output
    assert "VM-Prod: which teaming fields it pins was not collected" in human


def test_cli_names_the_pinned_port_group_and_its_finding(tmp_path: Path) -> None:
    path = tmp_path / "site.json"
    path.write_text(_pinned_srcid_site({"policy"}).model_dump_json())
    run = _cli("plan", str(path), "--set", "esx01*/vSwitch1.teaming=loadbalance_ip")
    assert run.return_value == Exit.FINDINGS
    assert "vSwitch1/VM-Prod: keeps its pinned policy loadbalance_srcid: after the plan it has LG006" in run.output
    assert "vSwitch1/vMotion: follows the vSwitch in policy" in run.output
    assert "pin their teaming and have findings after the plan: esx01.lab.example.net/vSwitch1/VM-Prod" in run.output
