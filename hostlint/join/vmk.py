"""VMkernel ports: the team their port group uses (their path) and the L2 segment they share."""

from __future__ import annotations

import ipaddress
from collections import Counter, defaultdict

from hostlint.join.facts import Facts, TeamFact, VmkFact
from hostlint.join.sources import esxi_unknown
from hostlint.join.state import host_missing
from hostlint.site import SiteParams
from hostlint.snapshot.esxi import EsxiHost, Vmk


def _network(ip: str | None, prefix: int | None) -> str | None:
    if not ip or prefix is None:
        return None
    try:
        return str(ipaddress.ip_interface(f"{ip}/{prefix}").network)
    except ValueError:
        return None


def _nsx_reason(host: str, vmk: Vmk, where: str) -> str:
    """Why the uplinks, teaming and MTU of a vmk on NSX are not known (a named skip)."""
    return (
        f"{host}/{vmk.name} is on {where}: its uplinks, teaming and MTU are NSX's (the transport node's "
        "uplink profile), which the vSphere API does not show"
    )


def _placement(host: str, vmk: Vmk) -> tuple[str, str | None]:
    """The vmk's port group as shown, and why its team is unknown where it has none hostlint can read."""
    if vmk.network == "opaque":
        where = f"NSX segment {vmk.portgroup or vmk.opaque_network or '(unnamed opaque network)'}"
        return vmk.portgroup or where, _nsx_reason(host, vmk, where)
    if vmk.network == "nsx":
        return vmk.portgroup or "", _nsx_reason(host, vmk, f"NSX port group {vmk.portgroup}")
    if vmk.portgroup is None and vmk.dvswitch:
        where = f"distributed port {vmk.dv_port or '(no key)'}"
        return where, (
            f"{host}/{vmk.name} is on {where} of {vmk.dvswitch}, which belongs to no port group: the port's own "
            "teaming is not collected"
        )
    return vmk.portgroup or "", None


def _team_of(
    vmk_vswitch: str | None, dvswitch: str | None, portgroup: str, teams: dict[str, TeamFact], host: str
) -> TeamFact | None:
    if dvswitch:
        return teams.get(f"{host}/{dvswitch}/{portgroup}")
    return teams.get(f"{host}/{vmk_vswitch}/{portgroup}") or teams.get(f"{host}/{vmk_vswitch}")


def vmk_facts(host: EsxiHost, host_teams: list[TeamFact], facts: Facts, site: SiteParams) -> None:
    portgroups = {pg.name: pg for pg in host.portgroups}
    vswitches = {vs.name: vs for vs in host.vswitches}
    teams = {t.object: t for t in host_teams}
    for vmk in host.vmks:
        shown, no_team = _placement(host.name, vmk)
        pg = portgroups.get(vmk.portgroup) if vmk.portgroup and vmk.network in (None, "standard") else None
        vswitch_name = vmk.vswitch or (pg.vswitch if pg and not vmk.dvswitch else None)
        vswitch = vswitches.get(vswitch_name or "")
        fact = VmkFact(
            object=f"{host.name}/{vmk.name}",
            host=host.name,
            name=vmk.name,
            portgroup=shown,
            kind=vmk.network or ("distributed" if vmk.dvswitch else "standard"),
            vswitch=vswitch_name,
            dvswitch=vmk.dvswitch,
            vswitch_mtu=vswitch.mtu if vswitch else None,
            mtu=vmk.mtu,
            ip=vmk.ip,
            prefix=vmk.prefix,
            network=_network(vmk.ip, vmk.prefix),
            netstack=vmk.netstack,
            services=list(vmk.services),
            vlan=pg.vlan if pg else None,
            missing=host_missing(host),
        )
        if vmk.mtu is None:
            fact.missing["mtu"] = esxi_unknown(host.name, vmk.name, "vmk_mtu")
        if vswitch is not None and vswitch.mtu is None:
            fact.missing["vswitch_mtu"] = esxi_unknown(host.name, vswitch.name, "mtu")
        fact.storage = site.is_storage(fact.vlan, fact.services)
        fact.expected_mtu = site.expected_mtu(shown, fact.vlan, fact.services)
        team = None if no_team else _team_of(vswitch_name, vmk.dvswitch, shown, teams, host.name)
        if no_team is not None:
            # Named skips: the rules reading the path, the team or the switch's MTU say why, once each.
            for field in ("switch", "vswitch_mtu", "path_mtu"):
                fact.missing[field] = no_team
        elif team is not None:
            if vmk.dvswitch:
                # A distributed switch's MTU (its port groups' teams carry it) bounds its vmks like a vSwitch's.
                fact.vswitch_mtu = team.mtu
                if "mtu" in team.missing:
                    fact.missing["vswitch_mtu"] = team.missing["mtu"]
            fact.active, fact.standby = list(team.active), list(team.standby)
            fact.live = any(u.role == "active" and u.link_up for u in team.uplinks)
            if "switch" in team.missing:
                fact.missing.setdefault("switch", team.missing["switch"])
            mtus = [m for u in team.uplinks for m in (u.port_mtu, u.channel_mtu) if m is not None]
            fact.path_mtu = min(mtus) if mtus else None
            unknown = [u.missing[k] for u in team.uplinks for k in ("port_mtu", "channel_mtu") if k in u.missing]
            if unknown:
                # The smallest MTU of a path with an unread hop is not known.
                fact.missing["path_mtu"] = "; ".join(dict.fromkeys(unknown))
            fact.path = [f"{u.nic} -> {u.switch} {u.port}" for u in team.uplinks if u.port]
        else:
            fact.missing.setdefault("switch", f"{fact.object}: port group {shown} has no known uplinks")
        facts.vmks.append(fact)


def link_segments(facts: Facts) -> None:
    """Give each vmk the MTUs of every vmk in its L2 segment (same VLAN and subnet) across hosts."""
    segments: dict[tuple[int | None, str], list[VmkFact]] = defaultdict(list)
    for vmk in facts.vmks:
        if vmk.network is not None:
            segments[(vmk.vlan, vmk.network)].append(vmk)
    for members in segments.values():
        unknown = [v.missing["mtu"] for v in members if v.mtu is None]
        members = [v for v in members if v.mtu is not None]
        if unknown:
            for vmk in members:
                vmk.missing["segment_mtu"] = vmk.missing["segment_mtus"] = "; ".join(unknown)
        if not members:
            continue
        counts = Counter(v.mtu for v in members if v.mtu is not None)
        # The segment's MTU is the most common one; on a tie the larger, since
        # someone deliberately configured jumbo frames there.
        segment_mtu = max(counts, key=lambda mtu: (counts[mtu], mtu))
        mtus = sorted(counts)
        for vmk in members:
            vmk.segment_mtus = mtus
            vmk.segment_mtu = segment_mtu
