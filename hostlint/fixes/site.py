"""What the fix writer needs to know about the site beyond one finding's fact.

Switch details (platform, existing port-channels, vPC/MLAG peer), a host's other
teams, vmkping peers, ESXi and KVM hosts (bonds, libvirt domains), and port-channel
numbers handed out while planning.
"""

from __future__ import annotations

import ipaddress

from hostlint import names
from hostlint.fixes.spelling import channel_number
from hostlint.join import build_facts
from hostlint.join.facts import Facts, TeamFact, UplinkFact, VmkFact
from hostlint.join.switches import IndexedSwitch, SwitchIndex
from hostlint.snapshot import Snapshot
from hostlint.snapshot.esxi import EsxiHost
from hostlint.snapshot.kvm import Bond, DomainInterface, KvmHost
from hostlint.snapshot.switch import TWO_PEERS, PortChannel, Switch, SwitchPort

MULTICHASSIS_CONFIG = TWO_PEERS


class Site:
    def __init__(self, snapshot: Snapshot, facts: Facts | None = None):
        self._switches = SwitchIndex(snapshot)
        facts = facts or build_facts(snapshot)
        self._teams = {(t.host, t.vswitch): t for t in facts.teams if t.kind == "vss"}
        self._vmks = facts.vmks
        # Every host NIC's switch end, unused uplinks' too (a team's fact lists active and standby ones).
        self._uplinks = {(names.device_key(u.host), u.nic): u for u in facts.uplinks}
        self._hosts = {names.device_key(h.name): h for h in snapshot.esxi_hosts}
        self._kvm_hosts = {names.device_key(h.name): h for h in snapshot.kvm_hosts}
        self.channels = ChannelNumbers()

    def switch(self, name: str) -> Switch | None:
        found = self._switches.lookup(name)
        return found.switch if found else None

    def multichassis(self, switches: list[Switch]) -> str | None:
        """`vpc`, `mlag` or `m-lag` when these switches are one pair whose channels need `vpc N`/`mlag N`/
        `m-lag N`."""
        if len(switches) < 2:
            return None
        logical = {self._indexed(s).logical for s in switches}
        kind = switches[0].multichassis.kind if switches[0].multichassis else None
        if len(logical) == 1 and kind in MULTICHASSIS_CONFIG:
            return kind
        return None

    def logical(self, switch: Switch) -> str:
        return self._indexed(switch).logical

    def _indexed(self, switch: Switch) -> IndexedSwitch:
        found = self._switches.lookup(switch.name)
        if found is None:  # every switch of the snapshot is indexed
            raise LookupError(f"switch {switch.name} is not in the snapshot")
        return found

    def uplink(self, host: str, nic: str) -> UplinkFact | None:
        return self._uplinks.get((names.device_key(host), nic))

    def host(self, name: str) -> EsxiHost | None:
        return self._hosts.get(names.device_key(name))

    def kvm_host(self, name: str) -> KvmHost | None:
        return self._kvm_hosts.get(names.device_key(name))

    def is_kvm(self, name: str) -> bool:
        return names.device_key(name) in self._kvm_hosts

    def bond(self, host: str, name: str) -> Bond | None:
        kvm = self.kvm_host(host)
        return next((b for b in kvm.bonds if b.name == name), None) if kvm else None

    def domain_interface(self, host: str, domain: str, mac: str) -> DomainInterface | None:
        kvm = self.kvm_host(host)
        found = next((d for d in kvm.domains if d.name == domain), None) if kvm else None
        if found is None:
            return None
        return next((i for i in found.interfaces if i.mac and i.mac.lower() == mac.lower()), None)

    def team(self, host: str, vswitch: str | None) -> TeamFact | None:
        return self._teams.get((host, vswitch or ""))

    def vmk_peer(self, vmk: VmkFact) -> str | None:
        """Another host's vmk address in the same subnet, to prove the path with vmkping."""
        if vmk.ip is None or vmk.prefix is None:
            return None
        network = ipaddress.ip_interface(f"{vmk.ip}/{vmk.prefix}").network
        candidates = [
            other
            for other in self._vmks
            if other.host != vmk.host and other.ip and ipaddress.ip_address(other.ip) in network
        ]
        # A peer with the same service (vMotion to vMotion) proves the path that matters.
        candidates.sort(key=lambda o: (not set(o.services) & set(vmk.services), o.host, o.name))
        return candidates[0].ip if candidates else None


def port(switch: Switch, name: str) -> SwitchPort | None:
    key = names.interface_key(name)
    return next((p for p in switch.ports if names.interface_key(p.name) == key), None)


def channel(switch: Switch, name: str | None) -> PortChannel | None:
    if not name:
        return None
    key = names.interface_key(name)
    return next((c for c in switch.port_channels if names.interface_key(c.name) == key), None)


def channel_by_number(switch: Switch, number: int) -> PortChannel | None:
    return next((c for c in switch.port_channels if channel_number(c.name) == number), None)


class ChannelNumbers:
    """Port-channel numbers for new static channels: reused when the team's ports already have one,
    otherwise the lowest number free on every switch of the pair (as channel and as vPC/MLAG id),
    and never handed out twice in one plan.
    """

    def __init__(self) -> None:
        self._given: dict[tuple[tuple[str, str], ...], int] = {}
        self._taken: dict[str, set[int]] = {}

    def choose(
        self, ports: dict[str, list[str]], switches: list[Switch], team: dict[str, list[str]] | None = None
    ) -> int:
        """`team`: every port of the team (standby and unused uplinks' too); a channel holding only those
        is extended rather than a member moved out of it into a new one (invariant 9)."""
        key = tuple(sorted((s, names.interface_key(p)) for s, plist in ports.items() for p in plist))
        if key in self._given:
            return self._given[key]
        number = self._reusable(ports, switches, team or ports)
        if number is None:
            used = set().union(*(self._used(s) for s in switches))
            number = next(n for n in range(1, 4097) if n not in used)
        self._given[key] = number
        for switch in switches:
            self._taken.setdefault(switch.name, set()).add(number)
        return number

    def _used(self, switch: Switch, ignore: int | None = None) -> set[int]:
        used = set(self._taken.get(switch.name, set()))
        for existing in switch.port_channels:
            number = channel_number(existing.name)
            if number == ignore:
                continue
            used.update(n for n in (number, existing.multichassis_id) if n is not None)
        return used

    def _reusable(self, ports: dict[str, list[str]], switches: list[Switch], team: dict[str, list[str]]) -> int | None:
        """The lowest channel one of the team's ports is in, if no other port or channel claims its number."""
        candidates = sorted(
            n
            for switch in switches
            for name in [*ports[switch.name], *team.get(switch.name, [])]
            if (found := port(switch, name)) is not None
            and (existing := channel(switch, found.port_channel)) is not None
            and (n := channel_number(existing.name)) is not None
        )
        team_keys = {
            s.name: {names.interface_key(p) for p in [*ports[s.name], *team.get(s.name, [])]} for s in switches
        }
        for number in candidates:
            if any(number in self._used(s, ignore=number) for s in switches):
                continue
            members_ok = all(
                existing is None or {names.interface_key(m) for m in existing.members} <= team_keys[s.name]
                for s in switches
                for existing in [channel_by_number(s, number)]
            )
            if members_ok:
                return number
        return None
