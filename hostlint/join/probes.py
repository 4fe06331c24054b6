"""Probe evidence beside configuration: each probe learns what the collected configuration says of
its path, so a rule can name the hop at fault, or say that the fault is in a hop not collected."""

from __future__ import annotations

from hostlint.join.facts import Facts, ProbeFact, VmkFact
from hostlint.snapshot.probe import Probe


def _hops(vmk: VmkFact, end: str) -> tuple[list[tuple[int, str]], list[str]]:
    """The MTUs this end of the path shows, each with what shows it, and the hops not read."""
    found: list[tuple[int, str]] = []
    unread: list[str] = []
    if vmk.mtu is not None:
        found.append((vmk.mtu, f"{vmk.object} (vmk, {end})"))
    switch = vmk.dvswitch or vmk.vswitch
    if vmk.vswitch_mtu is not None:
        found.append((vmk.vswitch_mtu, f"{vmk.host}/{switch} ({end} host's virtual switch)"))
    elif switch is not None:
        unread.append(f"{vmk.host}/{switch}")
    if vmk.path_mtu is not None and "path_mtu" not in vmk.missing:
        found.append((vmk.path_mtu, f"the switch ports under {vmk.object} ({', '.join(vmk.path) or 'its uplinks'})"))
    else:
        unread.append(f"the switch ports under {vmk.object}")
    return found, unread


def probe_facts(probes: list[Probe], facts: Facts) -> None:
    vmks = {vmk.object: vmk for vmk in facts.vmks}
    controls = {(p.source_host, p.source_vmk, p.target_host, p.target_vmk): p for p in probes if p.purpose == "control"}
    for probe in probes:
        fact = ProbeFact(
            object=probe.label,
            host=probe.source_host,
            source_vmk=probe.source_vmk,
            target_host=probe.target_host,
            target_vmk=probe.target_vmk,
            target_ip=probe.target_ip,
            netstack=probe.netstack,
            size=probe.size,
            mtu=probe.mtu,
            purpose=probe.purpose,
            delivered=probe.delivered,
            error_kind=probe.error_kind,
            error=probe.error,
        )
        control = controls.get((probe.source_host, probe.source_vmk, probe.target_host, probe.target_vmk))
        if control is None:
            fact.missing["control_delivered"] = f"{fact.object}: no 1472-byte control probe was sent with it"
        elif control.delivered is None:
            fact.missing["control_delivered"] = (
                f"{fact.object}: the control probe was not answered ({control.error_kind}: {control.error})"
            )
        else:
            fact.control_delivered = control.delivered
        if probe.delivered is None:
            fact.missing["delivered"] = (
                f"{fact.object}: the probe was not answered ({probe.error_kind}: {probe.error})"
                if probe.error_kind
                else f"{fact.object}: the probe's outcome was not recorded"
            )
        hops: list[tuple[int, str]] = []
        for key, end in (
            (f"{probe.source_host}/{probe.source_vmk}", "source"),
            (f"{probe.target_host}/{probe.target_vmk}", "target"),
        ):
            vmk = vmks.get(key)
            if vmk is None:
                fact.hops_unread.append(f"{key} (not in the snapshot)")
                continue
            found, unread = _hops(vmk, end)
            hops += found
            fact.hops_unread += unread
        if hops:
            fact.config_mtu, fact.smallest_hop = min(hops)
        facts.probes.append(fact)
