"""`hostlint scan PATH...`: check and store the result in the history database, for cron or a CI schedule."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import click

from hostlint.baseline import load_baseline
from hostlint.check import check_snapshot
from hostlint.cli.collect_vsphere_cmd import scan_timeout_option
from hostlint.cli.exit import Exit
from hostlint.cli.host_keys import host_key_options
from hostlint.cli.output import OutputError, check_writable, write_output
from hostlint.cli.settings import (
    chosen_rules,
    config_options,
    echo_error,
    fail_on_option,
    failing,
    prefixes,
    rules_dir_option,
)
from hostlint.collect.progress import Progress
from hostlint.config import ConfigError, load_config
from hostlint.history.inventory import load_scan_inventory, scan_inventory_settings, scan_inventory_site
from hostlint.history.sources import FileSource, Source, gather
from hostlint.report import html
from hostlint.report.human import summary_line
from hostlint.results import CheckResult
from hostlint.rules import RuleError
from hostlint.rules.model import PROFILES
from hostlint.site import load_site_params
from hostlint.snapshot import SnapshotError
from hostlint.wording import plural

DB_HELP = "History database: a SQLAlchemy URL (postgresql+psycopg://...) or a SQLite file path."


db_option = click.option("--db", "db", envvar="HOSTLINT_DB", metavar="URL", help=DB_HELP + " [env: HOSTLINT_DB]")


def exit_code(result: CheckResult, fail_on: str = "info") -> Exit:
    if result.collection_errors:
        return Exit.PARTIAL
    return Exit.FINDINGS if failing(result.findings, fail_on) else Exit.CLEAN


def _say(message: str) -> None:
    click.echo(f"hostlint: {message}", err=True)


@contextlib.contextmanager
def _progress(enabled: bool) -> Iterator[Callable[[Source], Progress | None]]:
    """On a terminal, a progress bar per source (then per host or switch in it) on stderr; quiet otherwise."""
    if not enabled:
        yield lambda source: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as Bars

    bars = Bars(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=True
    )

    def watch(source: Source) -> Progress:
        task = bars.add_task(source.name, total=None)
        return Progress(on_total=lambda total: bars.update(task, total=total), on_host=lambda name: bars.advance(task))

    with bars:
        yield watch


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--inventory",
    "inventory_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Live sources to collect (vCenters, switch inventory, KVM hosts), see hostlint/history/inventory.py.",
)
@db_option
@click.option("--label", help="A name for this scan in the history (e.g. nightly, pre-change).")
@click.option(
    "--site-name",
    metavar="NAME",
    help="The site this scan belongs to (history and diff read one site) [default: the inventory's "
    "site_name, else 'default'].",
)
@click.option("--html", "html_file", type=click.Path(dir_okay=False, path_type=Path), help="Also write an HTML report.")
@click.option("--select", "selected", multiple=True, help="Only rules whose code starts with these prefixes.")
@click.option("--ignore", "ignored", multiple=True, help="Skip rules whose code starts with these prefixes.")
@click.option("--profile", type=click.Choice(PROFILES), help="Rule profile [default: recommended].")
@click.option("--site", "site_file", type=click.Path(dir_okay=False, path_type=Path), help="Site parameters (YAML).")
@click.option("--baseline", "baseline_file", type=click.Path(dir_okay=False, path_type=Path), help="Baseline file.")
@fail_on_option
@click.option(
    "--notify",
    "notify_urls",
    multiple=True,
    metavar="URL",
    help="Tell this Apprise URL (mailto://, json://, slack://...) of new, resolved and expiring findings; "
    "added to the inventory's notify.",
)
@click.option(
    "--probe",
    is_flag=True,
    help="With --inventory: also send don't-fragment pings to prove jumbo paths (as hostlint probe; it sends "
    "traffic), through the inventory's vCenters and KVM SSH sessions, within the inventory's probe: bounds.",
)
@click.option(
    "--probe-budget",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="With --probe: seconds for every probe of the scan [default: the inventory's probe.budget, else 600].",
)
@config_options
@rules_dir_option
@host_key_options
@scan_timeout_option
def scan(
    paths: tuple[Path, ...],
    inventory_file: Path | None,
    db: str | None,
    label: str | None,
    site_name: str | None,
    html_file: Path | None,
    selected: tuple[str, ...],
    ignored: tuple[str, ...],
    profile: str | None,
    site_file: Path | None,
    baseline_file: Path | None,
    fail_on: str | None,
    notify_urls: tuple[str, ...],
    probe: bool,
    probe_budget: float | None,
    config_file: Path | None,
    isolated: bool,
    rules_dirs: tuple[Path, ...],
    known_hosts: Path | None,
    accept_new_host_keys: bool,
    timeout: float | None,
) -> int:
    """Collect (an inventory of live sources) or load (snapshot files), check, and store it all as one scan."""
    started_at = datetime.now(UTC)
    if not paths and not inventory_file:
        raise click.UsageError("give snapshot files or lab folders, or --inventory FILE")
    if (known_hosts or accept_new_host_keys) and not inventory_file:
        raise click.UsageError("--known-hosts and --accept-new-host-keys need --inventory")
    if probe_budget and not probe:
        raise click.UsageError("--probe-budget needs --probe")
    if probe and not inventory_file:
        raise click.UsageError("--probe needs --inventory (its vCenters and KVM hosts send the probes)")
    # The database layer (SQLAlchemy, Alembic) loads only for the commands that use it, not for every hostlint run.
    from hostlint.history.notify import NotifyError, scan_news, send, targets
    from hostlint.history.sites import DEFAULT_SITE, SiteError, check_site_name

    try:
        check_writable(html_file, "--html")
        inventory = scan_inventory_settings(inventory_file) if inventory_file else None
        notify = targets([*(inventory.notify if inventory else []), *notify_urls])
    except (OutputError, NotifyError, SnapshotError) as exc:
        click.echo(f"hostlint: {exc}", err=True)
        return Exit.USAGE
    try:
        if site_name is not None:
            site_name = check_site_name(site_name)
        elif inventory_file is not None and (named := scan_inventory_site(inventory_file)) is not None:
            site_name = check_site_name(named, f"{inventory_file}: site_name")
        sources: list[Source] = (
            load_scan_inventory(inventory_file, known_hosts, accept_new_host_keys, timeout) if inventory_file else []
        )
        if paths:
            sources.append(FileSource(paths))
        config = load_config(config_file, isolated)
        site_file = site_file or config.site
        baseline_file = baseline_file or config.baseline
        baseline = load_baseline(baseline_file) if baseline_file else None
        rules = chosen_rules(config, selected, ignored, profile, rules_dirs, baseline, baseline_file)
        site = load_site_params(site_file) if site_file else None
        concurrency = inventory.concurrency if inventory else 1
        with _progress(sys.stderr.isatty()) as watch:
            snapshot = gather(sources, watch, concurrency)
        if probe and inventory is not None:
            from hostlint.history.scan_probes import probe_scan

            snapshot = probe_scan(snapshot, sources, inventory.probe, probe_budget, _say)
    except (SnapshotError, RuleError, ConfigError, SiteError) as exc:
        echo_error(exc)
        return Exit.USAGE
    from hostlint.history.compare import trends
    from hostlint.history.drift import snapshot_drift
    from hostlint.history.store import StoreError, open_store

    result = check_snapshot(snapshot, rules, site, baseline)
    code = exit_code(result, fail_on or config.fail_on or "info")
    settings = {
        "profile": profile or config.profile or "recommended",
        "select": prefixes(selected) or prefixes(config.select),
        "ignore": prefixes(config.ignore) + prefixes(ignored),
        "site": str(site_file) if site_file else None,
        "baseline": str(baseline_file) if baseline_file else None,
    }
    try:
        store = open_store(db)
        try:
            record = store.record(
                snapshot,
                result,
                started_at=started_at,
                exit_code=code,
                label=label,
                site=site_name or DEFAULT_SITE,
                inputs=[source.name for source in sources],
                settings=settings,
            )
            trend = trends(store, [record]).get(record.id)
            drift = snapshot_drift(store.snapshot(trend.previous), snapshot) if trend else []
            news = scan_news(store, record, result, baseline, started_at.date()) if notify else None
        finally:
            store.close()
    except StoreError as exc:
        click.echo(f"hostlint: {exc}", err=True)
        return Exit.USAGE
    if html_file is not None:
        header = html.ScanHeader(id=record.id, label=record.label, started_at=record.started_at, database=store.url)
        try:
            write_output(html_file, html.render(result, rules, snapshot, scan=header), "--html")
        except OutputError as exc:
            click.echo(f"hostlint: {exc} (scan {record.id} is stored in {store.url})", err=True)
            return Exit.USAGE
    click.echo(f"scan {record.id} stored in {store.url} for site {record.site}" + (f" ({label})" if label else ""))
    click.echo(summary_line(result))
    for error in result.collection_errors:
        click.echo(f"collection error: {error.target} ({error.kind}): {error.reason}")
    if trend is not None:
        click.echo(
            f"since scan {trend.previous}: {trend.new} new, {trend.resolved} resolved, "
            f"{plural(len(drift), 'configuration change')} (hostlint diff {trend.previous} {record.id})"
        )
    if html_file is not None:
        click.echo(f"HTML report: {html_file}")
    if news is not None and news:
        failed = send(notify, news)
        told = len(notify) - len(failed)
        if told:
            click.echo(
                f"notified {plural(told, 'target')}: {len(news.new)} new, {len(news.resolved)} resolved, "
                f"{len(news.expiring)} expiring"
            )
        for target in failed:
            click.echo(f"hostlint: notification to {target} failed (scan {record.id} is stored)", err=True)
    return code
