"""Where a scan's snapshot comes from: a list of sources, each giving the snapshot of part of the site.

Files (snapshots, lab folders, cabling files) are one source; live sources (a
vCenter, a list of switches, KVM hosts) come from a scan inventory
(hostlint/history/inventory.py): each collects its part, records targets it
could not reach as `collection_errors` in its snapshot, and `gather` merges the
parts into one site, as `hostlint check` merges several files.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from hostlint.collect.progress import Progress
from hostlint.snapshot import Snapshot, load_site
from hostlint.snapshot.load import merge


class Source(Protocol):
    @property
    def name(self) -> str:
        """What this source is, for the scan's record and for merge errors (a path, `vcenter:vc01`, ...)."""
        ...

    def snapshot(self, progress: Progress | None = None) -> Snapshot:
        """Its part of the site; raises SnapshotError when nothing usable can be had.

        Live sources report the hosts (or switches) they collect to `progress`.
        """
        ...


@dataclass(frozen=True)
class FileSource:
    """Snapshot files, lab folders and cabling files, merged as `hostlint check` merges them."""

    paths: tuple[Path, ...]

    @property
    def name(self) -> str:
        return ", ".join(str(p) for p in self.paths)

    def snapshot(self, progress: Progress | None = None) -> Snapshot:
        return load_site(list(self.paths))


def gather(sources: list[Source], watch: Callable[[Source], Progress | None] = lambda source: None) -> Snapshot:
    """One snapshot of the whole site from every source; `watch(source)` gives each its progress callbacks."""
    parts = [(Path(source.name), source.snapshot(watch(source))) for source in sources]
    return parts[0][1] if len(parts) == 1 else merge(parts)
