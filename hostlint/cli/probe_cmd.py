"""`hostlint probe SNAPSHOT... --vsphere SERVER`: prove jumbo paths with don't-fragment pings.

It sends traffic, so it runs only when asked: `--dry-run` lists the probes without logging in.
"""

from __future__ import annotations

import sys
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from hostlint.cli.collect_vsphere_cmd import login_options, timeout_option
from hostlint.cli.exit import Exit
from hostlint.cli.host_keys import KnownHostsError, host_key_options, host_key_policy
from hostlint.cli.output import optional_output_option, write_snapshot
from hostlint.collect.hostkeys import HostKeyPolicy
from hostlint.collect.probe.pairs import Pair
from hostlint.snapshot import Snapshot, SnapshotError, load_site
from hostlint.snapshot.probe import Probe

if TYPE_CHECKING:
    from hostlint.collect.probe.run import Limits, Sender


def _say(message: str) -> None:
    click.echo(f"hostlint: {message}", err=True)


def _line(probe: Probe) -> str:
    what = f"{probe.source_host} {probe.source_vmk} -> {probe.target_host} {probe.target_vmk} ({probe.target_ip})"
    size = f"{probe.size} bytes (MTU {probe.mtu}), df"
    if probe.error_kind == "too-big-locally":
        verdict = f"REFUSED LOCALLY: {probe.source_vmk}'s own MTU is below {probe.mtu} ({probe.error})"
    elif probe.error_kind is not None:
        verdict = f"NOT PROVEN ({probe.error_kind}): {probe.error}"
    elif probe.delivered:
        verdict = f"delivered {probe.received}/{probe.sent}" + (
            f", {probe.round_trip_ms:g} ms" if probe.round_trip_ms is not None else ""
        )
    else:
        verdict = f"LOST {probe.sent}/{probe.sent}"
    return f"{what}: {size}: {verdict}"


@click.command("probe")
@click.argument("snapshots", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--vsphere", "server", metavar="SERVER", help="vCenter (or ESXi) to send the probes through.")
@login_options
@click.option(
    "--ssh-user",
    metavar="USER",
    help="Probe the snapshot's KVM hosts over SSH as USER@HOST (HOST: the host's name in the snapshot), keys or "
    "agent (or HOSTLINT_SSH_PASSWORD).",
)
@click.option(
    "--ssh-option",
    "ssh_options",
    multiple=True,
    metavar="OPTION=VALUE",
    help="An OpenSSH client option for those connections (repeatable), e.g. IdentityFile=~/.ssh/kvm, Port=2222.",
)
@host_key_options
@click.option("--dry-run", is_flag=True, help="List the probes (pairs and sizes) and send nothing.")
@click.option("--peers", default=2, show_default=True, type=click.IntRange(1, 16), help="Peers per VMkernel port.")
@click.option("--count", default=3, show_default=True, type=click.IntRange(1, 20), help="Pings per probe.")
@click.option("--wait", default=1, show_default=True, type=click.IntRange(1, 10), help="Seconds to wait per reply.")
@timeout_option
@click.option("--concurrency", default=8, show_default=True, type=click.IntRange(1, 64), help="Probes in flight.")
@click.option(
    "--budget",
    default=600.0,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="Time for the whole run; probes not started by then are recorded as not sent.",
)
@click.option(
    "--plan",
    "plan_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    metavar="DIR",
    help="A fix folder (check --fix-script, plan --fix-script): run its step --step N's MTU verify as probes.",
)
@click.option("--step", type=click.IntRange(min=1), metavar="N", help="With --plan: the step of PLAN.md to verify.")
@optional_output_option("Write the snapshot with the probes' evidence (`probes`) here, for `hostlint check`.")
def probe(
    snapshots: tuple[Path, ...],
    server: str | None,
    user: str,
    insecure: bool,
    ca_bundle: Path | None,
    ssh_user: str | None,
    ssh_options: tuple[str, ...],
    known_hosts: Path | None,
    accept_new_host_keys: bool,
    dry_run: bool,
    peers: int,
    count: int,
    wait: int,
    timeout: float,
    concurrency: int,
    budget: float,
    plan_dir: Path | None,
    step: int | None,
    output: Path | None,
) -> int:
    """Send don't-fragment pings between the VMkernel ports (and KVM interfaces) of SNAPSHOTS' hosts.

    For every vmk above 1500 bytes or carrying storage or migration traffic, peers on other hosts in
    the same subnet, VLAN and TCP/IP stack are pinged at the vmk's MTU less 28 and at 1472 (control),
    with esxcli `network diag ping` run by vCenter (--vsphere; no SSH to the hosts). KVM interfaces
    above 1500 are probed with `ping -M do` over SSH (--ssh-user). Exit 0 when every probe was
    delivered, 1 when one was lost or refused locally (a path does not carry its MTU), 3 when some
    could not be sent (a refused privilege, no answer), 2 on a usage error.

    With --plan DIR --step N (no SNAPSHOTS): run step N of the fix folder's PLAN.md, a vmk MTU step,
    as its verify's don't-fragment ping and a control ping, and print pass or fail per probe: exit 0
    pass, 1 fail, 3 not sent, 2 when step N is not an MTU verify step (named).
    """
    from hostlint.collect.probe.pairs import choose

    if (plan_dir is None) != (step is None):
        raise click.UsageError("--plan DIR and --step N go together")
    if plan_dir is not None and step is not None:
        if snapshots or output is not None or ssh_user:
            raise click.UsageError("--plan takes no SNAPSHOTS, -o or --ssh-user (the plan names the host and peer)")
        from hostlint.cli.probe_plan import run_plan_step
        from hostlint.collect.probe.run import Limits

        limits = Limits(count=count, wait_s=wait, timeout_s=timeout, concurrency=2, budget_s=budget)
        vsphere = _Vsphere(server, user, insecure, ca_bundle) if server else None
        sender = (lambda chosen: _send(chosen, vsphere, None, limits)) if vsphere else None
        return run_plan_step(plan_dir, step, dry_run, sender, _say)
    if not snapshots:
        raise click.UsageError("give SNAPSHOTS to probe, or --plan DIR --step N")

    try:
        site = load_site(list(snapshots))
    except SnapshotError as exc:
        _say(str(exc))
        return Exit.USAGE
    pairs, skipped = choose(site, peers)
    for gap in skipped:
        _say(f"{gap.host} {gap.vmk}: not probed: {gap.reason}")
    if dry_run:
        for pair in pairs:
            click.echo(
                f"{pair.source.host} {pair.source.vmk} ({pair.source.netstack}) -> {pair.target.host} "
                f"{pair.target.vmk} ({pair.target.ip}): {pair.size} bytes df ({pair.purpose}, MTU {pair.size + 28})"
            )
        click.echo(f"{len(pairs)} probes; nothing sent (--dry-run)", err=True)
        return Exit.CLEAN
    if server is None and ssh_user is None:
        raise click.UsageError("give --vsphere SERVER and/or --ssh-user USER to send the probes, or --dry-run")
    if not pairs:
        _say("nothing to probe")
        return Exit.CLEAN
    from hostlint.collect.probe.run import Limits

    limits = Limits(count=count, wait_s=wait, timeout_s=timeout, concurrency=concurrency, budget_s=budget)
    vsphere = _Vsphere(server, user, insecure, ca_bundle) if server else None
    try:
        ssh = _Ssh(ssh_user, ssh_options, host_key_policy(known_hosts, accept_new_host_keys)) if ssh_user else None
    except KnownHostsError as exc:
        raise click.UsageError(str(exc)) from exc
    probes = _send(pairs, vsphere, ssh, limits)
    if isinstance(probes, Exit):
        return probes
    for probe_result in probes:
        click.echo(_line(probe_result))
    if output is not None:
        _write(site, probes, output)
    if any(p.delivered is False for p in probes):
        return Exit.FINDINGS
    return Exit.PARTIAL if any(p.delivered is None for p in probes) else Exit.CLEAN


@dataclass(frozen=True)
class _Vsphere:
    server: str
    user: str
    insecure: bool
    ca_bundle: Path | None


@dataclass(frozen=True)
class _Ssh:
    user: str
    options: tuple[str, ...]
    host_keys: HostKeyPolicy


def _send(pairs: list[Pair], vsphere: _Vsphere | None, ssh: _Ssh | None, limits: Limits) -> list[Probe] | Exit:
    from hostlint.collect.probe.run import send
    from hostlint.collect.probe.vcenter import ProbeLoginFailed, logged_in

    with ExitStack() as stack:
        senders: dict[str, Sender] = {}
        if ssh is not None and any(pair.source.kind == "kvm" for pair in pairs):
            senders["kvm"] = _ssh_sender(pairs, ssh, limits, stack)
        if vsphere is not None and any(pair.source.kind == "esxi" for pair in pairs):
            prompt = (lambda text: click.prompt(text, hide_input=True)) if sys.stdin.isatty() else None
            try:
                connected = stack.enter_context(
                    logged_in(
                        vsphere.server, vsphere.user, vsphere.insecure, vsphere.ca_bundle, limits.timeout_s, prompt
                    )
                )
            except ProbeLoginFailed as exc:
                _say(str(exc))
                return Exit.USAGE if exc.usage else Exit.PARTIAL
            from hostlint.collect.probe.run import VcenterSender

            senders["esxi"] = VcenterSender(connected.session, connected.host_moids, limits)
        return send(pairs, senders, limits)


def _ssh_sender(pairs: list[Pair], ssh: _Ssh, limits: Limits, stack: ExitStack) -> Sender:
    """One SSH session per KVM host that sends probes, closed when the run ends."""
    from hostlint.collect.kvm.libvirt_uri import SshOptionError, check_destination, parse_ssh_options
    from hostlint.collect.kvm.runner import Runner, SshRunner
    from hostlint.collect.probe.run import SshSender

    try:
        parse_ssh_options(ssh.options)
    except SshOptionError as exc:
        raise click.UsageError(str(exc)) from exc
    options = [arg for option in ssh.options for arg in ("-o", option)]
    runners: dict[str, Runner] = {}
    for host in sorted({pair.source.host for pair in pairs if pair.source.kind == "kvm"}):
        destination = f"{ssh.user}@{host}"
        try:
            check_destination(destination)
        except SshOptionError as exc:
            raise click.UsageError(str(exc)) from exc
        runner = SshRunner(destination, options, ssh.host_keys, limits.call_timeout)
        stack.callback(runner.close)
        runners[host] = runner
    return SshSender(runners)


def _write(site: Snapshot, probes: list[Probe], output: Path) -> None:
    write_snapshot(site.model_copy(update={"probes": [*site.probes, *probes]}), output)
    _say(f"wrote {output}")
