"""Configuration drift between two snapshots of the clean and demo labs, with changes made in them."""

from __future__ import annotations

from pathlib import Path

from hostlint.history.drift import snapshot_drift
from hostlint.snapshot import Snapshot, load_site
from hostlint.snapshot.esxi import PhysicalNic

LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"
ESX01 = "esx01.lab.example.net"


def clean() -> Snapshot:
    return load_site([LABS / "clean"])


def changes(before: Snapshot, after: Snapshot) -> list[tuple[str, str, object, object]]:
    return [(d.object, d.field, d.before, d.after) for d in snapshot_drift(before, after)]


def test_the_same_site_twice_has_no_drift() -> None:
    assert snapshot_drift(clean(), clean()) == []
    demo = load_site([LABS / "demo"])
    assert snapshot_drift(demo, demo.model_copy(deep=True)) == []


def test_teaming_policy_and_failover_order() -> None:
    after = clean()
    vswitch0 = after.esxi_hosts[0].vswitches[0]
    vswitch0.teaming.policy = "loadbalance_ip"
    vswitch0.teaming.active, vswitch0.teaming.standby = ["vmnic0", "vmnic1"], []
    assert changes(clean(), after) == [
        (f"{ESX01}/vSwitch0", "teaming.active", ["vmnic0"], ["vmnic0", "vmnic1"]),
        (f"{ESX01}/vSwitch0", "teaming.policy", "loadbalance_srcid", "loadbalance_ip"),
        (f"{ESX01}/vSwitch0", "teaming.standby", ["vmnic1"], []),
    ]


def test_mtus_on_both_ends() -> None:
    after = clean()
    after.esxi_hosts[0].vswitches[1].mtu = 1500
    after.esxi_hosts[0].vmks[1].mtu = 1500
    [channel] = [c for c in after.switches[0].port_channels if c.name == "port-channel11"]
    channel.mtu = 1500
    assert changes(clean(), after) == [
        (f"{ESX01}/vSwitch1", "mtu", 9000, 1500),
        (f"{ESX01}/vmk1", "mtu", 9000, 1500),
        (f"{after.switches[0].name}/port-channel11", "mtu", 9216, 1500),
    ]


def test_pnic_speed_duplex_and_switch_port_settings() -> None:
    after = clean()
    pnic = after.esxi_hosts[1].pnics[0]
    pnic.speed_mbps, pnic.duplex, pnic.configured_speed_mbps = 1000, "half", 1000
    port = after.switches[1].ports[0]
    port.configured_speed_mbps, port.status = 1000, "err-disabled"
    host, switch = after.esxi_hosts[1].name, after.switches[1].name
    assert changes(clean(), after) == [
        (f"{host}/{pnic.name}", "configured_speed_mbps", None, 1000),
        (f"{host}/{pnic.name}", "duplex", "full", "half"),
        (f"{host}/{pnic.name}", "speed_mbps", 10000, 1000),
        (f"{switch}/{port.name}", "configured_speed_mbps", None, 1000),
        (f"{switch}/{port.name}", "status", "up", "err-disabled"),
    ]


def test_port_channel_membership_mode_and_hash() -> None:
    after = clean()
    switch = after.switches[0]
    [channel] = [c for c in switch.port_channels if c.name == "port-channel11"]
    channel.mode, channel.members = "lacp-active", []
    [port] = [p for p in switch.ports if p.port_channel == "port-channel11"]
    port.port_channel = None
    assert switch.load_balance is not None
    before_hash = switch.load_balance.hash
    switch.load_balance.hash = "src-mac"
    assert changes(clean(), after) == [
        (switch.name, "load_balance", before_hash, "src-mac"),
        (f"{switch.name}/{port.name}", "port_channel", "port-channel11", None),
        (f"{switch.name}/port-channel11", "members", [port.name], []),
        (f"{switch.name}/port-channel11", "mode", "static", "lacp-active"),
    ]


def test_objects_that_appear_or_disappear_are_one_change_each() -> None:
    after = clean()
    removed = after.esxi_hosts[2].pnics.pop()
    after.esxi_hosts[2].pnics.append(PhysicalNic(name="vmnic9", link_up=True, speed_mbps=25000, duplex="full"))
    host = after.esxi_hosts[2].name
    assert changes(clean(), after) == [
        (f"{host}/{removed.name}", "present", True, False),
        (f"{host}/vmnic9", "present", False, True),
    ]
