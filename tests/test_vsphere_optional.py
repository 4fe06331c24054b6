"""Every property the vSphere Web Services API reference marks optional ("need not be set") that the
collector reads can be unset on a real server: each is unknown (None) in the snapshot, never a default,
and where a whole part is missing the collection error names host or switch. The converters are pure
functions over pyvmomi's own data objects (the ones a SOAP answer becomes), so each shape is built here.

And one bad field never drops a host: a value the snapshot refuses is unknown with a collection error
naming host, object, field and problem; a refused identifier leaves only its object out, named."""

from __future__ import annotations

import pytest
from pyVmomi import vim

from hostlint.collect.vsphere import convert
from hostlint.collect.vsphere.collector import dvs_members
from hostlint.collect.vsphere.record import Recorder
from hostlint.collect.vsphere.retrieve import Retrieved
from hostlint.join import build_facts
from hostlint.snapshot import Snapshot
from hostlint.snapshot.esxi import Vmk

DVS = vim.dvs.VmwareDistributedVirtualSwitch


def network(**parts) -> vim.host.NetworkInfo:
    return vim.host.NetworkInfo(**parts)


def host(props: dict, moid: str = "host-7") -> Retrieved:
    base = {"name": "esx07.example", "runtime.connectionState": "connected"}
    return Retrieved(ref=vim.HostSystem(moid), props={**base, **props})


def converted(props: dict, hints=None):
    rec = Recorder("esx07.example", "esxi")
    result = convert.esxi_host(host(props), hints, convert.Source(), convert.NetworkNames(), rec)
    return result, [e.reason for e in rec.errors]


def test_unset_mtus_of_a_vswitch_and_a_vmk_are_unknown():
    vswitch = vim.host.VirtualSwitch(name="vSwitch0", spec=vim.host.VirtualSwitch.Specification())
    vnic = vim.host.VirtualNic(device="vmk0", portgroup="Management", spec=vim.host.VirtualNic.Specification())
    found, errors = converted({"config.network": network(vswitch=[vswitch], vnic=[vnic])})
    assert found.vswitches[0].mtu is None  # HostVirtualSwitch.mtu, spec.mtu
    vmk = found.vmks[0]
    assert (vmk.mtu, vmk.ip, vmk.prefix, vmk.mac) == (None, None, None, None)  # HostVirtualNicSpec.mtu, ip, mac
    assert (vmk.portgroup, vmk.network) == ("Management", "standard")
    assert errors == []


def test_unset_pnic_driver_pci_and_link_are_unknown_or_down_as_documented():
    pnic = vim.host.PhysicalNic(device="vmnic0", key="key-vmnic0", spec=vim.host.PhysicalNic.Specification())
    found, _ = converted({"config.network": network(pnic=[pnic])})
    nic = found.pnics[0]
    assert (nic.driver, nic.pci, nic.mac) == (None, None, None)
    # PhysicalNic.linkSpeed: "If this property is not set, then the link is down"; spec.linkSpeed unset: auto.
    assert (nic.link_up, nic.speed_mbps, nic.duplex, nic.configured_speed_mbps) == (False, None, None, None)


def test_unset_lldp_parameters_and_cdp_fields_are_unknown():
    lldp = vim.host.PhysicalNic.NetworkHint(device="vmnic0", lldpInfo=vim.host.PhysicalNic.LldpInfo(chassisId="aa:bb"))
    found = convert.neighbour(lldp)
    assert (found.port_id, found.port_description, found.system_name, found.platform, found.mgmt_address) == (
        "",
        None,
        None,
        None,
        None,
    )
    cdp = vim.host.PhysicalNic.NetworkHint(
        device="vmnic1", connectedSwitchPort=vim.host.PhysicalNic.CdpInfo(devId="sw1")
    )
    found = convert.neighbour(cdp)
    assert (found.port_id, found.system_name, found.platform, found.mgmt_address) == ("", None, None, None)


def test_a_vmk_on_a_dv_port_without_port_group_key_and_on_an_opaque_network():
    port = vim.dvs.PortConnection(switchUuid="50 1a", portKey="12")
    on_port = vim.host.VirtualNic(device="vmk4", spec=vim.host.VirtualNic.Specification(distributedVirtualPort=port))
    opaque_spec = vim.host.VirtualNic.OpaqueNetworkSpec(opaqueNetworkId="seg-1", opaqueNetworkType="nsx.LogicalSwitch")
    on_segment = vim.host.VirtualNic(device="vmk5", spec=vim.host.VirtualNic.Specification(opaqueNetwork=opaque_spec))
    rec = Recorder("esx07.example", "esxi")
    names = convert.NetworkNames(dvs={"50 1a": "DSwitch"})
    vmks = convert.vmks(network(vnic=[on_port, on_segment]), {}, names, rec)
    assert [(v.name, v.network, v.portgroup, v.dvswitch, v.dv_port) for v in vmks] == [
        ("vmk4", "distributed", None, "DSwitch", "12"),
        ("vmk5", "opaque", None, None, None),
    ]
    assert [e.reason.split(":")[0] for e in rec.errors] == ["vmk4"]


def test_unset_proxy_switch_mtu_is_unknown():
    proxy = vim.host.HostProxySwitch(dvsUuid="u-1", dvsName="DSwitch")
    members = dvs_members([host({"config.network": network(proxySwitch=[proxy])})])
    assert [(m.host, m.host_id, m.mtu) for m in members["u-1"]] == [("esx07.example", "host-7", None)]


def test_host_without_network_keeps_pci_devices_maintenance_and_version_unknown():
    pci = vim.host.PciDevice(id="0000:18:00.0", classId=0x0200, vendorName="Intel", deviceName="X710")
    found, errors = converted({"hardware.pciDevice": [pci]})
    assert (found.version, found.in_maintenance_mode) == (None, None)  # config.product, runtime.inMaintenanceMode
    assert [d.address for d in found.pci_devices] == ["0000:18:00.0"]
    assert errors == [
        "config.network not returned: the host's networking (vSwitches, port groups, vmks, pNICs) is unknown, not empty"
    ]


def switch(config, portgroups=()) -> tuple:
    rec = Recorder("DSwitch", "vcenter")
    dvs = Retrieved(
        ref=vim.DistributedVirtualSwitch("dvs-1"), props={"name": "DSwitch", "uuid": "u-1", "config": config}
    )
    return convert.distributed_switch(dvs, list(portgroups), [], convert.Source(), rec), [e.reason for e in rec.errors]


def test_unset_dvs_config_fields_and_lag_fields_are_unknown():
    config = DVS.ConfigInfo(lacpGroupConfig=[DVS.LacpGroupConfig(name="lag1")])
    found, errors = switch(config)
    assert (found.max_mtu, found.lacp_api_version) == (None, None)  # maxMtu, lacpApiVersion
    lag = found.lags[0]
    assert (lag.mode, lag.load_balance, lag.uplink_count) == (None, None, None)  # VMwareDvsLacpGroupConfig
    assert errors == ["LAG lag1: uplinkNum not reported; its port count is unknown"]


def test_a_dvs_without_config_is_unknown_and_named():
    found, errors = switch(None)
    assert (found.max_mtu, found.lacp_api_version, found.lags, found.discovery) == (None, None, [], None)
    assert errors == [
        "distributed switch config not returned: its MTU, LACP, LAGs, uplink names and discovery protocol are unknown"
    ]


def portgroup(props: dict) -> Retrieved:
    base = {
        "name": "pg",
        "key": "dvportgroup-9",
        "config.distributedVirtualSwitch": vim.DistributedVirtualSwitch("dvs-1"),
    }
    return Retrieved(ref=vim.dvs.DistributedVirtualPortgroup("dvportgroup-9"), props={**base, **props})


def test_unset_backing_type_and_lacp_policy_are_unknown_nsx_keeps_no_teaming():
    uplink = portgroup({"config.uplink": True, "config.defaultPortConfig": DVS.VmwarePortConfigPolicy()})
    nsx = portgroup({"name": "seg", "key": "dvportgroup-10", "config.backingType": "nsx"})
    found, _ = switch(DVS.ConfigInfo(maxMtu=9000), [uplink, nsx])
    assert [(pg.name, pg.backing, pg.lacp) for pg in found.portgroups] == [("pg", None, None), ("seg", "nsx", None)]
    assert (found.portgroups[1].teaming, found.portgroups[1].vlan) == (None, None)


# --- one bad field never drops a host ---------------------------------------------------------------


def test_a_refused_optional_field_is_unknown_and_named():
    rec = Recorder("esx07.example", "esxi")
    vmk = rec.build(Vmk, "vmk1", name="vmk1", portgroup="vMotion", mtu=65000, services=["vmotion", "bad\nname"])
    assert vmk is not None and (vmk.mtu, vmk.services) == (None, ["vmotion"])
    reasons = [e.reason for e in rec.errors]
    assert reasons[0].startswith("vmk1: mtu recorded as unknown: Input should be less than or equal to 9000")
    assert reasons[1].startswith("vmk1: services.1 left out: Value error, control character U+000A")
    assert {e.target for e in rec.errors} == {"esx07.example"}


def test_a_refused_identifier_leaves_only_its_object_out():
    bad = vim.host.VirtualNic(device="vmk\n9", portgroup="pg", spec=vim.host.VirtualNic.Specification(mtu=1500))
    good = vim.host.VirtualNic(device="vmk0", portgroup="pg", spec=vim.host.VirtualNic.Specification(mtu=9000))
    found, errors = converted({"config.network": network(vnic=[bad, good])})
    assert [v.name for v in found.vmks] == ["vmk0"]
    assert errors == ["vmk\\n9 not recorded: name: Value error, control character U+000A at position 3 (value vmk\\n9)"]


@pytest.mark.parametrize("text", ["NX-OS\nTAC support", "a\rb", "bell\x07", "rtl\u202eexe"])
def test_free_text_from_devices_is_escaped_never_refused(text):
    hint = vim.host.PhysicalNic.NetworkHint(
        device="vmnic0",
        connectedSwitchPort=vim.host.PhysicalNic.CdpInfo(devId="sw1", portId="Gi1/0/1", hardwarePlatform=text),
    )
    found = convert.neighbour(hint)
    assert found is not None and found.platform is not None
    assert found.platform.isprintable() and found.platform != text


def test_unset_teaming_policy_and_beacon_are_unknown_and_skip_the_rules_that_read_them():
    teaming = vim.host.NetworkPolicy.NicTeamingPolicy(
        nicOrder=vim.host.NetworkPolicy.NicOrderPolicy(activeNic=["vmnic0"])
    )
    spec = vim.host.VirtualSwitch.Specification(policy=vim.host.NetworkPolicy(nicTeaming=teaming))
    vswitch = vim.host.VirtualSwitch(name="vSwitch0", mtu=1500, spec=spec)
    found, _ = converted({"config.network": network(vswitch=[vswitch])})
    assert (found.vswitches[0].teaming.policy, found.vswitches[0].teaming.failure_detection) == (None, None)
    team = next(t for t in build_facts(Snapshot(esxi_hosts=[found])).teams if t.object == "esx07.example/vSwitch0")
    assert "vSphere HostNicTeamingPolicy.policy not read" in team.missing["policy"]
    assert "vSphere HostNicFailureCriteria.checkBeacon not read" in team.missing["failure_detection"]
    dvs_teaming = convert.dvs_teaming(DVS.UplinkPortTeamingPolicy(), ["uplink1"])
    assert (dvs_teaming.policy, dvs_teaming.failure_detection, dvs_teaming.unused) == (None, None, ["uplink1"])


def test_a_vnic_with_a_refused_label_leaves_only_that_vnic_out():
    def card(label: str) -> vim.vm.device.VirtualVmxnet3:
        backing = vim.vm.device.VirtualEthernetCard.NetworkBackingInfo(deviceName="VM-Prod")
        return vim.vm.device.VirtualVmxnet3(
            key=4000, deviceInfo=vim.Description(label=label, summary=""), backing=backing
        )

    vm = Retrieved(
        ref=vim.VirtualMachine("vm-1"),
        props={
            "name": "app01",
            "runtime.host": vim.HostSystem("host-7"),
            "config.hardware.numCPU": 4,
            "config.hardware.device": [card("Network adapter 1"), card("Network\nadapter 2")],
        },
    )
    refused: list = []
    found = convert.vms_by_host([vm], {}, refused)["host-7"][0]
    assert (found.name, [nic.label for nic in found.nics]) == ("app01", ["Network adapter 1"])
    assert [(e.target, e.reason.split(":")[0]) for e in refused] == [
        ("app01", "virtual machine vNIC Network\\nadapter 2 not recorded")
    ]


def test_unset_link_discovery_config_is_unknown_not_off():
    bridge = vim.host.VirtualSwitch.BondBridge(nicDevice=["vmnic0"])
    vswitch = vim.host.VirtualSwitch(
        name="vSwitch0", mtu=1500, spec=vim.host.VirtualSwitch.Specification(bridge=bridge)
    )
    found, _ = converted({"config.network": network(vswitch=[vswitch])})
    assert found.vswitches[0].discovery is None
    assert switch(DVS.ConfigInfo(maxMtu=1500))[0].discovery is None
    off = vim.host.LinkDiscoveryProtocolConfig(protocol="cdp", operation="none")
    assert switch(DVS.ConfigInfo(maxMtu=1500, linkDiscoveryProtocolConfig=off))[0].discovery.operation == "none"
