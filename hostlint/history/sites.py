"""Sites in the history: which site a scan belongs to, and which one `history` and `diff` read.

One history database may hold several estates (sites). Findings and drift are only comparable
within one: `history` lists one site's scans and `diff` compares two scans of one site.
"""

from __future__ import annotations

import difflib

from hostlint.history.schema import DEFAULT_SITE, SITE_NAME_MAX
from hostlint.history.store import HistoryStore, ScanRecord, StoreError
from hostlint.snapshot.common import control_character

__all__ = ["DEFAULT_SITE", "SiteError", "check_site_name", "choose_site", "same_site"]


class SiteError(StoreError):
    """A site name that is not valid, not in the database, or not given where it must be."""


def check_site_name(name: str, where: str = "--site-name") -> str:
    """A site name as given, or SiteError: one line, at most SITE_NAME_MAX characters, not blank."""
    if not name.strip():
        raise SiteError(f"{where}: a site name cannot be empty")
    if len(name) > SITE_NAME_MAX:
        raise SiteError(f"{where}: a site name has at most {SITE_NAME_MAX} characters, this one {len(name)}")
    offset = control_character(name, allow_tab=False)
    if offset is not None:
        raise SiteError(f"{where}: control character U+{ord(name[offset]):04X} in the site name at {offset}")
    return name


def _listing(sites: dict[str, int]) -> str:
    return ", ".join(f"{site} ({count} scans)" for site, count in sites.items())


def choose_site(store: HistoryStore, requested: str | None) -> str | None:
    """The site to read: the one requested (which must have scans), else the only one stored.

    None when the database holds no scan at all. Several sites and none requested is ambiguous:
    SiteError listing them."""
    sites = store.sites()
    if requested is not None:
        check_site_name(requested)
        if requested not in sites:
            if not sites:
                raise SiteError(f"{store.url}: no scans stored (asked for site {requested!r})")
            close = difflib.get_close_matches(requested, list(sites), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise SiteError(f"{store.url}: no scans of site {requested!r}{hint}; sites: {_listing(sites)}")
        return requested
    if len(sites) > 1:
        raise SiteError(
            f"{store.url}: scans of {len(sites)} sites are stored; choose one with --site-name: {_listing(sites)}"
        )
    return next(iter(sites), None)


def same_site(before: ScanRecord, after: ScanRecord) -> None:
    """Refuse to compare scans of two sites: every difference between two estates would read as drift."""
    if before.site != after.site:
        raise SiteError(
            f"scan {before.id} is of site {before.site!r} and scan {after.id} of site {after.site!r}: "
            "diff compares two scans of one site"
        )
