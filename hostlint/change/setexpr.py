"""`--set HOST/OBJECT.FIELD=VALUE`: a proposed change, resolved to the facts it touches.

    esx01/vSwitch1.teaming=loadbalance_ip     a vSwitch's (or `.../PortGroup`'s) teaming
    'esx*/vSwitch1.mtu=9000'                   a vSwitch's MTU, on every matching host
    esx01/vmk1.mtu=9000                        a vmk's MTU
    esx01/vmk2.portgroup=DSwitch1/iSCSI-A      move a vmk to a distributed port group

HOST is a shell pattern matched against host names (FQDN or short name).
"""

from __future__ import annotations

import difflib
import fnmatch
from dataclasses import dataclass
from typing import Any, get_args

from hostlint import names
from hostlint import platforms as registry
from hostlint.fixes.actions import units
from hostlint.fixes.site import Site
from hostlint.fixes.steps import CannotFix, Change
from hostlint.join.facts import Facts, TeamFact, VmkFact
from hostlint.snapshot.esxi import TeamingPolicy

POLICIES: tuple[str, ...] = get_args(TeamingPolicy)
# field -> (the fact kind it applies to, the fix action that makes the change, the param it sets)
FIELDS = {
    ("team", "teaming"): ("host-teaming", "policy"),
    ("team", "policy"): ("host-teaming", "policy"),
    ("team", "mtu"): ("host-vswitch-mtu", "mtu"),
    ("vmk", "mtu"): ("vmk-mtu", "mtu"),
    ("vmk", "portgroup"): ("vmk-migrate", "to"),
}


class ChangeError(Exception):
    """A `--set` that cannot be understood or names nothing in the snapshot; says what would match."""


@dataclass
class SetRequest:
    text: str
    host: str
    object: str
    field: str
    value: str


def parse_set(text: str) -> SetRequest:
    target, sep, value = text.partition("=")
    path, dot, field = target.rpartition(".")
    host, slash, obj = path.partition("/")
    if not (sep and dot and slash and host and obj and field and value):
        raise ChangeError(
            f"--set {text!r}: expected HOST/OBJECT.FIELD=VALUE, e.g. esx01/vSwitch1.teaming=loadbalance_ip"
        )
    return SetRequest(text=text, host=host.strip(), object=obj.strip(), field=field.strip(), value=value.strip())


def _value(request: SetRequest, param: str) -> Any:
    if param == "to":
        if "/" not in request.value:
            raise ChangeError(f"--set {request.text!r}: a vmk moves to DSWITCH/PORTGROUP")
        return request.value
    if param == "mtu":
        try:
            mtu = int(request.value)
        except ValueError:
            raise ChangeError(f"--set {request.text!r}: an MTU is a number, not {request.value!r}") from None
        if not 1280 <= mtu <= 9216:
            raise ChangeError(f"--set {request.text!r}: MTU {mtu} is outside 1280-9216")
        return mtu
    if request.value not in POLICIES:
        close = difflib.get_close_matches(request.value, POLICIES, n=3, cutoff=0.4)
        raise ChangeError(
            f"--set {request.text!r}: unknown teaming policy; did you mean {', '.join(close or POLICIES)}?"
        )
    return request.value


def _host_matches(pattern: str, host: str) -> bool:
    return fnmatch.fnmatchcase(host.casefold(), pattern.casefold()) or fnmatch.fnmatchcase(
        names.device_key(host), pattern.casefold()
    )


def _within_limit(request: SetRequest, fact: TeamFact | VmkFact, mtu: int) -> None:
    """A host kind's MTU limit (hostlint.platforms): a plan never writes beyond it."""
    kind = registry.host_kind(fact.host_kind if isinstance(fact, TeamFact) else "esxi")
    if kind.max_mtu is not None and mtu > kind.max_mtu:
        raise ChangeError(
            f"--set {request.text!r}: MTU {mtu} is above the {kind.name.upper().replace('ESXI', 'ESXi')} maximum"
            f" of {kind.max_mtu} for {fact.object}"
        )


def resolve(request: SetRequest, facts: Facts) -> list[tuple[TeamFact | VmkFact, str, dict[str, Any]]]:
    """The facts a request changes, with the fix action and params that change each."""
    # Distributed switches (their port groups and each host's proxy switch) are changed in vCenter.
    teams = [t for t in facts.teams if t.kind not in ("dvs-portgroup", "dvs")]
    candidates: list[tuple[str, TeamFact | VmkFact]] = [("team", t) for t in teams]
    candidates += [("vmk", v) for v in facts.vmks]
    matched = []
    for kind, fact in candidates:
        relative = fact.object.split("/", 1)[1]
        if _host_matches(request.host, fact.host) and relative == request.object:
            matched.append((kind, fact))
    if not matched:
        known = sorted({f"{names.device_key(f.host)}/{f.object.split('/', 1)[1]}" for _, f in candidates})
        wanted = f"{names.device_key(request.host)}/{request.object}"
        close = difflib.get_close_matches(wanted, known, n=5, cutoff=0.5)
        hint = f"; close matches: {', '.join(close)}" if close else ""
        raise ChangeError(f"--set {request.text!r}: no object {request.host}/{request.object} in the snapshot{hint}")
    resolved = []
    for kind, fact in matched:
        action = FIELDS.get((kind, request.field))
        if action is None:
            fields = sorted(f for k, f in FIELDS if k == kind)
            raise ChangeError(
                f"--set {request.text!r}: {fact.object} has no field {request.field!r} (use {', '.join(fields)})"
            )
        value = _value(request, action[1])
        if action[1] == "mtu":
            _within_limit(request, fact, value)
        resolved.append((fact, action[0], {action[1]: value}))
    return resolved


def requested_changes(texts: list[str], facts: Facts, site: Site) -> list[tuple[SetRequest, Change]]:
    """Every `--set` as the changes it makes, in the order given."""
    changes = []
    for text in texts:
        request = parse_set(text)
        for fact, action, params in resolve(request, facts):
            try:
                expanded = units()[action].expand(params, fact, site)
            except CannotFix as exc:
                raise ChangeError(f"--set {text!r}: {exc}") from exc
            changes += [(request, change) for change in expanded]
    return changes
