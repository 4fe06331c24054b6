"""The distributed switch health check as evidence: which checks are on and each host member's results.

vCenter's health check sends probe frames between a host's uplinks on every VLAN of the switch and
reports, per uplink port, which VLANs the physical switch port trunks and whether it passes the
switch's largest frames on each (VMwareDVSVlanHealthCheckResult, VMwareDVSMtuHealthCheckResult,
keyed by `uplinkPortKey`), and per host whether the teaming matches the physical switch's channel
(VMwareDVSTeamingHealthCheckResult). The results are in `DistributedVirtualSwitch.runtime
.hostMemberRuntime[].healthCheckResult`; which checks run is in `config.healthCheckConfig`. Every
one of these properties is optional in the API: what is not reported stays None (unknown), and the
join treats a check that is off the same way. An uplink port key is the host's own: its proxy
switch's `spec.backing.pnicSpec[]` pairs it with the pNIC.
"""

from __future__ import annotations

from typing import Any, cast

from pyVmomi import vim

from hostlint import vlans
from hostlint.collect.vsphere.record import Recorder
from hostlint.collect.vsphere.retrieve import Retrieved
from hostlint.snapshot.esxi import DistributedSwitch, HealthCheckConfig, MemberHealth, TeamingMatch, UplinkHealth

_DVS = vim.dvs.VmwareDistributedVirtualSwitch
TEAMING_STATUSES = ("iphashMatch", "iphashMismatch", "nonIphashMatch", "nonIphashMismatch")


def uplink_port_keys(hosts: list[Retrieved]) -> dict[tuple[str, str], dict[str, str]]:
    """(switch uuid, host moid) -> uplink port key -> pNIC, from each host's proxy switches."""
    found: dict[tuple[str, str], dict[str, str]] = {}
    for host in hosts:
        network = host.get("config.network")
        for proxy in (network.proxySwitch if network else None) or []:
            backing = proxy.spec.backing if proxy.spec else None
            keys = {
                spec.uplinkPortKey: spec.pnicDevice
                for spec in getattr(backing, "pnicSpec", None) or []
                if spec.uplinkPortKey and spec.pnicDevice
            }
            found[(proxy.dvsUuid, host.ref._moId)] = keys
    return found


def health_check_config(config: Any) -> HealthCheckConfig | None:
    """Which checks are on; None when the switch reports no health check config at all."""
    checks = getattr(config, "healthCheckConfig", None)
    if not checks:
        return None
    found = HealthCheckConfig()
    for check in checks:
        enabled = check.enable if isinstance(check.enable, bool) else None
        if isinstance(check, _DVS.VlanMtuHealthCheckConfig):
            found.vlan_mtu = enabled
        elif isinstance(check, _DVS.TeamingHealthCheckConfig):
            found.teaming = enabled
    return found


def _ranges(ranges: Any) -> list[tuple[int, int]]:
    """NumericRange list to merged VLAN ranges within 1-4094 (VLAN 0 is untagged, no trunk lists it)."""
    return vlans.merge(
        [
            (max(r.start, vlans.FIRST), min(r.end, vlans.LAST))
            for r in ranges or []
            if r.start is not None and r.end is not None and r.end >= vlans.FIRST and r.start <= vlans.LAST
        ]
    )


def member_health(results: Any, port_keys: dict[str, str], rec: Recorder, host: str) -> MemberHealth:
    """One host member's results; an uplink port key the host's proxy switch does not list keeps its
    results with no pNIC (named in `rec`)."""
    by_key: dict[str, dict[str, Any]] = {}
    teaming = None
    for result in results or []:
        if isinstance(result, _DVS.TeamingHealthCheckResult):
            status = result.teamingStatus or None
            if status is not None and status not in TEAMING_STATUSES:
                rec.note(f"{host} teaming health check: unknown status {status!r} recorded as unknown")
                status = None
            teaming = status
            continue
        key = getattr(result, "uplinkPortKey", None)
        if not key:
            continue
        values = by_key.setdefault(key, {"uplink_port_key": key, "nic": port_keys.get(key)})
        if isinstance(result, _DVS.VlanHealthCheckResult):
            # Both lists are optional: an unset one is empty (the API leaves out empty arrays).
            values["trunked_vlans"] = _ranges(result.trunkedVlan)
            values["untrunked_vlans"] = _ranges(result.untrunkedVlan)
        elif isinstance(result, _DVS.MtuHealthCheckResult):
            values["mtu_mismatch"] = result.mtuMismatch if isinstance(result.mtuMismatch, bool) else None
            values["mtu_vlans_passing"] = _ranges(result.vlanSupportSwitchMtu)
            values["mtu_vlans_failing"] = _ranges(result.vlanNotSupportSwitchMtu)
    uplinks: list[UplinkHealth] = []
    for key, values in sorted(by_key.items()):
        if values["nic"] is None:
            rec.note(f"{host} health check: uplink port key {key} names no pNIC of the host's proxy switch")
        rec.append(uplinks, UplinkHealth, f"{host} health check of uplink port {key}", **values)
    # Checked against TEAMING_STATUSES above: the API's names are the model's.
    return MemberHealth(uplinks=uplinks, teaming=cast(TeamingMatch | None, teaming))


def add_health(
    switch: DistributedSwitch,
    dvs: Retrieved,
    port_keys: dict[tuple[str, str], dict[str, str]],
    rec: Recorder,
) -> None:
    """The switch's health check config and each member's results, where the server reported them."""
    switch.health_check = health_check_config(dvs.get("config"))
    runtime = dvs.get("runtime")
    enabled = switch.health_check is not None and (switch.health_check.vlan_mtu or switch.health_check.teaming)
    if runtime is None:
        if enabled and "runtime" not in dvs.missing:
            rec.note("health check on, but runtime.hostMemberRuntime not reported: its results are unknown")
        return
    by_host = {getattr(info.host, "_moId", None): info for info in runtime.hostMemberRuntime or []}
    for member in switch.hosts:
        info = by_host.get(member.host_id)
        if info is None:
            continue
        keys = port_keys.get((switch.uuid or "", member.host_id or ""), {})
        member.health = member_health(info.healthCheckResult, keys, rec, member.host)
