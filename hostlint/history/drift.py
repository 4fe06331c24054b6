"""Configuration drift between two snapshots: which teaming, MTU, speed and port-channel values changed.

Each snapshot is flattened to `{object: {field: value}}` for the objects
whose settings decide whether the two ends agree (vSwitches and port group
overrides, vmks, pNICs, distributed switches and their LAGs, switch ports,
port-channels, the switch's hash, KVM interfaces and bonds); then the two are
compared field by field. Objects are named like findings (`host/vSwitch1`,
`host/vmnic2`, `switch/port`), so a drift and the finding it causes line up.
An object that appears or disappears is one change of its `present` field.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pydantic import BaseModel

from hostlint.join import qualified_hosts
from hostlint.snapshot import Snapshot
from hostlint.snapshot.esxi import EsxiHost, Teaming
from hostlint.snapshot.kvm import KvmHost
from hostlint.snapshot.switch import Switch

Fields = dict[str, Any]


class Drift(BaseModel):
    object: str
    kind: str
    field: str
    before: Any
    after: Any


def _teaming(teaming: Teaming) -> Fields:
    return {
        "teaming.policy": teaming.policy,
        "teaming.active": list(teaming.active),
        "teaming.standby": list(teaming.standby),
        "teaming.unused": list(teaming.unused),
        "teaming.failure_detection": teaming.failure_detection,
    }


def _esxi(host: EsxiHost) -> dict[str, tuple[str, Fields]]:
    objects: dict[str, tuple[str, Fields]] = {}
    for vswitch in host.vswitches:
        fields: Fields = {"mtu": vswitch.mtu, "uplinks": sorted(vswitch.uplinks), **_teaming(vswitch.teaming)}
        objects[f"{host.name}/{vswitch.name}"] = ("vswitch", fields)
    for portgroup in host.portgroups:
        fields = {"vlan": portgroup.vlan, "teaming.override": portgroup.teaming is not None}
        if portgroup.teaming is not None:
            fields |= _teaming(portgroup.teaming)
        objects[f"{host.name}/{portgroup.vswitch}/{portgroup.name}"] = ("portgroup", fields)
    for vmk in host.vmks:
        fields = {"mtu": vmk.mtu, "portgroup": vmk.portgroup, "ip": vmk.ip}
        objects[f"{host.name}/{vmk.name}"] = ("vmk", fields)
    for pnic in host.pnics:
        fields = {
            "link_up": pnic.link_up,
            "speed_mbps": pnic.speed_mbps,
            "duplex": pnic.duplex,
            "configured_speed_mbps": pnic.configured_speed_mbps,
            "configured_duplex": pnic.configured_duplex,
        }
        objects[f"{host.name}/{pnic.name}"] = ("pnic", fields)
    return objects


def _distributed(snapshot: Snapshot) -> dict[str, tuple[str, Fields]]:
    objects: dict[str, tuple[str, Fields]] = {}
    shared = Counter(dvs.name for dvs in snapshot.distributed_switches)
    for switch in snapshot.distributed_switches:
        where = ":".join(filter(None, (switch.vcenter, switch.datacenter))) or switch.uuid
        dvs = (
            switch.model_copy(update={"name": f"{switch.name}@{where}"})
            if shared[switch.name] > 1 and where
            else switch
        )
        objects[dvs.name] = ("dvswitch", {"max_mtu": dvs.max_mtu, "lacp_api_version": dvs.lacp_api_version})
        for lag in dvs.lags:
            fields: Fields = {"mode": lag.mode, "load_balance": lag.load_balance, "uplink_count": lag.uplink_count}
            objects[f"{dvs.name}/{lag.name}"] = ("lag", fields)
        for portgroup in dvs.portgroups:
            fields = {
                "vlan": portgroup.vlan,
                "uplink_lag": portgroup.uplink_lag,
                **(_teaming(portgroup.teaming) if portgroup.teaming else {}),
            }
            objects[f"{dvs.name}/{portgroup.name}"] = ("dvportgroup", fields)
        for member in dvs.hosts:
            objects[f"{dvs.name}/{member.host}"] = ("dvs-host", {"uplinks": dict(sorted(member.uplinks.items()))})
    return objects


def _switch(switch: Switch) -> dict[str, tuple[str, Fields]]:
    objects: dict[str, tuple[str, Fields]] = {
        switch.name: ("switch", {"load_balance": switch.load_balance.hash if switch.load_balance else None})
    }
    for port in switch.ports:
        fields: Fields = {
            "status": port.status,
            "mode": port.mode,
            "mtu": port.mtu,
            "speed_mbps": port.speed_mbps,
            "duplex": port.duplex,
            "configured_speed_mbps": port.configured_speed_mbps,
            "configured_duplex": port.configured_duplex,
            "port_channel": port.port_channel,
        }
        objects[f"{switch.name}/{port.name}"] = ("switch-port", fields)
    for channel in switch.port_channels:
        fields = {
            "mode": channel.mode,
            "members": sorted(channel.members),
            "mtu": channel.mtu,
            "status": channel.status,
            "load_balance": channel.load_balance,
        }
        objects[f"{switch.name}/{channel.name}"] = ("port-channel", fields)
    return objects


def _kvm(host: KvmHost) -> dict[str, tuple[str, Fields]]:
    objects: dict[str, tuple[str, Fields]] = {}
    for interface in host.interfaces:
        fields: Fields = {
            "mtu": interface.mtu,
            "operstate": interface.operstate,
            "speed_mbps": interface.speed_mbps,
            "duplex": interface.duplex,
            "master": interface.master,
        }
        objects[f"{host.name}/{interface.name}"] = ("interface", fields)
    for bond in host.bonds:
        fields = {
            "mode": bond.mode,
            "xmit_hash_policy": bond.xmit_hash_policy,
            "lacp_rate": bond.lacp_rate,
            "members": sorted(m.name for m in bond.members),
        }
        # A bond is also an interface; its bonding settings get their own object so the two never collide.
        objects[f"{host.name}/{bond.name}#bond"] = ("bond", fields)
    return objects


def flatten(snapshot: Snapshot) -> dict[str, tuple[str, Fields]]:
    """Every compared object of a snapshot: name -> (kind, fields)."""
    objects: dict[str, tuple[str, Fields]] = {}
    # Two hosts or switches of one name (two vCenters, two datacenters) are two objects, named as findings name them.
    for host in qualified_hosts(snapshot.esxi_hosts):
        objects |= _esxi(host)
    objects |= _distributed(snapshot)
    for kvm_host in snapshot.kvm_hosts:
        objects |= _kvm(kvm_host)
    for switch in snapshot.switches:
        objects |= _switch(switch)
    return objects


def snapshot_drift(before: Snapshot, after: Snapshot) -> list[Drift]:
    """What changed from `before` to `after`, sorted by object and field."""
    old, new = flatten(before), flatten(after)
    changes: list[Drift] = []
    for name in sorted(old.keys() | new.keys()):
        if name not in new or name not in old:
            kind = (old.get(name) or new[name])[0]
            changes.append(Drift(object=name, kind=kind, field="present", before=name in old, after=name in new))
            continue
        kind, old_fields = old[name]
        new_fields = new[name][1]
        for field in sorted(old_fields.keys() | new_fields.keys()):
            if old_fields.get(field) != new_fields.get(field):
                before_value, after_value = old_fields.get(field), new_fields.get(field)
                changes.append(Drift(object=name, kind=kind, field=field, before=before_value, after=after_value))
    return changes
