"""ESXi hosts to facts: teams per vSwitch and overriding port group, uplinks, vmk ports."""

from __future__ import annotations

from hostlint import vlans, vocab
from hostlint.join.facts import Facts, PortgroupFact, TeamFact, UplinkFact, summarise_unknowns
from hostlint.join.health import add_evidence
from hostlint.join.iscsi import iscsi_facts
from hostlint.join.pcie import pcie_facts
from hostlint.join.sources import esxi_unknown
from hostlint.join.state import host_missing
from hostlint.join.switches import SwitchIndex
from hostlint.join.vmk import vmk_facts
from hostlint.join.vms import vm_facts
from hostlint.site import SiteParams
from hostlint.snapshot.common import VlanRange
from hostlint.snapshot.esxi import DistributedSwitch, DvPortgroup, DvsHostMember, EsxiHost, Lag, PhysicalNic, Teaming

# A standard port group at VLAN 4095 passes every VLAN the guests tag (VGT).
ALL_VLANS = 4095


def _uplink(host: EsxiHost, nic_name: str, pnics: dict[str, PhysicalNic], index: SwitchIndex) -> UplinkFact:
    pnic = pnics.get(nic_name)
    uplink = UplinkFact(
        object=f"{host.name}/{nic_name}",
        host=host.name,
        host_kind="esxi",
        nic=nic_name,
        missing=host_missing(host),
    )
    if pnic is None:
        uplink.link_up = False
        uplink.missing["host"] = f"{uplink.object}: uplink named by the switch but not in the host's pNIC list"
        return uplink
    uplink.link_up = pnic.link_up
    if pnic.link_up is None:
        uplink.missing["link_up"] = esxi_unknown(host.name, nic_name, "link_up")
    uplink.speed_mbps = pnic.speed_mbps
    uplink.duplex = pnic.duplex
    if pnic.link_up is not False:
        # A link that is up (or whose state is unknown) has a negotiated speed and duplex: none read is unknown.
        for field, value in (("speed_mbps", pnic.speed_mbps), ("duplex", pnic.duplex)):
            if value is None:
                uplink.missing[field] = esxi_unknown(host.name, nic_name, field)
    uplink.configured_speed_mbps = pnic.configured_speed_mbps
    uplink.configured_duplex = pnic.configured_duplex
    index.resolve(uplink, pnic.neighbour)
    return uplink


def _team(base: TeamFact, teaming: Teaming, uplinks: dict[str, UplinkFact]) -> TeamFact:
    """Fill a team's policy and its (active, then standby) uplinks with derived summaries."""
    team = base.model_copy(
        update={
            "policy": teaming.policy,
            "active": list(teaming.active),
            "standby": list(teaming.standby),
            "unused": list(teaming.unused),
            "failure_detection": teaming.failure_detection,
        }
    )
    members = []
    for role, nics in (("active", teaming.active), ("standby", teaming.standby)):
        for nic in nics:
            if nic in uplinks:
                members.append(uplinks[nic].model_copy(update={"role": role, "team": team.object}))
    team.uplinks = members
    # Optional in the API (HostNicTeamingPolicy.policy, failureCriteria.checkBeacon): unknown skips the rules
    # that read them, naming the property.
    for field, value in (("policy", teaming.policy), ("failure_detection", teaming.failure_detection)):
        if value is None:
            team.missing[field] = esxi_unknown(team.host, team.object.partition("/")[2] or team.object, field)
    active = [u for u in members if u.role == "active"]
    team.switches = sorted({u.switch for u in active if u.switch})
    team.logical_switches = sorted({u.logical_switch for u in active if u.logical_switch})
    team.channel_ids = sorted({u.channel_id for u in active if u.channel_id})
    summarise_unknowns(team, active)
    for uplink in members:
        for kind, reason in uplink.missing.items():
            team.missing.setdefault(kind, reason)
    return team


def _portgroup(
    team: TeamFact, switch_kind: str, vlan: int | None, spec: str, ranges: list[VlanRange] | None
) -> PortgroupFact:
    """A port group's VLAN fact over the uplinks of its effective team."""
    host = team.host
    fact = PortgroupFact(
        object=f"{host}/{team.vswitch}/{team.portgroup}",
        host=host,
        missing=dict(team.missing),
        portgroup=team.portgroup or "",
        vswitch=team.vswitch,
        switch_kind=switch_kind,
        vlan_type=None,
        vlan=vlan,
        uplinks=list(team.uplinks),
    )
    if vlan is None:
        prop = "vlan" if switch_kind == "standard" else "dvs_vlan"
        for field in ("vlan", "vlan_type"):
            fact.missing[field] = esxi_unknown(host, f"port group {fact.portgroup}", prop)
    elif spec == "pvlan":
        fact.vlan_type = "pvlan"
    elif spec == "trunk" or vlan == ALL_VLANS:
        fact.vlan_type = "trunk"
    else:
        fact.vlan_type = "none" if vlan == 0 else "vlan"
    if fact.vlan_type == "trunk":
        if ranges is None:
            fact.missing["trunk_vlans"] = (
                f"{host} port group {fact.portgroup}: VLAN 4095 passes every VLAN; which ones the guests tag "
                "is not known to the host"
                if switch_kind == "standard"
                else esxi_unknown(host, f"port group {fact.portgroup}", "dvs_vlan")
            )
        else:
            fact.trunk_vlans = [[low, high] for low, high in ranges]
            fact.trunk_vlans_text = vlans.text(list(ranges))
    return fact


def _dvs_portgroup(team: TeamFact, pg: DvPortgroup) -> PortgroupFact:
    return _portgroup(team, "distributed", pg.vlan, pg.vlan_spec, pg.trunk_ranges)


def _standard_teams(host: EsxiHost, index: SwitchIndex, facts: Facts) -> None:
    pnics = {p.name: p for p in host.pnics}
    for vswitch in host.vswitches:
        uplinks = {nic: _uplink(host, nic, pnics, index) for nic in vswitch.uplinks}
        base = TeamFact(
            object=f"{host.name}/{vswitch.name}",
            host=host.name,
            host_kind="esxi",
            kind="vss",
            vswitch=vswitch.name,
            policy=vswitch.teaming.policy,
            mtu=vswitch.mtu,
            missing=host_missing(host),
        )
        if vswitch.mtu is None:
            base.missing["mtu"] = esxi_unknown(host.name, vswitch.name, "mtu")
        team = _team(base, vswitch.teaming, uplinks)
        facts.teams.append(team)
        facts.uplinks.extend(team.uplinks)
        for pg in host.portgroups:
            if pg.vswitch != vswitch.name:
                continue
            pg_team = team
            if pg.teaming is not None and pg.teaming != vswitch.teaming:
                pg_base = base.model_copy(
                    update={"object": f"{base.object}/{pg.name}", "kind": "vss-portgroup", "portgroup": pg.name}
                )
                pg_team = _team(pg_base, pg.teaming, uplinks)
                facts.teams.append(pg_team)
            named = pg_team.model_copy(update={"portgroup": pg.name})
            facts.portgroups.append(_portgroup(named, "standard", pg.vlan, "vlan", None))
        for nic, uplink in uplinks.items():
            if nic not in vswitch.teaming.active + vswitch.teaming.standby:
                facts.uplinks.append(uplink.model_copy(update={"role": "unused", "team": base.object}))


def _lag_teaming(base: TeamFact, teaming: Teaming, lags: dict[str, Lag], ports: list[str]) -> Teaming:
    """A port group whose active uplink is a LAG: the team's uplinks are the LAG's ports (`lag1-0`, ...)."""
    lag_name = next((a for a in teaming.active if a in lags), None)
    if lag_name is None:
        return teaming
    lag = lags[lag_name]
    base.lag = lag_name
    base.lag_mode = lag.mode
    base.lag_hash = vocab.LAG_HASHES.get(lag.load_balance, lag.load_balance) if lag.load_balance else None
    base.lag_hash_fields = vocab.hash_fields(base.lag_hash) if base.lag_hash else []
    base.lag_uplink_count = lag.uplink_count
    # Each LAG field but its name is optional in the API: an unset one skips the rules that read it.
    for field, value, prop in (
        ("lag_mode", lag.mode, "lag_mode"),
        ("lag_hash", lag.load_balance, "lag_hash"),
        ("lag_uplink_count", lag.uplink_count, "lag_uplink_count"),
    ):
        if value is None:
            base.missing[field] = esxi_unknown(base.host, f"LAG {lag_name}", prop)
    return teaming.model_copy(update={"active": [p for p in ports if p.startswith(f"{lag_name}-")]})


def _basic_lacp(base: TeamFact, dvs: DistributedSwitch, teaming: Teaming, ports: list[str]) -> None:
    """Basic LACP (vSphere 5.1-6.5, `lacpApiVersion` singleLag): LACP enabled on the uplink port group
    bundles every uplink of the host into one LAG, hashed by the port groups' IP hash teaming."""
    if dvs.lacp_api_version != "singleLag" or teaming.policy != "loadbalance_ip":
        return
    uplink_pg = next((pg for pg in dvs.portgroups if pg.uplink), None)
    if uplink_pg is None or uplink_pg.lacp is None:
        if uplink_pg is not None:
            base.missing["lag"] = (
                f"{base.host} {dvs.name}: single-LAG LACP of uplink port group {uplink_pg.name} not read "
                "(VMwareUplinkLacpPolicy)"
            )
        return
    if uplink_pg.lacp == "off":
        return
    base.lag = f"LACP of uplink port group {uplink_pg.name}"
    base.lag_mode = uplink_pg.lacp
    base.lag_hash = vocab.LAG_HASHES["srcDestIp"]
    base.lag_hash_fields = vocab.hash_fields(base.lag_hash)
    base.lag_uplink_count = len(ports)


def dvs_key(dvs: DistributedSwitch) -> str:
    """A distributed switch's identity: its UUID; its name only in snapshots that have no UUID."""
    return f"uuid:{dvs.uuid}" if dvs.uuid else f"name:{dvs.name}"


def member_of(dvs: DistributedSwitch, members: dict[str, DvsHostMember], host: EsxiHost) -> DvsHostMember | None:
    """The host's membership of the switch: by managed object id within the switch's vCenter; by name
    for snapshots without ids. A member recorded with its id is that host only, never a namesake."""
    if host.moid is not None and host.vcenter == dvs.vcenter:
        found = members.get(f"id:{host.moid}")
        if found is not None:
            return found
    found = members.get(f"name:{host.name}")
    if found is None:
        return None
    if (
        found.host_id is not None
        and host.moid is not None
        and (found.host_id != host.moid or host.vcenter != dvs.vcenter)
    ):
        return None
    return found


def _proxy_teaming(ports: list[str], used: list[Teaming]) -> Teaming:
    """The host's proxy switch as one team: an uplink port active for any port group is active, one only
    ever standby is standby, the rest unused (no port group sends on it)."""
    active = {p for t in used for p in t.active}
    standby = {p for t in used for p in t.standby} - active
    return Teaming(
        policy="loadbalance_srcid",
        active=[p for p in ports if p in active],
        standby=[p for p in ports if p in standby],
        unused=[p for p in ports if p not in active and p not in standby],
    )


def _distributed_teams(
    host: EsxiHost,
    dvswitches: list[DistributedSwitch],
    dvs_members: dict[str, dict[str, DvsHostMember]],
    index: SwitchIndex,
    facts: Facts,
) -> None:
    """Per distributed switch the host is on: one team per port group (its teaming, a LAG's ports for a
    LAG port group) and one `dvs` team for the host's proxy switch, every uplink port the host gives the
    switch, which carries the switch's MTU (MT002) and the proxy switch's own (MT008)."""
    pnics = {p.name: p for p in host.pnics}
    for dvs in dvswitches:
        member = member_of(dvs, dvs_members[dvs_key(dvs)], host)
        if member is None:
            continue
        uplinks = {port: _uplink(host, nic, pnics, index) for port, nic in member.uplinks.items()}
        ports = list(member.uplinks)
        lags = {lag.name: lag for lag in dvs.lags}
        proxy = TeamFact(
            object=f"{host.name}/{dvs.name}",
            host=host.name,
            host_kind="esxi",
            kind="dvs",
            vswitch=dvs.name,
            policy="per-portgroup",
            mtu=dvs.max_mtu,
            proxy_mtu=member.mtu,
            missing=host_missing(host),
        )
        if dvs.max_mtu is None:
            proxy.missing["mtu"] = esxi_unknown(host.name, dvs.name, "max_mtu")
        if member.mtu is None:
            proxy.missing["proxy_mtu"] = esxi_unknown(host.name, dvs.name, "proxy_mtu")
        add_evidence(proxy, uplinks, host, dvs, member)
        used = []
        for pg in dvs.portgroups:
            if pg.uplink or pg.teaming is None:
                # The uplinks' own port group: no VM or vmk sits on it. An NSX port group: its teaming is
                # NSX's uplink profile, which the vSphere API does not show (its vmks say so).
                continue
            base = proxy.model_copy(
                update={
                    "object": f"{proxy.object}/{pg.name}",
                    "kind": "dvs-portgroup",
                    "portgroup": pg.name,
                    "policy": pg.teaming.policy,
                    "missing": {k: v for k, v in proxy.missing.items() if k != "proxy_mtu"},
                }
            )
            teaming = _lag_teaming(base, pg.teaming, lags, ports)
            if base.lag is None:
                _basic_lacp(base, dvs, teaming, ports)
            used.append(teaming)
            pg_team = _team(base, teaming, uplinks)
            facts.teams.append(pg_team)
            facts.portgroups.append(_dvs_portgroup(pg_team, pg))
        teaming = _proxy_teaming(ports, used)
        team = _team(proxy, teaming, uplinks)
        team.policy = proxy.policy
        facts.teams.append(team)
        facts.uplinks.extend(team.uplinks)
        for port in teaming.unused:
            facts.uplinks.append(uplinks[port].model_copy(update={"role": "unused", "team": team.object}))


def dvs_members(dvswitches: list[DistributedSwitch]) -> dict[str, dict[str, DvsHostMember]]:
    """Each distributed switch's host members (by `id:` managed object id and `name:` host name) by the
    switch's identity (dvs_key), built once per site rather than per host. Two switches of one name (the
    default `DSwitch` in two datacenters) stay two."""
    found: dict[str, dict[str, DvsHostMember]] = {}
    for dvs in dvswitches:
        by = found.setdefault(dvs_key(dvs), {})
        for member in dvs.hosts:
            by.setdefault(f"name:{member.host}", member)
            if member.host_id is not None:
                by[f"id:{member.host_id}"] = member
    return found


def esxi_facts(
    host: EsxiHost,
    dvswitches: list[DistributedSwitch],
    members: dict[str, dict[str, DvsHostMember]],
    index: SwitchIndex,
    facts: Facts,
    site: SiteParams,
) -> None:
    teams_before, vmks_before = len(facts.teams), len(facts.vmks)
    _standard_teams(host, index, facts)
    _distributed_teams(host, dvswitches, members, index, facts)
    vmk_facts(host, facts.teams[teams_before:], facts, site)
    # Only this host's vmk facts: scanning the whole site's for every host made the join quadratic.
    iscsi_facts(host, facts.vmks[vmks_before:], facts)
    pcie_facts(host, facts)
    distributed = {
        pg.name
        for dvs in dvswitches
        if member_of(dvs, members[dvs_key(dvs)], host) is not None
        for pg in dvs.portgroups
        if not pg.uplink
    }
    vm_facts(host, distributed, facts)
