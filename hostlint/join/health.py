"""Evidence vSphere itself gathers about a distributed switch uplink, on the uplink's facts.

The distributed switch health check (VLANs trunked and not, MTU per VLAN, teaming against the
physical switch's channel) and ESXi's own LACP view of each LAG member. Neither is configuration:
the health check sends frames and reports what came back; ESXi's LACP status is what the partner
said in its LACPDUs. A check that is off, a result not reported and a host whose LACP view was not
read are unknown (in `missing`, naming why), never a pass: the rules that read them are skipped.
"""

from __future__ import annotations

from hostlint import vlans
from hostlint.join.facts import EsxiLacp, HealthEvidence, TeamFact, UplinkFact
from hostlint.snapshot.esxi import DistributedSwitch, DvsHostMember, EsxiHost, UplinkHealth

HEALTH_FIELDS = ("health",)
LACP_FIELDS = ("esxi_lacp",)


def _unknown(uplink: UplinkFact, fields: tuple[str, ...], reason: str) -> None:
    for field in fields:
        uplink.missing[field] = reason


def _check_off(dvs: DistributedSwitch, member: DvsHostMember, host: str, enabled: bool | None, name: str) -> str | None:
    """Why the switch's `name` health check gives no evidence on this host, or None when it does."""
    if dvs.health_check is None:
        return f"{dvs.name}: health check configuration not read (VMwareDVSConfigInfo.healthCheckConfig)"
    if enabled is None:
        return f"{dvs.name}: whether the {name} health check is on was not reported (DVSHealthCheckConfig.enable)"
    if not enabled:
        return f"{dvs.name}: {name} health check disabled"
    if member.health is None:
        return f"{host} on {dvs.name}: health check results not read (runtime.hostMemberRuntime)"
    return None


def _ranges(ranges: list[tuple[int, int]]) -> list[list[int]]:
    return [[low, high] for low, high in ranges]


def _uplink_health(uplink: UplinkFact, result: UplinkHealth | None, dvs: DistributedSwitch) -> None:
    """The uplink's VLAN and MTU results; either one not reported leaves both unknown (vCenter reports
    both for every uplink the check ran on), naming which."""
    absent = []
    if result is None or result.untrunked_vlans is None or result.trunked_vlans is None:
        absent.append("VLAN")
    if (
        result is None
        or result.mtu_mismatch is None
        or result.mtu_vlans_failing is None
        or result.mtu_vlans_passing is None
    ):
        absent.append("MTU")
    if absent or result is None:
        results = " and ".join(absent)
        _unknown(
            uplink,
            HEALTH_FIELDS,
            f"{uplink.object} on {dvs.name}: no {results} health check result reported for its uplink port",
        )
        return
    uplink.health = HealthEvidence(
        trunked=_ranges(result.trunked_vlans or []),
        untrunked=_ranges(result.untrunked_vlans or []),
        mismatch=bool(result.mtu_mismatch),
        passing=_ranges(result.mtu_vlans_passing or []),
        failing=_ranges(result.mtu_vlans_failing or []),
        failing_text=vlans.text(list(result.mtu_vlans_failing or [])),
    )


def _lag_ports(dvs: DistributedSwitch, ports: list[str]) -> set[str]:
    """The uplink ports in a LAG: a LAG's own ports (`lag1-0`), or every port under basic LACP."""
    if any(pg.uplink and pg.lacp in ("active", "passive") for pg in dvs.portgroups):
        return set(ports)
    return {port for port in ports for lag in dvs.lags if port.startswith(f"{lag.name}-")}


def _lacp(uplink: UplinkFact, host: EsxiHost, dvs: DistributedSwitch) -> None:
    if host.lacp_status is None:
        _unknown(
            uplink,
            LACP_FIELDS,
            f"{host.name}: ESXi's LACP status not read (esxcli network vswitch dvs vmware lacp status get)",
        )
        return
    status = next((s for s in host.lacp_status if s.dvswitch == dvs.name and s.nic == uplink.nic), None)
    if status is None or status.state is None:
        _unknown(uplink, LACP_FIELDS, f"{uplink.object}: not listed by ESXi's LACP status of {dvs.name}")
        return
    uplink.esxi_lacp = EsxiLacp(
        state=status.state,
        state_text=status.state_text or status.state,
        # No partner information: no LACPDU was received, so the partner is not in sync.
        partner_sync=status.partner_port_state is not None and "SYN" in status.partner_port_state,
    )


def add_evidence(
    team: TeamFact, uplinks: dict[str, UplinkFact], host: EsxiHost, dvs: DistributedSwitch, member: DvsHostMember
) -> None:
    """The health check and LACP evidence of a host's distributed switch uplinks (by uplink port name),
    and the teaming result on its proxy switch `team`."""
    check = dvs.health_check
    vlan_mtu_off = _check_off(dvs, member, host.name, check.vlan_mtu if check else None, "VLAN and MTU")
    results = {result.nic: result for result in (member.health.uplinks if member.health else []) if result.nic}
    lag_ports = _lag_ports(dvs, list(uplinks))
    for port, uplink in uplinks.items():
        if port in lag_ports:
            # The health check skips LAG ports (vSphere Networking, "LACP Support ... limitations"): no
            # result is due, so none is unknown; ESXi's own LACP view speaks for them instead.
            _lacp(uplink, host, dvs)
        elif vlan_mtu_off is not None:
            _unknown(uplink, HEALTH_FIELDS, vlan_mtu_off)
        else:
            _uplink_health(uplink, results.get(uplink.nic), dvs)
    teaming_off = _check_off(dvs, member, host.name, check.teaming if check else None, "teaming")
    if lag_ports == set(uplinks):
        return  # every uplink in a LAG: the teaming check has nothing to check
    if teaming_off is not None:
        team.missing["hc_teaming"] = teaming_off
    elif member.health is not None and member.health.teaming is None:
        team.missing["hc_teaming"] = f"{host.name} on {dvs.name}: no teaming health check result reported"
    elif member.health is not None:
        team.hc_teaming = member.health.teaming
