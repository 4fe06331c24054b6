"""What the domain requires before a requested change, whatever findings the change alone shows.

Raising MTU goes switch path first, then the (distributed) switch, then the vmk (DOMAIN.md,
"Remediation: order is safety"): a vmk raised above its vSwitch needs the vSwitch raised first,
and a vSwitch raised above what its switch ports and port-channels carry needs those raised first.
Lowering goes the reverse: the vmks above the new MTU first, then the vSwitch. A vmk moved onto a
distributed switch needs that switch to carry its MTU (raised in vCenter, by hand).
The rules' own fixes cannot propose that for a vmk: MT001's fix when the path is too small is to
lower the vmk again, which would undo the very change asked for. Each prerequisite is named: it
says which requested change needs it and why.

Teaming changes need no entry here: the findings they introduce (LG001 no port-channel, LG003 hash)
carry fixes that build the channel and its hash, which the plan orders switch first already.
"""

from __future__ import annotations

from dataclasses import dataclass

from hostlint.change.setexpr import SetRequest
from hostlint.fixes.actions.host_vswitch_mtu import host_vswitch_mtu
from hostlint.fixes.actions.switch_port_mtu import port_mtu
from hostlint.fixes.actions.vmk_mtu import vmk_mtu
from hostlint.fixes.site import Site
from hostlint.fixes.steps import CannotFix, Change
from hostlint.join.facts import Facts, TeamFact, VmkFact
from hostlint.snapshot import Snapshot

PREREQUISITE = "NEEDS"


@dataclass
class Prerequisite:
    """A change that must come before `request`'s (`change` None: one hostlint cannot script)."""

    request: SetRequest
    object: str
    why: str
    stage: str
    change: Change | None = None
    by_hand: str | None = None
    # A by-hand distributed switch MTU raise: (switch, MTU), assumed done before the scripted steps.
    dvs_mtu: tuple[str, int] | None = None


def _raises(change: Change) -> bool:
    return isinstance(change.after, int) and (change.before is None or change.after > change.before)


def _switch_path(request: SetRequest, team: TeamFact, mtu: int, site: Site) -> list[Prerequisite]:
    """The switch ports and port-channels under `team` raised to carry `mtu`, where they do not."""
    try:
        changes = port_mtu({"mtu": mtu}, team, site)
    except (CannotFix, TypeError) as exc:
        # TypeError: a port whose MTU was not read cannot be compared; that is for a person to check.
        reason = str(exc) if isinstance(exc, CannotFix) else "a switch port's MTU on the path was not read"
        return [
            Prerequisite(
                request,
                team.object,
                f"the switch path of {team.vswitch} must carry MTU {mtu}",
                "switch",
                by_hand=f"make every switch port and port-channel under {team.object} carry MTU {mtu}: {reason}",
            )
        ]
    return [
        Prerequisite(
            request,
            f"{change.device} {change.target}",
            f"the switch path of {team.object} must carry MTU {mtu} before {team.vswitch} is raised",
            "switch",
            change=change,
        )
        for change in changes
    ]


def _vmk_mtu(request: SetRequest, change: Change, vmk: VmkFact, facts: Facts, site: Site) -> list[Prerequisite]:
    mtu = int(change.after)
    if vmk.vswitch_mtu is not None and vmk.vswitch_mtu >= mtu:
        return []
    if vmk.dvswitch:
        team = next((t for t in facts.teams if t.object == f"{vmk.host}/{vmk.dvswitch}/{vmk.portgroup}"), None)
        found = [] if team is None else _switch_path(request, team, mtu, site)
        return [
            *found,
            Prerequisite(
                request,
                f"{vmk.dvswitch}",
                f"{vmk.name} is on distributed switch {vmk.dvswitch} (MTU {vmk.vswitch_mtu}), which must carry {mtu}",
                "host",
                by_hand=f"raise distributed switch {vmk.dvswitch}'s MTU to {mtu} in vCenter (a vCenter setting)",
                dvs_mtu=(vmk.dvswitch, mtu),
            ),
        ]
    team = site.team(vmk.host, vmk.vswitch)
    raise_vswitch = host_vswitch_mtu({"mtu": mtu}, vmk, site)
    steps = _switch_path(request, team, mtu, site) if team is not None else []
    return [
        *steps,
        *(
            Prerequisite(
                request,
                f"{vmk.host}/{c.target}",
                f"{vmk.name} at MTU {mtu} needs its vSwitch {c.target} (MTU {vmk.vswitch_mtu}) raised first",
                "host",
                change=c,
            )
            for c in raise_vswitch
        ),
    ]


def _vswitch_lowered(request: SetRequest, change: Change, facts: Facts, site: Site) -> list[Prerequisite]:
    """Lowering MTU goes the other way: every vmk on the vSwitch above the new MTU is lowered first."""
    mtu = int(change.after)
    found = []
    for vmk in facts.vmks:
        if vmk.host == change.device and vmk.vswitch == change.target and vmk.mtu is not None and vmk.mtu > mtu:
            for lowered in vmk_mtu({"mtu": mtu}, vmk, site):
                found.append(
                    Prerequisite(
                        request,
                        vmk.object,
                        f"{vmk.name} (MTU {vmk.mtu}) must be lowered before its vSwitch {change.target} goes to {mtu}",
                        "host-undo",
                        change=lowered,
                    )
                )
    return found


def _vmk_moved(request: SetRequest, change: Change, vmk: VmkFact, site: Site, snapshot: Snapshot) -> list[Prerequisite]:
    """A vmk moved onto a distributed switch that does not carry its MTU needs the switch raised first."""
    dvswitch = str(change.after).partition("/")[0]
    dvs = next((d for d in snapshot.distributed_switches if d.name == dvswitch), None)
    if dvs is None or vmk.mtu is None or (dvs.max_mtu is not None and dvs.max_mtu >= vmk.mtu):
        return []
    return [
        Prerequisite(
            request,
            dvswitch,
            f"{vmk.name} (MTU {vmk.mtu}) moves to distributed switch {dvswitch} (MTU {dvs.max_mtu})",
            "host",
            by_hand=f"raise distributed switch {dvswitch}'s MTU to {vmk.mtu} in vCenter (a vCenter setting)",
            dvs_mtu=(dvswitch, vmk.mtu),
        )
    ]


def assume_done(snapshot: Snapshot, items: list[Prerequisite]) -> Snapshot:
    """`snapshot` with the by-hand distributed switch MTU raises done, for simulating what follows them."""
    raises = [p.dvs_mtu for p in items if p.dvs_mtu is not None]
    if not raises:
        return snapshot
    state = snapshot.model_copy(deep=True)
    for name, mtu in raises:
        for dvs in state.distributed_switches:
            if dvs.name == name:
                dvs.max_mtu = mtu
                for member in dvs.hosts:
                    # The host proxy switches follow the distributed switch; unknown stays unknown.
                    member.mtu = mtu if member.mtu is not None else None
    return state


def prerequisites(
    requested: list[tuple[SetRequest, Change]], facts: Facts, site: Site, snapshot: Snapshot
) -> list[Prerequisite]:
    """Every requested change's prerequisites, the switch path first, each once."""
    found: list[Prerequisite] = []
    vmks = {(v.host, v.name): v for v in facts.vmks}
    teams = {(t.host, t.vswitch): t for t in facts.teams if t.kind == "vss"}
    for request, change in requested:
        if change.action == "vmk-migrate" and (vmk := vmks.get((change.device, change.target))) is not None:
            found += _vmk_moved(request, change, vmk, site, snapshot)
            continue
        if not _raises(change):
            if change.action == "host-vswitch-mtu" and isinstance(change.after, int):
                found += _vswitch_lowered(request, change, facts, site)
            continue
        if change.action == "vmk-mtu" and (vmk := vmks.get((change.device, change.target))) is not None:
            found += _vmk_mtu(request, change, vmk, facts, site)
        elif change.action == "host-vswitch-mtu" and (team := teams.get((change.device, change.target))) is not None:
            found += _switch_path(request, team, int(change.after), site)
    unique: dict[tuple[str, str, str], Prerequisite] = {}
    for item in found:
        key = (item.change.action, item.change.device, item.change.target) if item.change else ("", item.object, "")
        unique.setdefault(key, item)
    return list(unique.values())
