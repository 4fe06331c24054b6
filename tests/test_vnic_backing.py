"""A vNIC's backing decides its switch kind: a distributed port group named like a standard one is not it."""

from __future__ import annotations

from pyVmomi import vim

from hostlint.collect.vsphere.convert import virtual_machine
from hostlint.collect.vsphere.retrieve import Retrieved
from hostlint.join import build_facts
from hostlint.rules import load_rules, run_rules
from hostlint.snapshot import Snapshot
from hostlint.snapshot.esxi import (
    DistributedSwitch,
    DvPortgroup,
    DvsHostMember,
    EsxiHost,
    PortGroup,
    StandardVSwitch,
    VirtualMachine,
    VmNic,
)

VN002 = [rule for rule in load_rules() if rule.code == "VN002"]


def _card(label: str, backing) -> vim.vm.device.VirtualVmxnet3Vrdma:
    return vim.vm.device.VirtualVmxnet3Vrdma(
        key=4000, deviceInfo=vim.Description(label=label, summary=""), backing=backing
    )


def _hpc01() -> VirtualMachine:
    """What the collector makes of a VM with one PVRDMA vNIC on each kind of `RDMA` port group."""
    distributed = vim.vm.device.VirtualEthernetCard.DistributedVirtualPortBackingInfo(
        port=vim.dvs.PortConnection(switchUuid="50 1f aa", portgroupKey="dvportgroup-41")
    )
    standard = vim.vm.device.VirtualEthernetCard.NetworkBackingInfo(deviceName="RDMA")
    vm = Retrieved(
        ref=vim.VirtualMachine("vm-7"),
        props={
            "name": "hpc01",
            "config.hardware.numCPU": 4,
            "config.hardware.device": [_card("Network adapter 1", distributed), _card("Network adapter 2", standard)],
        },
    )
    return virtual_machine(vm, {"dvportgroup-41": "RDMA"})


def _site(vm: VirtualMachine) -> Snapshot:
    host = EsxiHost(
        name="esx01",
        vswitches=[StandardVSwitch(name="vSwitch2")],
        portgroups=[PortGroup(name="RDMA", vswitch="vSwitch2")],
        vms=[vm],
    )
    dvs = DistributedSwitch(
        name="DSwitch-RDMA", portgroups=[DvPortgroup(name="RDMA")], hosts=[DvsHostMember(host="esx01")]
    )
    return Snapshot(esxi_hosts=[host], distributed_switches=[dvs])


def test_collector_records_backing_kind_and_key() -> None:
    nics = _hpc01().nics
    assert [(n.model, n.portgroup, n.switch_kind, n.portgroup_key) for n in nics] == [
        ("vmxnet3vrdma", "RDMA", "distributed", "dvportgroup-41"),
        ("vmxnet3vrdma", "RDMA", "standard", None),
    ]


def test_same_name_on_both_switches_only_the_standard_backed_nic_is_flagged() -> None:
    facts = build_facts(_site(_hpc01()))
    assert [(f.label, f.switch_kind, f.portgroup_key) for f in facts.vm_nics] == [
        ("Network adapter 1", "distributed", "dvportgroup-41"),
        ("Network adapter 2", "standard", None),
    ]
    findings = run_rules(VN002, facts).findings
    assert [f.object for f in findings] == ["esx01/vm:hpc01/Network adapter 2"]


def test_older_snapshot_without_backing_is_not_guessed_when_the_name_is_on_both() -> None:
    vm = VirtualMachine(name="hpc01", nics=[VmNic(label="Network adapter 1", model="pvrdma", portgroup="RDMA")])
    (fact,) = build_facts(_site(vm)).vm_nics
    assert fact.switch_kind is None
    result = run_rules(VN002, build_facts(_site(vm)))
    # Neither a finding nor a pass: the "don't know" is a skip naming what was not read.
    assert result.findings == [] and result.passed == []
    (skipped,) = result.skipped
    assert skipped.object == "esx01/vm:hpc01/Network adapter 1"
    assert "port group RDMA is on both a standard and a distributed switch" in skipped.reason
