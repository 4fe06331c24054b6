"""`hostlint history` and `hostlint diff [SCAN_A] [SCAN_B]`: stored scans, their trend, and what changed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import click

from hostlint.cli.exit import Exit
from hostlint.cli.scan_cmd import db_option
from hostlint.wording import plural

FORMATS = ("human", "json")

site_name_option = click.option(
    "--site-name",
    metavar="NAME",
    help="The site whose scans to read (needed when the database holds scans of several sites).",
)
# Scan ids are SQLite / PostgreSQL 64-bit integers: a larger number is a typo, not a scan.
MAX_SCAN_ID = 2**63 - 1


def _bad_scan_id(*scan_ids: int | None) -> str | None:
    for scan_id in scan_ids:
        if scan_id is not None and not 1 <= scan_id <= MAX_SCAN_ID:
            return f"hostlint: scan id {scan_id} is out of range (1 to {MAX_SCAN_ID})"
    return None


@click.command()
@db_option
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="human", show_default=True)
@click.option("--limit", type=click.IntRange(min=1), default=30, show_default=True, help="Show the newest N scans.")
@site_name_option
@click.option(
    "--prune",
    is_flag=True,
    help="Delete old scans instead of listing them (of --site-name, else of every site): those older than "
    "--keep-days or beyond the newest --keep-scans. Each site's newest scan always stays.",
)
@click.option("--keep-days", type=click.IntRange(min=1), metavar="DAYS", help="With --prune: keep this many days.")
@click.option("--keep-scans", type=click.IntRange(min=1), metavar="N", help="With --prune: keep N scans per site.")
def history(
    db: str | None,
    fmt: str,
    limit: int,
    site_name: str | None,
    prune: bool,
    keep_days: int | None,
    keep_scans: int | None,
) -> int:
    """One site's stored scans with their findings by severity and the trend against the scan before each."""
    if prune or keep_days or keep_scans:
        if not (prune and (keep_days or keep_scans)):
            raise click.UsageError("--prune needs --keep-days DAYS or --keep-scans N (and they need --prune)")
        return _prune(db, site_name, keep_days, keep_scans)
    from hostlint.history.compare import trends
    from hostlint.history.render import history_human, history_json
    from hostlint.history.sites import choose_site
    from hostlint.history.store import StoreError, open_read_only

    try:
        store = open_read_only(db)
        try:
            site = choose_site(store, site_name)
            scans = store.scans(limit=limit, site=site) if site is not None else []
            scan_trends = trends(store, scans)
        finally:
            store.close()
    except StoreError as exc:
        click.echo(f"hostlint: {exc}", err=True)
        return Exit.USAGE
    if fmt == "json":
        click.echo(history_json(store.url, site, scans, scan_trends), nl=False)
    else:
        click.echo(history_human(store.url, site, scans, scan_trends, color=True), nl=False)
    return Exit.CLEAN


def _prune(db: str | None, site_name: str | None, keep_days: int | None, keep_scans: int | None) -> int:
    from hostlint.history.sites import SiteError, check_site_name
    from hostlint.history.store import StoreError, open_existing

    cutoff = datetime.now(UTC) - timedelta(days=keep_days) if keep_days else None
    try:
        site = check_site_name(site_name) if site_name is not None else None
        store = open_existing(db)
        try:
            pruned = store.prune(site, cutoff, keep_scans)
            left = store.count()
        finally:
            store.close()
    except (StoreError, SiteError) as exc:
        click.echo(f"hostlint: {exc}", err=True)
        return Exit.USAGE
    which = f" ({', '.join(map(str, pruned[:10]))}{', ...' if len(pruned) > 10 else ''})" if pruned else ""
    click.echo(f"pruned {plural(len(pruned), 'scan')}{which} from {store.url}; {plural(left, 'scan')} left")
    return Exit.CLEAN


@click.command()
@click.argument("scan_a", type=int, required=False)
@click.argument("scan_b", type=int, required=False)
@db_option
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="human", show_default=True)
@site_name_option
@click.option("--fail-on-new", is_flag=True, help="Exit 1 when SCAN_B has findings SCAN_A did not (a CI gate).")
def diff(
    scan_a: int | None, scan_b: int | None, db: str | None, fmt: str, site_name: str | None, fail_on_new: bool
) -> int:
    """New and resolved findings and configuration drift from SCAN_A to SCAN_B, two scans of one site.

    Without scans, the site's newest two; with one, that scan against the newest of its site.
    """
    bad = _bad_scan_id(scan_a, scan_b)
    if bad:
        click.echo(bad, err=True)
        return Exit.USAGE
    from hostlint.history.compare import diff_scans, pick_scans
    from hostlint.history.render import diff_human, diff_json
    from hostlint.history.store import StoreError, open_read_only

    try:
        store = open_read_only(db)
        try:
            before, after = pick_scans(store, scan_a, scan_b, site_name)
            changes = diff_scans(store, before, after)
        finally:
            store.close()
    except StoreError as exc:
        click.echo(f"hostlint: {exc}", err=True)
        return Exit.USAGE
    click.echo(diff_json(changes) if fmt == "json" else diff_human(changes, color=True), nl=False)
    return Exit.FINDINGS if fail_on_new and changes.new else Exit.CLEAN
