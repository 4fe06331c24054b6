"""The fact a finding carries, back as its typed model, and the uplinks a fix touches."""

from __future__ import annotations

from typing import Any, TypeVar

from hostlint.fixes.site import Site
from hostlint.fixes.steps import CannotFix
from hostlint.join.facts import BondFact, Fact, GuestNicFact, PortgroupFact, TeamFact, UplinkFact, VmkFact


def parse_fact(data: dict[str, Any]) -> Fact:
    """A finding's fact dump as a BondFact, TeamFact, UplinkFact, VmkFact or GuestNicFact (told
    apart by their own fields); any other kind of fact as a plain Fact, which no fix action accepts.
    """
    # A bond is a team with bond-only fields: test it first, or it would come back a plain TeamFact.
    if "uplinks" in data and "implementation" in data:
        return BondFact.model_validate(data)
    if "domain" in data and "model" in data and "source_type" in data:
        return GuestNicFact.model_validate(data)
    if "uplinks" in data and "switch_kind" in data:
        return PortgroupFact.model_validate(data)
    if "uplinks" in data and "kind" in data:
        return TeamFact.model_validate(data)
    if "nic" in data and "host_kind" in data:
        return UplinkFact.model_validate(data)
    if "portgroup" in data and "mtu" in data and "name" in data:
        return VmkFact.model_validate(data)
    return Fact.model_validate(data)


def require(fact: Fact, *kinds: type[Fact]) -> Any:
    if not isinstance(fact, kinds):
        wanted = " or ".join(k.__name__ for k in kinds)
        raise CannotFix(f"this action needs a {wanted}, the finding is about a {type(fact).__name__}")
    return fact


def uplinks_of(fact: Fact, site: Site, roles: tuple[str, ...] = ("active", "standby")) -> list[UplinkFact]:
    """The uplinks a fix on `fact` touches: the team's (in `roles`), the uplink itself, or a vmk's vSwitch's."""
    if isinstance(fact, UplinkFact):
        return [fact]
    if isinstance(fact, VmkFact):
        team = site.team(fact.host, fact.vswitch)
        if team is None:
            raise CannotFix(f"{fact.object} is not on a standard vSwitch hostlint can follow to the switch")
        fact = team
    uplinks = [u for u in require(fact, TeamFact, PortgroupFact).uplinks if u.role in roles]
    unknown = [u.object for u in uplinks if u.switch is None or u.platform is None or u.port is None]
    if unknown:
        raise CannotFix(f"switch port unknown for {', '.join(unknown)}: collect the switch or add a cabling entry")
    return uplinks


T = TypeVar("T")


def known(value: T | None, uplink: UplinkFact) -> T:
    """The switch, port or platform of an uplink `uplinks_of` returned (it checked each is known)."""
    if value is None:
        raise CannotFix(f"switch port unknown for {uplink.object}: collect the switch or add a cabling entry")
    return value
