"""`hostlint collect kvm --host [user@]kvm01 | --local -o snap.json`: KVM hosts into a snapshot."""

from __future__ import annotations

import socket
from datetime import UTC, datetime
from pathlib import Path

import click

from hostlint.cli.exit import Exit
from hostlint.cli.host_keys import KnownHostsError, host_key_options, host_key_policy
from hostlint.cli.output import output_option, write_snapshot
from hostlint.collect.kvm.host import collect_host
from hostlint.collect.kvm.libvirt_uri import SshOptionError, check_destination, parse_ssh_options, ssh_libvirt_uri
from hostlint.collect.kvm.runner import LocalRunner, Runner, SshRunner
from hostlint.collect.limits import KVM_TIMEOUT_S
from hostlint.snapshot import Snapshot


@click.command("kvm")
@click.option("--host", "hosts", multiple=True, metavar="[USER@]HOST", help="Collect over SSH (repeatable).")
@click.option("--local", is_flag=True, help="Collect this machine (or the network namespace it runs in).")
@click.option("--name", help="The host's name in the snapshot with --local (default: this machine's host name).")
@click.option(
    "--libvirt-uri",
    help="libvirt to read guests from (default qemu:///system with --local, qemu+ssh://[USER@]HOST[:PORT]/system "
    "with --host, with --ssh-option Port, IdentityFile and UserKnownHostsFile; "
    "test:///path.xml in tests).",
)
@click.option("--no-libvirt", is_flag=True, help="Do not read guests (a host without libvirt).")
@click.option(
    "--no-lldp", is_flag=True, help="Do not ask lldpd for LLDP neighbours (a host without it): otherwise a failure."
)
@host_key_options
@click.option(
    "--ssh-option",
    "ssh_options",
    multiple=True,
    metavar="KEY=VALUE",
    help="Passed to ssh as -o KEY=VALUE (UserKnownHostsFile=FILE is --known-hosts FILE).",
)
@click.option(
    "--timeout",
    default=KVM_TIMEOUT_S,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="Longest wait for any one answer from a host, end to end: each command (connecting over SSH "
    "included) and each libvirt read (connect, list, each guest), whatever the transport.",
)
@output_option
def kvm(
    hosts: tuple[str, ...],
    local: bool,
    name: str | None,
    libvirt_uri: str | None,
    no_libvirt: bool,
    no_lldp: bool,
    ssh_options: tuple[str, ...],
    timeout: float,
    output: Path,
    known_hosts: Path | None,
    accept_new_host_keys: bool,
) -> int:
    """Collect KVM hosts: interfaces, bonds, bridges, VLANs, OVS bonds, LLDP, PCIe links, libvirt guests.

    Keys or the SSH agent log in; a password only from HOSTLINT_SSH_PASSWORD. Host keys are
    verified first (--known-hosts, --accept-new-host-keys; ssh options cannot turn that off). Exit 0 when
    everything was collected, 3 when a host or a part of one failed (the snapshot is still
    written with what was collected), 2 on a usage error. A source that is installed but does not
    answer (ovs-vswitchd, /proc/net/bonding, lldpd, libvirt) is such a failure; only one that is not
    installed is left out silently.
    """
    if local == bool(hosts):
        raise click.UsageError("give either --local or one or more --host")
    if no_libvirt and libvirt_uri:
        raise click.UsageError("--libvirt-uri and --no-libvirt exclude each other")
    try:
        parsed = parse_ssh_options(ssh_options)
        for destination in hosts:
            check_destination(destination)
            ssh_libvirt_uri(destination, ssh_options)  # checks Port= as a port number
    except SshOptionError as exc:
        raise click.UsageError(str(exc)) from exc
    # hostlint's own known_hosts handling comes first on ssh's command line, where OpenSSH would keep it over
    # the user's UserKnownHostsFile: so that option is taken as the file to verify against.
    if known_hosts is None and parsed.get("userknownhostsfile", "none").lower() != "none":
        known_hosts = Path(parsed["userknownhostsfile"]).expanduser()
    options = [arg for option in ssh_options for arg in ("-o", option)]
    try:
        policy = host_key_policy(known_hosts, accept_new_host_keys) if hosts else None
    except KnownHostsError as exc:
        click.echo(f"hostlint: {exc}", err=True)
        return Exit.USAGE
    targets: list[tuple[Runner, str, str | None]] = []
    if local:
        uri = None if no_libvirt else libvirt_uri or "qemu:///system"
        targets.append((LocalRunner(timeout=timeout), name or socket.gethostname(), uri))
    for destination in hosts:
        ssh_runner = SshRunner(destination, options, policy, timeout)
        if no_libvirt:
            uri = None
        else:
            uri = libvirt_uri or ssh_libvirt_uri(destination, ssh_options, ssh_runner.libvirt_ssh_command())
        targets.append((ssh_runner, ssh_runner.target, uri))
    snapshot = Snapshot(
        collected_at=datetime.now(UTC).replace(microsecond=0),
        source="kvm:" + ",".join(target for _, target, _ in targets),
    )
    for runner, host_name, uri in targets:
        gathered = collect_host(runner, host_name, uri, lldp=not no_lldp, timeout=timeout)
        snapshot.kvm_hosts.append(gathered.host)
        snapshot.collection_errors.extend(gathered.errors)
    write_snapshot(snapshot, output)
    for error in snapshot.collection_errors:
        click.echo(f"hostlint: {error.target}: {error.reason}", err=True)
    click.echo(f"hostlint: {len(snapshot.kvm_hosts)} KVM hosts -> {output}", err=True)
    return Exit.PARTIAL if snapshot.collection_errors else Exit.CLEAN
