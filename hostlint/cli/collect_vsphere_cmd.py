"""`hostlint collect vsphere --server HOST -o snap.json`: a live vCenter or ESXi host into a snapshot."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from hostlint.cli.exit import Exit
from hostlint.cli.host_keys import CommandT, KnownHostsError, host_key_options, host_key_policy
from hostlint.cli.output import output_option, write_snapshot
from hostlint.collect.credentials import Prompt
from hostlint.collect.limits import VSPHERE_CONCURRENCY as DEFAULT_CONCURRENCY
from hostlint.collect.limits import VSPHERE_TIMEOUT_S as DEFAULT_TIMEOUT_S
from hostlint.snapshot import Snapshot

if TYPE_CHECKING:
    from rich.progress import Progress as Bar

    from hostlint.collect.hostkeys import HostKeyPolicy
    from hostlint.collect.vsphere import Progress as Callbacks
    from hostlint.collect.vsphere.esxi_ssh import SshSettings


def _prompt() -> Prompt | None:
    """A hidden prompt for the password when stdin is a terminal; None (no asking) otherwise."""
    if not sys.stdin.isatty():
        return None
    return lambda text: click.prompt(text, hide_input=True)


def _progress(enabled: bool) -> tuple[Bar, Callbacks] | tuple[None, None]:
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


def esxi_ssh_options(command: CommandT) -> CommandT:
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


TIMEOUT_HELP = (
    "Longest time one call to vCenter/ESXi may take, from connecting to the last byte of its answer (the "
    "version probe, login and logout each count as one call); a server that stops answering, or answers too "
    "slowly, ends the collection with exit 3 naming the phase."
)


def timeout_option(command: CommandT) -> CommandT:
    """`--timeout SECONDS`, the same for `collect vsphere` and `check --vsphere`."""
    return click.option(
        "--timeout",
        default=DEFAULT_TIMEOUT_S,
        show_default=True,
        type=click.FloatRange(min=0, min_open=True),
        metavar="SECONDS",
        help=TIMEOUT_HELP,
    )(command)


def login_options(command: CommandT) -> CommandT:
    """`--user`, `--insecure` and `--ca-bundle`: who logs in to vCenter/ESXi and how TLS is checked."""
    command = click.option(
        "--ca-bundle",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help="Trust the CA certificate(s) in this PEM file instead of the system's.",
    )(command)
    command = click.option("--insecure", is_flag=True, help="Do not verify the server's TLS certificate.")(command)
    return click.option(
        "--user",
        default="administrator@vsphere.local",
        show_default=True,
        envvar="HOSTLINT_VSPHERE_USER",
        help="User name (or HOSTLINT_VSPHERE_USER). The password comes from HOSTLINT_VSPHERE_PASSWORD, the keyring "
        "or a prompt.",
    )(command)


def scan_timeout_option(command: CommandT) -> CommandT:
    """`scan --timeout SECONDS`: for every vCenter of the inventory, over its own `timeout:`."""
    return click.option(
        "--timeout",
        type=click.FloatRange(min=0, min_open=True),
        metavar="SECONDS",
        help=f"{TIMEOUT_HELP} For every vCenter of the inventory, over its own timeout: "
        f"[default: the inventory's timeout:, else {DEFAULT_TIMEOUT_S:g}].",
    )(command)


class CollectFailed(Exception):
    """Collection did not produce a snapshot; `code` is the exit code, the message was shown."""

    def __init__(self, code: Exit) -> None:
        super().__init__(code.name)
        self.code = code


def live_snapshot(
    server: str,
    user: str,
    insecure: bool = False,
    ca_bundle: Path | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    page_size: int = 500,
    esxi_ssh: SshSettings | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
) -> Snapshot:
    """hostlint.collect.vsphere.live_snapshot with a prompt, a progress bar and messages on stderr.

    Errors are shown and raised as CollectFailed. The snapshot it returns may carry collection
    errors (a disconnected host), which the caller turns into exit 3.
    """
    from hostlint.collect.vsphere import live

    target = live.VsphereTarget(server, user, insecure, ca_bundle, concurrency, page_size, timeout, esxi_ssh)
    bar, callbacks = _progress(sys.stderr.isatty())
    try:
        if bar is not None:
            with bar:
                snapshot = live.live_snapshot(target, _prompt(), callbacks, _say)
        else:
            snapshot = live.live_snapshot(target, _prompt(), None, _say)
    except live.CollectFailed as exc:
        _say(str(exc))
        raise CollectFailed(Exit.USAGE if exc.usage else Exit.PARTIAL) from exc
    for error in snapshot.collection_errors:
        _say(f"{error.target}: {error.reason}")
    return snapshot


def _say(message: str) -> None:
    click.echo(f"hostlint: {message}", err=True)


@click.command("vsphere")
@click.option("--server", required=True, help="vCenter or ESXi: host name, host:port or https:// URL.")
@login_options
@output_option
@click.option(
    "--concurrency",
    default=DEFAULT_CONCURRENCY,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Parallel per-host calls.",
)
@timeout_option
@click.option("--page-size", default=500, show_default=True, type=click.IntRange(1), help="Objects per retrieval page.")
@esxi_ssh_options
def vsphere(
    server: str,
    user: str,
    output: Path,
    insecure: bool,
    ca_bundle: Path | None,
    concurrency: int,
    timeout: float,
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
        snapshot = live_snapshot(server, user, insecure, ca_bundle, concurrency, page_size, esxi_ssh, timeout)
    except CollectFailed as failed:
        return failed.code
    write_snapshot(snapshot, output)
    click.echo(f"hostlint: wrote {output}", err=True)
    return Exit.PARTIAL if snapshot.collection_errors else Exit.CLEAN
