"""`hostlint collect vsphere --server HOST -o snap.json`: a live vCenter or ESXi host into a snapshot."""

from __future__ import annotations

import http.client
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from hostlint.cli.exit import Exit
from hostlint.cli.host_keys import KnownHostsError, host_key_options, host_key_policy
from hostlint.report.human import plural
from hostlint.snapshot import Snapshot

if TYPE_CHECKING:
    from hostlint.collect.hostkeys import HostKeyPolicy
    from hostlint.collect.vsphere.esxi_ssh import SshSettings

PASSWORD_ENV = "HOSTLINT_VSPHERE_PASSWORD"
KEYRING_SERVICE = "hostlint-vsphere"


def _keyring_password(server: str, user: str) -> str | None:
    """The system keyring's entry for (hostlint-vsphere/SERVER, USER), when keyring is installed."""
    try:
        import keyring
    except ImportError:
        return None
    try:
        return keyring.get_password(f"{KEYRING_SERVICE}/{server}", user)
    except Exception:  # any backend failure just means "not stored there"
        return None


def resolve_password(server: str, user: str) -> str:
    """Environment, then keyring, then a hidden prompt on a terminal. Never the command line."""
    password = os.environ.get(PASSWORD_ENV) or _keyring_password(server, user)
    if password:
        return password
    if sys.stdin.isatty():
        return click.prompt(f"Password for {user} on {server}", hide_input=True)
    raise click.UsageError(
        f"no password for {user} on {server}: set {PASSWORD_ENV}, store it in the keyring "
        f"(service {KEYRING_SERVICE}/{server}), or run on a terminal to be asked"
    )


def _progress(enabled: bool):
    """A rich progress bar on stderr when it is a terminal; None (quiet) otherwise."""
    if not enabled:
        return None, None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from hostlint.collect.vsphere import Progress as Callbacks

    bar = Progress(
        TextColumn("[bold]vSphere[/]"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=True
    )
    task = bar.add_task("hosts", total=None)
    callbacks = Callbacks(
        on_total=lambda total: bar.update(task, total=total),
        on_host=lambda name: bar.advance(task),
    )
    return bar, callbacks


def esxi_ssh_options(command):
    """`--esxi-ssh-user`, `--esxi-ssh-config` and the host-key options, shared by `collect vsphere` and `check`."""
    command = host_key_options(command)
    command = click.option(
        "--esxi-ssh-config",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help="OpenSSH client config for those connections (HostName, Port, IdentityFile, UserKnownHostsFile, "
        "ProxyJump); default ~/.ssh/config. Host keys are verified (--known-hosts, else UserKnownHostsFile, else "
        "~/.ssh/known_hosts).",
    )(command)
    return click.option(
        "--esxi-ssh-user",
        metavar="USER",
        help="Also read each ESXi host's PCIe link width and speed (lspci -vv) over SSH as this user: keys or "
        "agent, or the password in HOSTLINT_ESXI_SSH_PASSWORD. The vSphere API has no PCIe link data.",
    )(command)


def esxi_ssh_settings(
    user: str | None, config: Path | None, host_keys: HostKeyPolicy | None = None
) -> SshSettings | None:
    if user is None:
        if config is not None:
            raise click.UsageError("--esxi-ssh-config needs --esxi-ssh-user")
        return None
    from hostlint.collect.vsphere.esxi_ssh import SshSettings

    return SshSettings.from_environment(user, config, host_keys)


def ssh_host_keys(known_hosts: Path | None, accept_new: bool) -> HostKeyPolicy | None:
    """The host-key policy when an option sets one (else the default, read when first needed)."""
    return host_key_policy(known_hosts, accept_new) if known_hosts or accept_new else None


class CollectFailed(Exception):
    """Collection did not produce a snapshot; `code` is the exit code, the message was shown."""

    def __init__(self, code: Exit):
        super().__init__(code.name)
        self.code = code


def live_snapshot(
    server: str,
    user: str,
    insecure: bool = False,
    ca_bundle: Path | None = None,
    concurrency: int = 8,
    page_size: int = 500,
    esxi_ssh: SshSettings | None = None,
) -> Snapshot:
    """Log in, collect, log out; errors are reported on stderr and raised as CollectFailed.

    Also the building block of `hostlint check --vsphere`: the snapshot it returns may carry
    collection errors (a disconnected host), which the caller turns into exit 3.
    """
    from pyVmomi import vmodl

    from hostlint.collect.vsphere import (
        UnreachableError,
        UsageError,
        collect,
        connect,
        disconnect,
        parse_server,
        tls_context,
    )

    if insecure and ca_bundle:
        raise click.UsageError("--insecure and --ca-bundle exclude each other")
    try:
        endpoint = parse_server(server)
        context = tls_context(insecure, ca_bundle)
    except UsageError as exc:
        click.echo(f"hostlint: {exc}", err=True)
        raise CollectFailed(Exit.USAGE) from exc
    password = resolve_password(str(endpoint), user)
    try:
        service_instance = connect(endpoint, user, password, context)
    except (UsageError, UnreachableError) as exc:
        click.echo(f"hostlint: {exc}", err=True)
        raise CollectFailed(Exit.USAGE if isinstance(exc, UsageError) else Exit.PARTIAL) from exc
    bar, callbacks = _progress(sys.stderr.isatty())
    try:
        if bar is not None:
            with bar:
                collection = collect(service_instance, str(endpoint), page_size, concurrency, callbacks)
        else:
            collection = collect(service_instance, str(endpoint), page_size, concurrency)
    except (vmodl.MethodFault, OSError, http.client.HTTPException) as exc:
        reason = getattr(exc, "msg", None) or str(exc) or type(exc).__name__
        click.echo(f"hostlint: {endpoint}: collection failed: {reason}", err=True)
        raise CollectFailed(Exit.PARTIAL) from exc
    finally:
        disconnect(service_instance)
    snapshot = collection.snapshot
    click.echo(
        f"hostlint: {plural(len(snapshot.esxi_hosts), 'host')}, "
        f"{plural(len(snapshot.distributed_switches), 'distributed switch', 'distributed switches')} "
        f"from {endpoint} in {plural(collection.trips.total, 'call')}",
        err=True,
    )
    if esxi_ssh is not None:
        from hostlint.collect.vsphere.esxi_ssh import collect_pcie_links

        snapshot.collection_errors += collect_pcie_links(snapshot.esxi_hosts, esxi_ssh, concurrency)
    for error in snapshot.collection_errors:
        click.echo(f"hostlint: {error.target}: {error.reason}", err=True)
    return snapshot


@click.command("vsphere")
@click.option("--server", required=True, help="vCenter or ESXi: host name, host:port or https:// URL.")
@click.option(
    "--user",
    default="administrator@vsphere.local",
    show_default=True,
    envvar="HOSTLINT_VSPHERE_USER",
    help="User name (or HOSTLINT_VSPHERE_USER). The password comes from HOSTLINT_VSPHERE_PASSWORD, the keyring or "
    "a prompt.",
)
@click.option(
    "--output", "-o", required=True, type=click.Path(dir_okay=False, path_type=Path), help="Snapshot file to write."
)
@click.option("--insecure", is_flag=True, help="Do not verify the server's TLS certificate.")
@click.option(
    "--ca-bundle",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Trust the CA certificate(s) in this PEM file instead of the system's.",
)
@click.option(
    "--concurrency", default=8, show_default=True, type=click.IntRange(1, 64), help="Parallel per-host calls."
)
@click.option("--page-size", default=500, show_default=True, type=click.IntRange(1), help="Objects per retrieval page.")
@esxi_ssh_options
def vsphere(
    server: str,
    user: str,
    output: Path,
    insecure: bool,
    ca_bundle: Path | None,
    concurrency: int,
    page_size: int,
    esxi_ssh_user: str | None,
    esxi_ssh_config: Path | None,
    known_hosts: Path | None,
    accept_new_host_keys: bool,
) -> int:
    """Collect hosts, vSwitches, distributed switches, CDP/LLDP and iSCSI bindings from vCenter or ESXi.

    Exit 0 when everything was collected; 3 when some host was disconnected or a part failed, such
    as SSH to one host for its PCIe links (the snapshot is still written) or the server could not be
    reached; 2 on a usage, login or certificate error.
    """
    try:
        esxi_ssh = esxi_ssh_settings(esxi_ssh_user, esxi_ssh_config, ssh_host_keys(known_hosts, accept_new_host_keys))
    except KnownHostsError as exc:
        click.echo(f"hostlint: {exc}", err=True)
        return Exit.USAGE
    try:
        snapshot = live_snapshot(server, user, insecure, ca_bundle, concurrency, page_size, esxi_ssh)
    except CollectFailed as failed:
        return failed.code
    output.write_text(snapshot.model_dump_json(indent=1) + "\n", encoding="utf-8")
    click.echo(f"hostlint: wrote {output}", err=True)
    return Exit.PARTIAL if snapshot.collection_errors else Exit.CLEAN
