"""A vmk on a distributed switch is bounded by the switch's MTU like one on a standard vSwitch (MT001, MT004)."""

from __future__ import annotations

from hostlint.join import build_facts
from hostlint.rules import load_rules, run_rules
from hostlint.snapshot import Snapshot
from hostlint.snapshot.esxi import DistributedSwitch, DvPortgroup, DvsHostMember, EsxiHost, PhysicalNic, Teaming, Vmk

MT_RULES = [rule for rule in load_rules() if rule.code in ("MT001", "MT004")]


def _site(dvs_mtu: int) -> Snapshot:
    host = EsxiHost(
        name="esx01",
        pnics=[PhysicalNic(name="vmnic4", speed_mbps=25000), PhysicalNic(name="vmnic5", speed_mbps=25000)],
        vmks=[
            Vmk(name="vmk1", portgroup="dv-vMotion", dvswitch="DSwitch1", mtu=9000, services=["vmotion"]),
            Vmk(name="vmk10", portgroup="dv-TEP", dvswitch="DSwitch1", mtu=1600, netstack="vxlan"),
        ],
    )
    teaming = Teaming(active=["uplink1", "uplink2"])
    dvs = DistributedSwitch(
        name="DSwitch1",
        max_mtu=dvs_mtu,
        portgroups=[DvPortgroup(name="dv-vMotion", teaming=teaming), DvPortgroup(name="dv-TEP", teaming=teaming)],
        hosts=[DvsHostMember(host="esx01", uplinks={"uplink1": "vmnic4", "uplink2": "vmnic5"})],
    )
    return Snapshot(esxi_hosts=[host], distributed_switches=[dvs])


def test_vmks_on_a_1500_distributed_switch() -> None:
    facts = build_facts(_site(1500))
    assert {v.name: v.vswitch_mtu for v in facts.vmks} == {"vmk1": 1500, "vmk10": 1500}
    findings = {(f.code, f.object) for f in run_rules(MT_RULES, facts).findings}
    assert findings == {("MT001", "esx01/vmk1"), ("MT001", "esx01/vmk10"), ("MT004", "esx01/vmk10")}


def test_vmks_on_a_9000_distributed_switch() -> None:
    result = run_rules(MT_RULES, build_facts(_site(9000)))
    assert result.findings == []
    assert {(p.code, p.object) for p in result.passed} >= {("MT001", "esx01/vmk1"), ("MT004", "esx01/vmk10")}
