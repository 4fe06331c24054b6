"""Where a scan's snapshot comes from: a list of sources, each giving the snapshot of part of the site.

Files (snapshots, lab folders, cabling files) are one source; live sources (a
vCenter, a list of switches, KVM hosts) come from a scan inventory
(hostlint/history/inventory.py): each collects its part, records targets it
could not reach as `collection_errors` in its snapshot, and `gather` merges the
parts into one site, as `hostlint check` merges several files.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from hostlint.collect.progress import Progress
from hostlint.gcpause import gc_paused
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


def gather(
    sources: list[Source], watch: Callable[[Source], Progress | None] = lambda source: None, concurrency: int = 1
) -> Snapshot:
    """One snapshot of the whole site from every source; `watch(source)` gives each its progress callbacks.

    Up to `concurrency` sources are collected at once, each in a thread: a source spends its time waiting
    on its vCenter or switches, so ten vCenters take about as long as the slowest, not as long as all ten.
    The parts are merged in the sources' order, whichever finished first.
    """
    workers = max(1, min(concurrency, len(sources)))
    if workers == 1:
        parts = [(Path(source.name), source.snapshot(watch(source))) for source in sources]
    else:
        # One pause for all threads: a per-thread pause would re-enable the collector under the others.
        with gc_paused(), ThreadPoolExecutor(workers, thread_name_prefix="hostlint-source") as pool:
            futures = [pool.submit(source.snapshot, watch(source)) for source in sources]
            parts = [(Path(source.name), future.result()) for source, future in zip(sources, futures, strict=True)]
    return parts[0][1] if len(parts) == 1 else merge(parts)
