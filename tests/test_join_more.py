"""The join for distributed switch LAGs, vmk paths and segments, iSCSI binding, PCIe and VMs."""

from __future__ import annotations

from support.join_builders import cdp, nxos_switch

from hostlint.join import build_facts
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import PciLink
from hostlint.snapshot.esxi import (
    DistributedSwitch,
    DvPortgroup,
    DvsHostMember,
    EsxiHost,
    IscsiAdapter,
    Lag,
    PhysicalNic,
    PortGroup,
    StandardVSwitch,
    Teaming,
    VirtualMachine,
    Vmk,
    VmNic,
)


def _esx(name: str, vmk_mtu: int = 9000, **kw) -> EsxiHost:
    return EsxiHost(
        name=name,
        vswitches=[
            StandardVSwitch(
                name="vSwitch1", mtu=9000, uplinks=["vmnic2", "vmnic3"], teaming=Teaming(active=["vmnic2", "vmnic3"])
            )
        ],
        portgroups=[
            PortGroup(name="vMotion", vswitch="vSwitch1", vlan=20),
            PortGroup(
                name="iSCSI-A", vswitch="vSwitch1", vlan=50, teaming=Teaming(active=["vmnic2"], unused=["vmnic3"])
            ),
            PortGroup(
                name="iSCSI-B", vswitch="vSwitch1", vlan=50, teaming=Teaming(active=["vmnic2"], standby=["vmnic3"])
            ),
        ],
        vmks=[
            Vmk(name="vmk1", portgroup="vMotion", mtu=vmk_mtu, ip="10.0.20.11", prefix=24, services=["vmotion"]),
            Vmk(name="vmk2", portgroup="iSCSI-A", mtu=9000, ip="10.0.50.11", prefix=24, services=["iscsi"]),
            Vmk(name="vmk3", portgroup="iSCSI-B", mtu=9000, ip="10.0.50.12", prefix=24, services=["iscsi"]),
        ],
        pnics=[
            PhysicalNic(
                name="vmnic2", link_up=True, pci="0000:3b:00.0", speed_mbps=10000, neighbour=cdp("nx1", "Eth1/11")
            ),
            PhysicalNic(
                name="vmnic3", link_up=True, pci="0000:3b:00.1", speed_mbps=10000, neighbour=cdp("nx1", "Eth1/12")
            ),
        ],
        **kw,
    )


def _nx1() -> list:
    return [nxos_switch("nx1", {"Ethernet1/11": None, "Ethernet1/12": None})]


def test_vmk_path_segment_and_team() -> None:
    snap = Snapshot(esxi_hosts=[_esx("esx01"), _esx("esx02"), _esx("esx03", vmk_mtu=1500)], switches=_nx1())
    vmks = {v.object: v for v in build_facts(snap).vmks}
    odd = vmks["esx03/vmk1"]
    assert (odd.vlan, odd.network, odd.segment_mtus, odd.segment_mtu) == (20, "10.0.20.0/24", [1500, 9000], 9000)
    assert odd.path_mtu == 9216 and odd.path == ["vmnic2 -> nx1 Ethernet1/11", "vmnic3 -> nx1 Ethernet1/12"]
    iscsi_b = vmks["esx01/vmk3"]
    assert (iscsi_b.active, iscsi_b.standby) == (["vmnic2"], ["vmnic3"])


def test_iscsi_binding_facts() -> None:
    host = _esx(
        "esx01",
        iscsi_adapters=[
            IscsiAdapter(name="vmhba64", bound_vmks=["vmk2", "vmk3", "vmk9"], targets=["10.0.50.10:3260", "10.0.60.10"])
        ],
    )
    fact = build_facts(Snapshot(esxi_hosts=[host], switches=_nx1())).iscsi[0]
    assert fact.object == "esx01/vmhba64" and fact.unknown_vmks == ["vmk9"]
    assert [(b.name, b.active, b.standby) for b in fact.bound] == [
        ("vmk2", ["vmnic2"], []),
        ("vmk3", ["vmnic2"], ["vmnic3"]),
    ]
    assert fact.shared_uplinks == ["vmnic2"]
    assert fact.bound[0].targets_outside == ["10.0.60.10"]


def test_pcie_card_groups_functions_and_computes_bandwidth() -> None:
    host = _esx(
        "esx01",
        pci_devices=[
            PciLink(
                address="0000:3b:00.0",
                width_capable=8,
                width_negotiated=2,
                speed_capable_gts=8.0,
                speed_negotiated_gts=8.0,
            )
        ],
    )
    fact = build_facts(Snapshot(esxi_hosts=[host])).pcie[0]
    assert (fact.address, fact.nics, fact.ports_gbps) == ("0000:3b:00", ["vmnic2", "vmnic3"], 20.0)
    assert (fact.capable_gbps, fact.negotiated_gbps) == (63.015, 15.754)


def test_pcie_not_collected_is_missing_with_reason() -> None:
    fact = build_facts(Snapshot(esxi_hosts=[_esx("esx01")])).pcie[0]
    assert "not collected" in fact.missing["pcie"]


def test_distributed_switch_lag_team() -> None:
    host = EsxiHost(
        name="esx01",
        pnics=[
            PhysicalNic(name="vmnic4", link_up=True, neighbour=cdp("nx1", "Eth1/20")),
            PhysicalNic(name="vmnic5", link_up=True, neighbour=cdp("nx1", "Eth1/21")),
        ],
        vms=[
            VirtualMachine(
                name="db01",
                vcpus=16,
                cpu_hot_add=True,
                nics=[
                    VmNic(label="Network adapter 1", model="e1000e", portgroup="VM-Prod"),
                    VmNic(label="Network adapter 2", model="pvrdma", portgroup="gone"),
                ],
            )
        ],
    )
    dvs = DistributedSwitch(
        name="DSwitch1",
        max_mtu=9000,
        lacp_api_version="multipleLag",
        lags=[Lag(name="lag1", mode="passive", load_balance="srcDestIpTcpUdpPort", uplink_count=2)],
        portgroups=[DvPortgroup(name="VM-Prod", teaming=Teaming(policy="loadbalance_ip", active=["lag1"]))],
        hosts=[DvsHostMember(host="esx01", uplinks={"lag1-0": "vmnic4", "lag1-1": "vmnic5"})],
    )
    switch = nxos_switch("nx1", {"Ethernet1/20": "port-channel20", "Ethernet1/21": "port-channel20"})
    facts = build_facts(Snapshot(esxi_hosts=[host], distributed_switches=[dvs], switches=[switch]))
    team = facts.teams[0]
    assert (team.object, team.lag, team.lag_mode, team.lag_hash, team.lag_uplink_count) == (
        "esx01/DSwitch1/VM-Prod",
        "lag1",
        "passive",
        "src-dst-ip-port",
        2,
    )
    assert [(u.nic, u.port_channel, u.channel_members) for u in team.uplinks] == [
        ("vmnic4", "port-channel20", 2),
        ("vmnic5", "port-channel20", 2),
    ]
    assert [v.object for v in facts.vms] == ["esx01/vm:db01"]
    assert [(n.object, n.model, n.switch_kind) for n in facts.vm_nics] == [
        ("esx01/vm:db01/Network adapter 1", "e1000e", "distributed"),
        ("esx01/vm:db01/Network adapter 2", "pvrdma", None),
    ]
