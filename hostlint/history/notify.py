"""After a nightly scan, telling people what changed: new, resolved and expiring findings, through Apprise.

Apprise (https://github.com/caronc/apprise, BSD-2, `pip install 'hostlint[notify]'`) speaks e-mail, webhooks
and some hundred chat and paging services behind one URL syntax (`mailto://`, `json://`, `slack://`,
`msteams://`...), so a site names where to be told and hostlint writes no client of its own. A message is
sent only when something changed: a scan that found what the last one found stays quiet. Expiring means a
finding the baseline accepts until a date that is at most `EXPIRING_DAYS` away: someone must fix it or
renew the entry before it fails the gate.

URLs may hold passwords (`mailto://user:password@smtp...`): only Apprise's privacy form of a URL (secrets
as `****`) is ever printed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any
from urllib.parse import urlsplit

from hostlint.baseline import Baseline
from hostlint.history.compare import finding_key
from hostlint.history.store import HistoryStore, ScanRecord
from hostlint.results import SEVERITY_RANK, CheckResult, Finding

EXPIRING_DAYS = 14
# Lines listed per section; the rest is counted ("... and 120 more"): a chat message, not a report.
MAX_LISTED = 30


class NotifyError(Exception):
    """A notification URL that cannot be used (Apprise missing, a URL it does not know); one line."""


@dataclass
class Expiring:
    code: str
    object: str
    until: date


@dataclass
class ScanNews:
    """What one stored scan changed against the site's scan before it."""

    scan_id: int
    site: str
    previous: int | None
    new: list[Finding] = field(default_factory=list)
    resolved: list[Finding] = field(default_factory=list)
    expiring: list[Expiring] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.new or self.resolved or self.expiring)


def expiring(result: CheckResult, baseline: Baseline | None, today: date, days: int = EXPIRING_DAYS) -> list[Expiring]:
    """Findings the baseline hides today under an entry that ends within `days`."""
    if baseline is None:
        return []
    soon = today + timedelta(days=days)
    dated = [e for e in baseline.ignore if e.until is not None and today <= e.until <= soon]
    found = []
    for ignored in result.ignored:
        entry = next((e for e in dated if e.matches(ignored.code, ignored.object)), None)
        if entry is not None and entry.until is not None:
            found.append(Expiring(code=ignored.code, object=ignored.object, until=entry.until))
    return sorted(found, key=lambda e: (e.until, e.code, e.object))


def scan_news(
    store: HistoryStore, record: ScanRecord, result: CheckResult, baseline: Baseline | None, today: date
) -> ScanNews:
    """The stored scan against its site's scan before it (none: every finding is new)."""
    previous = store.previous(record)
    before = {finding_key(f): f for f in store.findings(previous.id)} if previous is not None else {}
    now = {finding_key(f): f for f in result.findings}
    return ScanNews(
        scan_id=record.id,
        site=record.site,
        previous=previous.id if previous is not None else None,
        new=[f for key, f in now.items() if key not in before],
        resolved=[f for key, f in before.items() if key not in now],
        expiring=expiring(result, baseline, today),
    )


def _listed(lines: list[str]) -> list[str]:
    extra = len(lines) - MAX_LISTED
    return lines[:MAX_LISTED] + ([f"  ... and {extra} more"] if extra > 0 else [])


def _finding_line(finding: Finding) -> str:
    return f"  {finding.severity} {finding.code} {finding.object}: {finding.message}"


def message(news: ScanNews) -> tuple[str, str]:
    """The title and plain-text body of the notification."""
    counts = [f"{len(news.new)} new", f"{len(news.resolved)} resolved", f"{len(news.expiring)} expiring"]
    title = f"hostlint: site {news.site}, scan {news.scan_id}: {', '.join(counts)}"
    since = f"since scan {news.previous}" if news.previous is not None else "first scan of the site"
    body = [f"Scan {news.scan_id} of site {news.site} ({since})."]
    by_severity = sorted(news.new, key=lambda f: (SEVERITY_RANK[f.severity], f.code, f.object))
    if news.new:
        body += ["", f"New findings ({len(news.new)}):", *_listed([_finding_line(f) for f in by_severity])]
    if news.resolved:
        body += ["", f"Resolved ({len(news.resolved)}):", *_listed([_finding_line(f) for f in news.resolved])]
    if news.expiring:
        lines = [f"  {e.code} {e.object}: accepted until {e.until}" for e in news.expiring]
        body += ["", f"Baseline entries expiring within {EXPIRING_DAYS} days ({len(news.expiring)}):", *_listed(lines)]
    body += ["", f"hostlint diff {news.previous} {news.scan_id}" if news.previous is not None else "hostlint history"]
    return title, "\n".join(body) + "\n"


def _apprise() -> Any:
    try:
        import apprise
    except ModuleNotFoundError:
        raise NotifyError("notifications need Apprise: pip install 'hostlint[notify]'") from None
    return apprise


def _shown(url: str) -> str:
    """A URL Apprise could not read, without anything that may be a secret: scheme and host only."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname or ''}" if parts.scheme else "(not a URL)"


def targets(urls: list[str]) -> list[Any]:
    """Apprise's plugin for each URL, checked before the scan runs: a typo is exit 2, not a silent night."""
    if not urls:
        return []
    apprise = _apprise()
    # Apprise logs each failure, with addresses, on its own logger: hostlint says it once, in privacy form.
    logger = logging.getLogger("apprise")
    logger.addHandler(logging.NullHandler())
    logger.propagate = False
    plugins = []
    for url in urls:
        plugin = apprise.Apprise.instantiate(url)
        if plugin is None:
            raise NotifyError(f"--notify {_shown(url)}: not a notification URL Apprise knows (see its wiki)")
        plugins.append(plugin)
    return plugins


def send(plugins: list[Any], news: ScanNews) -> list[str]:
    """Tell every target; the ones that failed, each in its privacy form (no password)."""
    if not news:
        return []
    apprise = _apprise()
    title, body = message(news)
    failed = []
    for plugin in plugins:
        # Through an Apprise object, which sends plain text as plain text (a plugin alone may render it as
        # HTML, joining the lines); one object per target, so a failure names its target.
        one = apprise.Apprise()
        one.add(plugin)
        if not one.notify(body=body, title=title, body_format=apprise.NotifyFormat.TEXT):
            failed.append(plugin.url(privacy=True))
    return failed
