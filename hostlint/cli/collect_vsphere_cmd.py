"""`hostlint collect vsphere --server HOST -o snap.json`: a live vCenter or ESXi host into a snapshot."""

from __future__ import annotations

import http.client
import os
import sys
from pathlib import Path

import click

from hostlint.cli.exit import Exit
from hostlint.snapshot import Snapshot

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
        f"hostlint: {len(snapshot.esxi_hosts)} hosts, {len(snapshot.distributed_switches)} distributed switches "
        f"from {endpoint} in {collection.trips.total} calls",
        err=True,
    )
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
def vsphere(
    server: str,
    user: str,
    output: Path,
    insecure: bool,
    ca_bundle: Path | None,
    concurrency: int,
    page_size: int,
) -> int:
    """Collect hosts, vSwitches, distributed switches, CDP/LLDP and iSCSI bindings from vCenter or ESXi.

    Exit 0 when everything was collected; 3 when some host was disconnected or a part failed (the
    snapshot is still written) or the server could not be reached; 2 on a usage, login or
    certificate error.
    """
    try:
        snapshot = live_snapshot(server, user, insecure, ca_bundle, concurrency, page_size)
    except CollectFailed as failed:
        return failed.code
    output.write_text(snapshot.model_dump_json(indent=1) + "\n", encoding="utf-8")
    click.echo(f"hostlint: wrote {output}", err=True)
    return Exit.PARTIAL if snapshot.collection_errors else Exit.CLEAN
