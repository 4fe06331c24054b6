"""Send the chosen probes through vCenter, bounded in every way a nightly run needs.

- `count` pings per probe, `wait` seconds for each reply, `interval` between them;
- `timeout`: each call to vCenter ends by then (the ping's own time is added to it);
- `concurrency`: probes in flight at once (over all hosts);
- `budget`: seconds for the whole run; a probe not started by then is kept as `not-sent`.

A host whose executer is refused (a privilege) or does not answer gets that error on each of its
probes; the other hosts go on.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from hostlint.collect.kvm.runner import CollectionFailure, Runner
from hostlint.collect.probe import linux_ping
from hostlint.collect.probe.esxcli import NoAnswer, Session, SoapFault, executer, ping, ping_order
from hostlint.collect.probe.pairs import Pair
from hostlint.snapshot.probe import Probe, ProbeErrorKind, ProbeVia

TOO_BIG = "message too long"


@dataclass(frozen=True)
class Limits:
    count: int = 3
    wait_s: int = 1
    interval_s: float = 0.2
    timeout_s: float = 30.0
    concurrency: int = 8
    budget_s: float = 600.0

    @property
    def call_timeout(self) -> float:
        # The host answers once every ping has had its reply or its wait.
        return self.timeout_s + self.count * (self.wait_s + self.interval_s)


@dataclass(frozen=True)
class _Refused:
    kind: ProbeErrorKind
    reason: str


class _Executers:
    """Each host's executer and ping parameter order, asked once; a refusal is remembered."""

    def __init__(self, session: Session, timeout: float):
        self._session = session
        self._timeout = timeout
        self._lock = threading.Lock()
        self._hosts: dict[str, tuple[str, tuple[str, ...]] | _Refused] = {}
        self._host_locks: dict[str, threading.Lock] = {}

    def get(self, moid: str) -> tuple[str, tuple[str, ...]] | _Refused:
        with self._lock:
            host_lock = self._host_locks.setdefault(moid, threading.Lock())
        with host_lock:
            if moid not in self._hosts:
                self._hosts[moid] = self._retrieve(moid)
            return self._hosts[moid]

    def _retrieve(self, moid: str) -> tuple[str, tuple[str, ...]] | _Refused:
        try:
            mme = executer(self._session, moid, self._timeout)
            return mme, ping_order(self._session, mme, self._timeout)
        except SoapFault as exc:
            if exc.privilege:
                return _Refused(
                    "refused",
                    f"RetrieveManagedMethodExecuter refused: {exc.kind} (privilege {exc.privilege} "
                    f"on {exc.target or moid})",
                )
            return _Refused("failed", f"RetrieveManagedMethodExecuter failed: {exc.kind}: {exc}")
        except NoAnswer as exc:
            return _Refused("no-answer", f"RetrieveManagedMethodExecuter: {exc}")
        except OSError as exc:
            return _Refused("failed", f"RetrieveManagedMethodExecuter: {exc}")


class Sender(Protocol):
    """Sends one probe; every failure is a Probe with its error, never an exception."""

    def __call__(self, pair: Pair, limits: Limits) -> Probe: ...


class VcenterSender:
    """ESXi probes: esxcli `network diag ping` through vCenter, `host_moids` naming each host's object."""

    def __init__(self, session: Session, host_moids: dict[str, str], limits: Limits):
        self._session = session
        self._host_moids = host_moids
        self._executers = _Executers(session, limits.timeout_s)

    def __call__(self, pair: Pair, limits: Limits) -> Probe:
        moid = self._host_moids.get(pair.source.host)
        if moid is None:
            return _probe(
                pair, "vcenter-esxcli", error_kind="failed", error=f"host {pair.source.host} is not in this vCenter"
            )
        found = self._executers.get(moid)
        if isinstance(found, _Refused):
            return _probe(pair, "vcenter-esxcli", error_kind=found.kind, error=found.reason)
        mme, order = found
        values = {
            "count": str(limits.count),
            "df": "true",
            "host": pair.target.ip,
            "interface": pair.source.vmk,
            "interval": f"{limits.interval_s:g}",
            "netstack": pair.source.netstack,
            "size": str(pair.size),
            "wait": str(limits.wait_s),
        }
        try:
            answer = ping(self._session, mme, order, values, limits.call_timeout)
        except NoAnswer as exc:
            return _probe(pair, "vcenter-esxcli", error_kind="no-answer", error=f"network diag ping: {exc}")
        except (SoapFault, OSError) as exc:
            return _probe(pair, "vcenter-esxcli", error_kind="failed", error=f"network diag ping: {exc}")
        if answer.fault is not None:
            kind: ProbeErrorKind = "too-big-locally" if TOO_BIG in answer.fault.lower() else "failed"
            return _probe(pair, "vcenter-esxcli", error_kind=kind, error=answer.fault)
        return _probe(
            pair, "vcenter-esxcli", sent=answer.sent, received=answer.received, round_trip_ms=answer.round_trip_ms
        )


class SshSender:
    """KVM probes: `ping -M do` over each host's SSH session (`runners` by host name)."""

    def __init__(self, runners: dict[str, Runner]):
        self._runners = runners

    def __call__(self, pair: Pair, limits: Limits) -> Probe:
        runner = self._runners.get(pair.source.host)
        if runner is None:
            return _probe(pair, "ssh", error_kind="failed", error=f"no SSH session to {pair.source.host}")
        vrf = None if pair.source.netstack == "default" else pair.source.netstack
        try:
            answer = linux_ping.ping(
                runner, pair.source.vmk, pair.target.ip, pair.size, limits.count, limits.wait_s, limits.interval_s, vrf
            )
        except CollectionFailure as exc:
            kind: ProbeErrorKind = "no-answer" if "no answer" in str(exc) else "failed"
            return _probe(pair, "ssh", error_kind=kind, error=str(exc))
        if answer.too_big_locally:
            return _probe(pair, "ssh", error_kind="too-big-locally", error="Message too long")
        if answer.error is not None:
            return _probe(pair, "ssh", error_kind="failed", error=answer.error)
        return _probe(pair, "ssh", sent=answer.sent, received=answer.received, round_trip_ms=answer.round_trip_ms)


def send(
    pairs: list[Pair],
    senders: dict[str, Sender],
    limits: Limits,
    progress: Callable[[Probe], None] = lambda probe: None,
) -> list[Probe]:
    """Run every probe in `pairs` within `limits` (`senders` by endpoint kind: esxi, kvm); one Probe per
    pair, in the order of `pairs`."""
    started = time.monotonic()

    def one(pair: Pair) -> Probe:
        via: ProbeVia = "ssh" if pair.source.kind == "kvm" else "vcenter-esxcli"
        if time.monotonic() - started > limits.budget_s:
            return _probe(
                pair, via, error_kind="not-sent", error=f"the run's budget of {limits.budget_s:g} s was spent"
            )
        sender = senders.get(pair.source.kind)
        if sender is None:
            return _probe(pair, via, error_kind="not-sent", error=f"no way to reach {pair.source.kind} hosts was given")
        probe = sender(pair, limits)
        progress(probe)
        return probe

    with ThreadPoolExecutor(max_workers=max(1, limits.concurrency), thread_name_prefix="probe") as pool:
        return list(pool.map(one, pairs))


def not_sent(pair: Pair, reason: str) -> Probe:
    """A probe that was never sent (no way to reach its host, no budget left), with why."""
    via: ProbeVia = "ssh" if pair.source.kind == "kvm" else "vcenter-esxcli"
    return _probe(pair, via, error_kind="not-sent", error=reason)


def _probe(pair: Pair, via: ProbeVia, **facts: object) -> Probe:
    return Probe(
        source_host=pair.source.host,
        source_vmk=pair.source.vmk,
        netstack=pair.source.netstack,
        target_host=pair.target.host,
        target_vmk=pair.target.vmk,
        target_ip=pair.target.ip,
        size=pair.size,
        purpose=pair.purpose,  # type: ignore[arg-type]
        via=via,
        at=datetime.now(UTC),
        **facts,  # type: ignore[arg-type]
    )
