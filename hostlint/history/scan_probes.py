"""`hostlint scan --inventory FILE --probe`: the nightly scan proves jumbo paths too, within a budget.

After the sources are collected, the probes `hostlint probe` would choose from the whole site are sent
through the inventory's own sources: ESXi hosts' through the vCenter that knows them (esxcli `network
diag ping` on its ManagedMethodExecuter), KVM hosts' over their SSH session (`ping -M do`). Sources
are probed one after another, each with its own bounds (hostlint.collect.probe.run.Limits, from its
`probe:` or the inventory's), and never past the scan's total budget: a probe not started by then is
kept as not sent. Nothing here ends the scan: a vCenter that refuses the login or a host whose
executor is refused (a privilege) is named, once per host, and its probes are kept with the reason.
A host no source probes (`probe: false`, a failed login) keeps its probes as not sent, so the
reports say which paths stayed unproven rather than letting them look proven.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from hostlint.collect.probe.pairs import Pair, choose
from hostlint.collect.probe.run import Limits, not_sent, send
from hostlint.history.inventory import KvmSource, ProbeSettings, VsphereSource
from hostlint.history.sources import Source
from hostlint.report.evidence import ProbeCounts, counts_line
from hostlint.snapshot import Snapshot
from hostlint.snapshot.probe import Probe

DEFAULTS = Limits()
DEFAULT_PEERS = 2
# Errors that come from the host's executor or session rather than from the path: named once per host.
HOST_ERRORS = ("refused", "failed", "no-answer")


@dataclass(frozen=True)
class _Plan:
    source: VsphereSource | KvmSource
    limits: Limits
    peers: int


def _settings(own: ProbeSettings | bool, shared: ProbeSettings) -> tuple[Limits, int] | None:
    """The source's limits and peers (its own keys over the inventory's over the defaults); None: not probed."""
    if own is False:
        return None
    mine = own if isinstance(own, ProbeSettings) else ProbeSettings()

    def pick(name: str, default: float) -> float:
        value = getattr(mine, name)
        return value if value is not None else (getattr(shared, name) if getattr(shared, name) is not None else default)

    limits = Limits(
        count=int(pick("count", DEFAULTS.count)),
        wait_s=int(pick("wait", DEFAULTS.wait_s)),
        concurrency=int(pick("concurrency", DEFAULTS.concurrency)),
        budget_s=pick("budget", DEFAULTS.budget_s),
    )
    return limits, int(pick("peers", DEFAULT_PEERS))


def probe_scan(
    snapshot: Snapshot,
    sources: list[Source],
    shared: ProbeSettings,
    total_budget: float | None,
    say: Callable[[str], None],
) -> Snapshot:
    """The snapshot with the probes of every source that may probe (`probes` added; nothing else changes)."""
    total = total_budget or shared.budget or DEFAULTS.budget_s
    deadline = time.monotonic() + total
    plans = [
        _Plan(source, *found)
        for source in sources
        if isinstance(source, VsphereSource | KvmSource)
        and (found := _settings(source.entry.probe, shared)) is not None
    ]
    if not plans:
        say("--probe: no vsphere or kvm source of the inventory may probe (probe: false)")
        return snapshot
    probes: list[Probe] = []
    # ESXi hosts go to the first vCenter that knows them (found at its login); KVM hosts to their own entry.
    claimed: set[str] = set()
    for plan in plans:
        pairs, _ = choose(snapshot, plan.peers)
        remaining = deadline - time.monotonic()
        if isinstance(plan.source, KvmSource):
            probes += _kvm(plan.source, plan.limits, pairs, remaining, claimed)
        else:
            probes += _vcenter(plan.source, plan.limits, pairs, remaining, claimed, say)
    pairs, _ = choose(snapshot, max(plan.peers for plan in plans))
    spent = time.monotonic() >= deadline
    probes += [
        not_sent(
            pair,
            "the scan's probe budget was spent"
            if spent
            # One wording for every host, so a report groups them into one line with a count.
            else "no source of the inventory sent it (probe: false, a failed vCenter login, or a host none knows)",
        )
        for pair in pairs
        if pair.source.host not in claimed
    ]
    for host, reason in _host_errors(probes):
        say(f"--probe: {host}: {reason}")
    outcomes = Counter(probe.outcome for probe in probes)
    counts = ProbeCounts(
        sent=len(probes),
        delivered=outcomes["delivered"],
        lost=outcomes["lost"],
        refused_locally=outcomes["refused-locally"],
        not_proven=outcomes["not-proven"],
    )
    say(f"--probe: {counts_line(counts)} in {total - max(0.0, deadline - time.monotonic()):.0f} s of {total:g} s")
    return snapshot.model_copy(update={"probes": [*snapshot.probes, *probes]})


def _bounded(limits: Limits, remaining: float) -> Limits:
    return Limits(
        count=limits.count,
        wait_s=limits.wait_s,
        interval_s=limits.interval_s,
        timeout_s=limits.timeout_s,
        concurrency=limits.concurrency,
        budget_s=min(limits.budget_s, remaining),
    )


def _kvm(source: KvmSource, limits: Limits, pairs: list[Pair], remaining: float, claimed: set[str]) -> list[Probe]:
    from hostlint.collect.kvm.runner import SshRunner
    from hostlint.collect.probe.run import SshSender

    host = source.entry.host.rpartition("@")[2]
    mine = [pair for pair in pairs if pair.source.kind == "kvm" and pair.source.host == host]
    if not mine or remaining <= 0:
        return []
    claimed.add(host)
    bounded = _bounded(limits, remaining)
    options = [arg for option in source.entry.ssh_options for arg in ("-o", option)]
    runner = SshRunner(source.entry.host, options, source.host_keys, bounded.call_timeout)
    try:
        return send(mine, {"kvm": SshSender({host: runner})}, bounded)
    finally:
        runner.close()


def _vcenter(
    source: VsphereSource,
    limits: Limits,
    pairs: list[Pair],
    remaining: float,
    claimed: set[str],
    say: Callable[[str], None],
) -> list[Probe]:
    from hostlint.collect.probe.run import VcenterSender
    from hostlint.collect.probe.vcenter import ProbeLoginFailed, logged_in

    entry = source.entry
    wanted = [pair for pair in pairs if pair.source.kind == "esxi" and pair.source.host not in claimed]
    if not wanted or remaining <= 0:
        return []
    bounded = _bounded(limits, remaining)
    try:
        # A scheduled scan never prompts: the password comes from the environment or the keyring.
        with logged_in(entry.server, entry.user, entry.insecure, entry.ca_bundle, bounded.timeout_s, None) as found:
            mine = [pair for pair in wanted if pair.source.host in found.host_moids]
            claimed.update(pair.source.host for pair in mine)
            return send(mine, {"esxi": VcenterSender(found.session, found.host_moids, bounded)}, bounded)
    except ProbeLoginFailed as exc:
        say(f"--probe: {source.name}: nothing probed through it: {exc}")
        return []


def _host_errors(probes: list[Probe]) -> list[tuple[str, str]]:
    """Each host whose executor or session failed, with the first reason (its probes all carry it)."""
    found: dict[str, str] = {}
    for probe in probes:
        if probe.error_kind in HOST_ERRORS and probe.source_host not in found:
            found[probe.source_host] = f"probes not proven ({probe.error_kind}): {probe.error}"
    return sorted(found.items())
