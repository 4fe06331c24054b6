"""`hostlint check PATH...`: findings for saved snapshots or lab folders."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path

import click

from hostlint.baseline import load_baseline
from hostlint.baseline import write_baseline as write_baseline_file
from hostlint.check import check_snapshot
from hostlint.cli.collect_vsphere_cmd import esxi_ssh_options, esxi_ssh_settings, ssh_host_keys, timeout_option
from hostlint.cli.exit import Exit
from hostlint.cli.host_keys import KnownHostsError
from hostlint.cli.output import OutputError, check_writable, write_output
from hostlint.cli.settings import chosen_rules, config_options, echo_error, fail_on_option, failing, rules_dir_option
from hostlint.config import ConfigError, load_config
from hostlint.gcpause import gc_paused
from hostlint.report import FORMATS, json_report, render
from hostlint.rules import RuleError
from hostlint.rules.model import PROFILES
from hostlint.site import load_site_params
from hostlint.snapshot import SnapshotError, load_site
from hostlint.snapshot.load import merge


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--vsphere", "vsphere_server", metavar="SERVER", help="Collect live from this vCenter or ESXi host first."
)
@click.option("--vsphere-user", default="administrator@vsphere.local", show_default=True)
@click.option("--insecure", is_flag=True, help="With --vsphere: do not verify the server's TLS certificate.")
@click.option(
    "--ca-bundle", type=click.Path(dir_okay=False, path_type=Path), help="With --vsphere: trust these CA certificates."
)
@timeout_option
@esxi_ssh_options
@click.option(
    "--select",
    "selected",
    multiple=True,
    help="Only rules whose code starts with these prefixes, or with these names (e.g. LG,MT001).",
)
@click.option(
    "--ignore", "ignored", multiple=True, help="Skip rules whose code starts with these prefixes, or with these names."
)
@click.option(
    "--profile",
    type=click.Choice(PROFILES),
    help="minimal: what breaks connectivity; recommended (default): + best practice; strict: + advisories.",
)
@click.option("--format", "fmt", type=click.Choice(FORMATS), help="Report format [default: human].")
@click.option("--show-all", is_flag=True, help="Human format: every finding on its own lines, none grouped.")
@click.option(
    "--show-skipped", is_flag=True, help="Human format: every skipped object with its reason, not counts per cause."
)
@click.option("--statistics", is_flag=True, help="Only count findings per rule (human format).")
@click.option("--quiet", "-q", is_flag=True, help="Human format: one line per finding, nothing else.")
@config_options
@rules_dir_option
@fail_on_option
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), help="Write the report here.")
@click.option(
    "--fix-script",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write per-device fix and rollback scripts and PLAN.md into this folder (never run).",
)
@click.option("--force", is_flag=True, help="Write --fix-script into a non-empty folder hostlint did not write.")
@click.option(
    "--unsafe-fixes",
    is_flag=True,
    help="Also write fixes that may drop traffic (port-channel, hash, speed changes): for a maintenance window.",
)
@click.option(
    "--site",
    "site_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Site parameters (YAML): expected MTU per port group / VLAN, storage VLANs.",
)
@click.option(
    "--baseline",
    "baseline_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Findings accepted for now (code, object pattern, reason, optional until).",
)
@click.option(
    "--write-baseline",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the current findings as a baseline file to adopt hostlint on an existing estate (exit 0: "
    "the findings are accepted).",
)
def check(
    paths: tuple[Path, ...],
    vsphere_server: str | None,
    vsphere_user: str,
    insecure: bool,
    ca_bundle: Path | None,
    timeout: float,
    esxi_ssh_user: str | None,
    esxi_ssh_config: Path | None,
    known_hosts: Path | None,
    accept_new_host_keys: bool,
    selected: tuple[str, ...],
    ignored: tuple[str, ...],
    profile: str | None,
    fmt: str | None,
    show_all: bool,
    show_skipped: bool,
    statistics: bool,
    quiet: bool,
    config_file: Path | None,
    isolated: bool,
    rules_dirs: tuple[Path, ...],
    fail_on: str | None,
    output: Path | None,
    fix_script: Path | None,
    force: bool,
    unsafe_fixes: bool,
    site_file: Path | None,
    baseline_file: Path | None,
    write_baseline: Path | None,
) -> int:
    """Check snapshot files, lab folders and cabling files (merged into one site), or a live vSphere."""
    if not paths and not vsphere_server:
        raise click.UsageError("give snapshot files or lab folders, or --vsphere SERVER")
    if (known_hosts or accept_new_host_keys) and not esxi_ssh_user:
        raise click.UsageError("--known-hosts and --accept-new-host-keys need --esxi-ssh-user")
    try:
        esxi_ssh = esxi_ssh_settings(esxi_ssh_user, esxi_ssh_config, ssh_host_keys(known_hosts, accept_new_host_keys))
    except KnownHostsError as exc:
        click.echo(f"hostlint: {exc}", err=True)
        return Exit.USAGE
    if esxi_ssh is not None and not vsphere_server:
        raise click.UsageError("--esxi-ssh-user needs --vsphere")
    try:
        check_writable(output, "-o")
        check_writable(write_baseline, "--write-baseline")
    except OutputError as exc:
        click.echo(f"hostlint: {exc}", err=True)
        return Exit.USAGE
    try:
        config = load_config(config_file, isolated)
        site_file = site_file or config.site
        baseline_file = baseline_file or config.baseline
        fmt = fmt or config.format or "human"
        baseline = load_baseline(baseline_file) if baseline_file else None
        rules = chosen_rules(config, selected, ignored, profile, rules_dirs, baseline, baseline_file)
        site = load_site_params(site_file) if site_file else None
        with gc_paused():
            snapshots = [(path, load_site([path])) for path in paths]
    except (SnapshotError, RuleError, ConfigError) as exc:
        echo_error(exc)
        return Exit.USAGE
    if vsphere_server:
        from hostlint.cli.collect_vsphere_cmd import CollectFailed, live_snapshot
        from hostlint.collect.vsphere.connect import display_server

        try:
            live = live_snapshot(vsphere_server, vsphere_user, insecure, ca_bundle, esxi_ssh=esxi_ssh, timeout=timeout)
        except CollectFailed as exc:
            return exc.code
        snapshots.insert(0, (Path(live.source or f"vsphere:{display_server(vsphere_server)}"), live))
    try:
        snapshot = snapshots[0][1] if len(snapshots) == 1 else merge(snapshots)
    except SnapshotError as exc:
        click.echo(f"hostlint: {exc}", err=True)
        return Exit.USAGE
    # The HTML report and a fix plan read the joined facts; other reports need only the results, so
    # the rules run host by host and each host's facts are dropped (hostlint.check).
    keep_facts = fmt == "html" or fix_script is not None
    result = check_snapshot(snapshot, rules, site, baseline, keep_facts=keep_facts)
    layout = "quiet" if quiet else "statistics" if statistics else "all" if show_all else "grouped"
    # A JSON report to a file is written item by item (hostlint.report.json_report.chunks): at estate
    # scale the whole text, its pieces and its bytes were the report phase's memory.
    report: str | Iterable[str] = (
        json_report.chunks(result)
        if fmt == "json" and output
        else render(
            fmt,
            result,
            rules,
            snapshot,
            color=output is None,
            layout=layout,
            sources=list(paths),
            show_skipped=show_skipped,
        )
    )
    try:
        if output:
            write_output(output, report, "-o")
        else:
            click.echo(report if isinstance(report, str) else "".join(report), nl=False)
        if write_baseline is not None:
            try:
                count = write_baseline_file(result, write_baseline, date.today())
            except OSError as exc:
                raise OutputError(f"--write-baseline {write_baseline}: cannot write: {exc.strerror or exc}") from exc
            click.echo(f"hostlint: wrote {count} baseline entries to {write_baseline}", err=True)
    except OutputError as exc:
        click.echo(f"hostlint: {exc}", err=True)
        return Exit.USAGE
    if fix_script is not None:
        from hostlint.fixes.plan import build_plan
        from hostlint.fixes.write import FixFolderError, write_plan

        plan = build_plan(result, snapshot, unsafe=unsafe_fixes, rules=rules, site=site)
        try:
            written = write_plan(plan, snapshot, fix_script, force)
        except FixFolderError as exc:
            click.echo(f"hostlint: {exc}", err=True)
            return Exit.USAGE
        for withheld in plan.withheld:
            click.echo(f"hostlint: {withheld.message}", err=True)
        click.echo(f"hostlint: wrote {len(written)} files to {fix_script}", err=True)
    if result.collection_errors:
        return Exit.PARTIAL
    if write_baseline is not None:
        return Exit.CLEAN  # the findings just went into the baseline: adopting is not failing
    return Exit.FINDINGS if failing(result.findings, fail_on or config.fail_on or "info") else Exit.CLEAN
