"""`hostlint probe --plan DIR --step N`: run a fix plan's MTU verify step as probes, and say pass or fail.

The step comes from the fix folder's manifest (hostlint.fixes.plan_steps): a vmk-mtu step raising a
VMkernel port above 1500 is verified with a don't-fragment ping at its MTU less 28 to the peer PLAN.md
names, plus the 1472-byte control ping, sent as `hostlint probe` sends them (esxcli `network diag
ping` through vCenter). Exit 0 when every probe is delivered, 1 when one is lost or refused by the
source host, 3 when one could not be sent, 2 when the step is not such a step (named) or the folder
holds no plan.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from pathlib import Path

import click

from hostlint.cli.exit import Exit
from hostlint.collect.probe.pairs import CONTROL_SIZE, HEADERS, Endpoint, Pair
from hostlint.fixes.plan_steps import MtuProbe, PlanStepError, load_step, mtu_probe
from hostlint.snapshot.probe import Probe

# What the probe's far end is called: the plan knows the peer's address, not its host or vmk.
PEER = "peer"


def pairs(probe: MtuProbe) -> list[Pair]:
    network = ipaddress.ip_interface(probe.subnet).network if probe.subnet else ipaddress.ip_network(probe.peer)
    source = Endpoint("esxi", probe.host, probe.vmk, "", probe.mtu, probe.netstack, None, network, frozenset())
    target = Endpoint("esxi", probe.peer, PEER, probe.peer, probe.mtu, probe.netstack, None, network, frozenset())
    return [Pair(source, target, probe.mtu - HEADERS, "jumbo"), Pair(source, target, CONTROL_SIZE, "control")]


def verdict(probe: Probe) -> str:
    if probe.outcome == "delivered":
        rtt = f", {probe.round_trip_ms:g} ms" if probe.round_trip_ms is not None else ""
        return f"PASS (delivered {probe.received}/{probe.sent}{rtt})"
    if probe.outcome == "lost":
        return f"FAIL (lost {probe.sent}/{probe.sent})"
    if probe.outcome == "refused-locally":
        return f"FAIL (refused locally: {probe.source_vmk}'s own MTU is below {probe.mtu}: {probe.error})"
    return f"NOT PROVEN ({probe.error_kind}: {probe.error})"


def _what(step: int, pair: Pair) -> str:
    return (
        f"step {step}: {pair.source.host} {pair.source.vmk} ({pair.source.netstack}) -> {pair.target.ip}: "
        f"{pair.size} bytes df ({pair.purpose}, MTU {pair.size + HEADERS})"
    )


def run_plan_step(
    directory: Path,
    number: int,
    dry_run: bool,
    send: Callable[[list[Pair]], list[Probe] | Exit] | None,
    say: Callable[[str], None],
) -> int:
    """Step `number` of the plan in `directory` as probes; `send` sends them (None: no --vsphere given)."""
    try:
        probe = mtu_probe(load_step(directory, number))
    except PlanStepError as exc:
        say(str(exc))
        return Exit.USAGE
    chosen = pairs(probe)
    if dry_run:
        for pair in chosen:
            click.echo(_what(number, pair))
        say(f"{len(chosen)} probes; nothing sent (--dry-run)")
        return Exit.CLEAN
    if send is None:
        raise click.UsageError("give --vsphere SERVER to send the step's probes, or --dry-run")
    sent = send(chosen)
    if isinstance(sent, Exit):
        return sent
    for pair, result in zip(chosen, sent, strict=True):
        click.echo(f"{_what(number, pair)}: {verdict(result)}")
    if any(result.delivered is False for result in sent):
        return Exit.FINDINGS
    return Exit.PARTIAL if any(result.delivered is None for result in sent) else Exit.CLEAN
