"""KVM hosts to facts: bonds (Linux and OVS) with their members' switch ports, uplinks, guest NICs.

Bonds are their own fact kind (`bonds`) rather than `teams`: ESXi team rules
read `policy` and `lag` with vSphere meanings that a bond mode does not have.
"""

from __future__ import annotations

from collections import Counter

from hostlint.join.facts import BondFact, Facts, GuestNicFact, UplinkFact, summarise_unknowns
from hostlint.join.kvm_vlans import ovs_portgroups, vlan_device_portgroups
from hostlint.join.pcie import pcie_facts
from hostlint.join.sources import kvm_unknown
from hostlint.join.state import host_missing
from hostlint.join.switches import SwitchIndex
from hostlint.snapshot.kvm import Bond, BondMember, DomainInterface, KvmHost, LibvirtDomain

# What a bond's xmit_hash_policy feeds its hash, in hostlint.vocab's field names.
XMIT_HASH_FIELDS: dict[str, list[str]] = {
    "layer2": ["src-mac", "dst-mac"],
    "layer2+3": ["src-mac", "dst-mac", "src-ip", "dst-ip"],
    "layer3+4": ["src-ip", "dst-ip", "src-port", "dst-port"],
    "encap2+3": ["src-mac", "dst-mac", "src-ip", "dst-ip"],
    "encap3+4": ["src-ip", "dst-ip", "src-port", "dst-port"],
    "vlan+srcmac": ["vlan", "src-mac"],
}
# Modes whose hash decides the member a frame leaves on.
HASHING_MODES = ("802.3ad", "balance-xor")


class _Host:
    """One host's interfaces by name, with what sits on top of what."""

    def __init__(self, host: KvmHost):
        self.host = host
        self.interfaces = {i.name: i for i in host.interfaces}
        self.bonds = {b.name: b for b in host.bonds}
        self.bridges = {b.name: b for b in host.bridges}
        self.vlans_on: dict[str, list[str]] = {}
        for vlan in host.vlans:
            self.vlans_on.setdefault(vlan.parent, []).append(vlan.name)
        self.vlan_parent = {v.name: v.parent for v in host.vlans}

    def mtu(self, name: str) -> int | None:
        interface = self.interfaces.get(name)
        return interface.mtu if interface else None

    def master(self, name: str) -> str | None:
        interface = self.interfaces.get(name)
        return interface.master if interface else None

    def bridge_members(self, bridge: str) -> list[str]:
        found = self.bridges.get(bridge)
        members = list(found.members) if found else []
        members += [i.name for i in self.host.interfaces if i.master == bridge and i.name not in members]
        return members

    def below(self, name: str) -> list[str]:
        """Interfaces a frame sent on `name` goes through on its way out, in order."""
        if name in self.vlan_parent:
            return [name, *self.below(self.vlan_parent[name])]
        if name in self.bonds:
            return [name, *(m.name for m in self.bonds[name].members)]
        interface = self.interfaces.get(name)
        # Other guests' taps are ports of the bridge, not ways out of the host.
        if interface is not None and interface.kind != "tap":
            return [name]
        return []


def _uplink(
    view: _Host,
    nic: str,
    team: str | None,
    link_up: bool | None,
    speed: int | None,
    duplex: str | None,
    index: SwitchIndex,
) -> UplinkFact:
    host = view.host
    uplink = UplinkFact(
        object=f"{host.name}/{nic}",
        host=host.name,
        host_kind="kvm",
        nic=nic,
        team=team,
        link_up=link_up,
        speed_mbps=speed,
        duplex=duplex,
        missing=host_missing(host),
    )
    if link_up is None:
        bond = team.rsplit("/", 1)[-1] if team else None
        uplink.missing["link_up"] = kvm_unknown(host.name, nic, "link_up" if team else "operstate", bond)
    interface = view.interfaces.get(nic)
    index.resolve(uplink, interface.neighbour if interface else None)
    return uplink


def _bond_fact(view: _Host, bond: Bond, index: SwitchIndex) -> BondFact:
    host = view.host
    team_name = f"{host.name}/{bond.name}"
    uplinks = []
    for member in bond.members:
        nic = view.interfaces.get(member.name)
        uplinks.append(
            _uplink(
                view,
                member.name,
                team_name,
                member.link_up,
                member.speed_mbps or (nic.speed_mbps if nic else None),
                member.duplex or (nic.duplex if nic else None),
                index,
            )
        )
    member_names = [m.name for m in bond.members]
    bond_mtu = view.mtu(bond.name)
    if bond.implementation == "linux":
        bridge = view.master(bond.name)
    else:
        bridge = next((b.name for b in host.bridges if bond.name in b.members), None)
    member_mtus = [(m, mtu) for m in member_names if (mtu := view.mtu(m))]
    uppers = [bridge] if bridge else []
    uppers += view.vlans_on.get(bond.name, [])
    upper_mtus = [(u, mtu) for u in uppers if (mtu := view.mtu(u))]
    mtus = [f"{name} {mtu}" for name, mtu in [(bond.name, bond_mtu), *member_mtus, *upper_mtus] if mtu]
    up = [m for m in bond.members if m.link_up]
    fact = BondFact(
        object=team_name,
        host=host.name,
        host_kind="kvm",
        kind="bond" if bond.implementation == "linux" else "ovs-bond",
        vswitch=bond.name,
        policy=bond.mode,
        active=member_names,
        mtu=bond_mtu,
        uplinks=uplinks,
        switches=sorted({u.switch for u in uplinks if u.switch}),
        logical_switches=sorted({u.logical_switch for u in uplinks if u.logical_switch}),
        channel_ids=sorted({u.channel_id for u in uplinks if u.channel_id}),
        missing=host_missing(host),
        implementation=bond.implementation,
        xmit_hash_policy=bond.xmit_hash_policy,
        host_hash_fields=XMIT_HASH_FIELDS.get(bond.xmit_hash_policy or "", []) if bond.mode in HASHING_MODES else [],
        switch_hash_fields=next((u.switch_hash_fields for u in uplinks if u.switch_hash_fields), []),
        lacp_rate=bond.lacp_rate,
        partner_mac=bond.partner_mac or _member_partner(up),
        active_aggregator_id=bond.active_aggregator_id,
        aggregator_ids=sorted({m.aggregator_id for m in up if m.aggregator_id is not None}),
        outside_aggregator=_outside_aggregator(bond, up),
        bridge=bridge,
        mtus=mtus,
        member_mtus=[mtu for _, mtu in member_mtus],
        upper_mtus=[mtu for _, mtu in upper_mtus],
    )
    for uplink in uplinks:
        for kind, reason in uplink.missing.items():
            fact.missing.setdefault(kind, reason)
    _unread_bond_state(fact, bond)
    summarise_unknowns(fact, uplinks)
    # MTUs not read (an interface listed without /sys/class/net/IFACE/mtu) leave the comparison unknown.
    for field, names in (("mtu", [bond.name]), ("member_mtus", member_names), ("upper_mtus", uppers)):
        unread = [kvm_unknown(host.name, n, "mtu") for n in names if n in view.interfaces and view.mtu(n) is None]
        # An Open vSwitch bond has no netdev of its own (no /sys/class/net/BOND): its members' MTUs are compared.
        ovs_without_netdev = bond.implementation == "ovs" and bond.name not in view.interfaces
        if field == "mtu" and bond_mtu is None and not unread and not ovs_without_netdev:
            unread = [kvm_unknown(host.name, bond.name, "mtu")]
        if unread:
            fact.missing[field] = "; ".join(unread)
    return fact


NO_PARTNER = "00:00:00:00:00:00"


def _member_partner(up: list[BondMember]) -> str | None:
    """The LACP partner the members show, where the bond's summary block gave none (`details partner lacp
    pdu` per slave in /proc/net/bonding): all-zero when no member has a partner, else the first real one."""
    partners = [m.partner_mac for m in up if m.partner_mac]
    if not partners:
        return None
    real = [mac for mac in partners if mac != NO_PARTNER]
    return real[0] if real else NO_PARTNER


def _outside_aggregator(bond: Bond, up: list[BondMember]) -> list[str]:
    """Members that are up outside the bond's active aggregator. Without the summary's active aggregator,
    members in different aggregators never aggregated together: each is alone in its own."""
    if bond.active_aggregator_id is not None:
        return [
            f"{m.name} in aggregator {m.aggregator_id}"
            for m in up
            if m.aggregator_id not in (None, bond.active_aggregator_id)
        ]
    ids = {m.aggregator_id for m in up if m.aggregator_id is not None}
    if len(ids) < 2:
        return []
    return [f"{m.name} in aggregator {m.aggregator_id}" for m in up if m.aggregator_id is not None]


def _unread_bond_state(fact: BondFact, bond: Bond) -> None:
    """An OVS bond listed by OVSDB whose ovs-appctl state was refused: mode and LACP state unknown, so the
    bond rules are skipped for it, named; so is LACP state an LACP bond's `lacp/show` did not give."""
    host = fact.host
    if bond.mode is None:
        reason = kvm_unknown(host, bond.name, "ovs_bond_mode" if bond.implementation == "ovs" else "bond_mode")
        # Which header fields the bond hashes on follows from its mode.
        fact.missing["policy"] = fact.missing["host_hash_fields"] = reason
    if bond.implementation == "ovs" and bond.mode in (None, "balance-tcp") and bond.partner_mac is None:
        fact.missing["partner_mac"] = kvm_unknown(host, bond.name, "ovs_lacp_partner")
    elif bond.implementation == "linux" and bond.mode == "802.3ad" and fact.partner_mac is None:
        # Neither the summary block nor any member showed a partner: LACP state unknown, never a pass.
        fact.missing["partner_mac"] = kvm_unknown(host, bond.name, "lacp_partner")


def _standalone_uplinks(view: _Host, bonded: set[str], index: SwitchIndex) -> list[UplinkFact]:
    """Physical NICs outside bonds that carry traffic: up, or enslaved to a bridge."""
    uplinks = []
    for nic in view.host.interfaces:
        if nic.kind != "physical" or nic.name in bonded:
            continue
        if nic.operstate != "up" and nic.master is None:
            continue
        team = f"{view.host.name}/{nic.master}" if nic.master else None
        uplinks.append(_uplink(view, nic.name, team, nic.operstate == "up", nic.speed_mbps, nic.duplex, index))
    return uplinks


def _guest_path(view: _Host, interface: DomainInterface) -> tuple[str | None, list[str], int | None]:
    """(bridge, `name mtu` of each hop below the guest, the smallest MTU on the way)."""
    bridge = interface.source if interface.source_type == "bridge" else None
    network_mtu = None
    if interface.source_type == "network":
        network = next((n for n in view.host.networks if n.name == interface.source), None)
        if network is not None:
            bridge, network_mtu = network.bridge, network.mtu
    hops: list[tuple[str, int]] = []
    if interface.source_type == "direct" and interface.source:
        hops = [(name, mtu) for name in view.below(interface.source) if (mtu := view.mtu(name))]
    elif bridge:
        if bridge_mtu := view.mtu(bridge):
            hops.append((bridge, bridge_mtu))
        elif network_mtu:
            hops.append((bridge, network_mtu))
        for member in view.bridge_members(bridge):
            hops += [(name, mtu) for name in view.below(member) if (mtu := view.mtu(name))]
    seen: dict[str, int] = dict(hops)
    path = [f"{name} {mtu}" for name, mtu in seen.items()]
    return bridge, path, min(seen.values()) if seen else None


def _path_names(view: _Host, interface: DomainInterface, bridge: str | None) -> list[str]:
    """The host interfaces (known to the snapshot) a guest NIC's frames pass on their way out."""
    names: list[str] = []
    if interface.source_type == "direct" and interface.source:
        names = view.below(interface.source)
    elif bridge:
        names = [bridge]
        for member in view.bridge_members(bridge):
            names += view.below(member)
    return [n for n in names if n in view.interfaces]


def guest_path_names(host: KvmHost, interface: DomainInterface) -> list[str]:
    """The host interfaces a guest NIC's frames pass on their way out (bridge, VLAN, bond, NICs)."""
    view = _Host(host)
    bridge, _, _ = _guest_path(view, interface)
    return _path_names(view, interface, bridge)


def _switch_path(fact: GuestNicFact, names: list[str], uplinks: dict[str, UplinkFact]) -> None:
    """The switch figures under the path's uplinks (`switch_path_mtu`): what a raise of the host path
    may go up to. Unknown when an uplink's switch port or its figure was not read."""
    under = [uplinks[name] for name in names if name in uplinks]
    mtus = [m for u in under for m in (u.port_mtu, u.channel_mtu) if m is not None]
    fact.switch_path = [f"{u.nic} -> {u.switch} {u.port} {u.port_mtu}" for u in under if u.port and u.port_mtu]
    fact.switch_path_mtu = min(mtus) if mtus else None
    unknown = [
        reason
        for u in under
        for reason in (
            [u.missing[k] for k in ("switch", "port_mtu", "channel_mtu") if k in u.missing]
            or ([] if u.port else [f"{u.object}: its switch port is not known"])
        )
    ]
    if unknown:
        fact.missing["switch_path_mtu"] = "; ".join(dict.fromkeys(unknown))


def nic_ids(domain: LibvirtDomain) -> list[str]:
    """Each NIC's id within its domain: its MAC, and its position too where the MAC repeats (failover pairs)."""
    macs = Counter(interface.mac for interface in domain.interfaces)
    ids = []
    for number, interface in enumerate(domain.interfaces):
        if interface.mac is None:
            ids.append(f"net{number}")
        else:
            ids.append(interface.mac if macs[interface.mac] == 1 else f"{interface.mac}#net{number}")
    return ids


def _guest_nics(view: _Host, domain: LibvirtDomain, uplinks: dict[str, UplinkFact]) -> list[GuestNicFact]:
    host = view.host
    facts = []
    for nic_id, interface in zip(nic_ids(domain), domain.interfaces, strict=True):
        bridge, path, path_mtu = _guest_path(view, interface)
        facts.append(
            GuestNicFact(
                object=f"{host.name}/{domain.name}/{nic_id}",
                host=host.name,
                domain=domain.name,
                domain_state=domain.state,
                model=interface.model,
                source_type=interface.source_type,
                source=interface.source,
                mtu=interface.mtu,
                driver=interface.driver,
                queues=interface.queues,
                bridge=bridge,
                path=path,
                path_mtu=path_mtu,
                vhost_net=host.vhost_net,
                missing=host_missing(host),
            )
        )
        fact = facts[-1]
        if interface.model is None and interface.source_type != "hostdev":  # a hostdev NIC has no model to read
            nic = f"{domain.name} {fact.object.rsplit('/', 1)[-1]}"
            fact.missing["model"] = kvm_unknown(host.name, nic, "nic_model")
        names = _path_names(view, interface, bridge)
        unread = [kvm_unknown(host.name, n, "mtu") for n in names if view.mtu(n) is None]
        if unread:
            fact.missing["path_mtu"] = "; ".join(unread)
        _switch_path(fact, names, uplinks)
        limits = [m for n in names if (m := view.interfaces[n].max_mtu) is not None]
        fact.path_max_mtu = min(limits) if limits else None
    return facts


def kvm_facts(host: KvmHost, index: SwitchIndex, facts: Facts) -> None:
    view = _Host(host)
    bonds = [_bond_fact(view, bond, index) for bond in host.bonds]
    facts.bonds.extend(bonds)
    for bond in bonds:
        facts.uplinks.extend(bond.uplinks)
    bonded = {u.nic for bond in bonds for u in bond.uplinks}
    standalone = _standalone_uplinks(view, bonded, index)
    facts.uplinks.extend(standalone)
    by_nic = {u.nic: u for u in [*(u for bond in bonds for u in bond.uplinks), *standalone]}
    facts.portgroups.extend(ovs_portgroups(host, by_nic))
    facts.portgroups.extend(vlan_device_portgroups(host, by_nic))
    for domain in host.domains:
        facts.guest_nics.extend(_guest_nics(view, domain, by_nic))
    pcie_facts(host, facts)
