"""Where a scan's snapshot comes from: a list of sources, each giving the snapshot of part of the site.

Files (snapshots, lab folders, cabling files) are one source; live sources (a
vCenter, a list of switches, KVM hosts) come from a scan inventory
(hostlint/history/inventory.py): each collects its part, records targets it
could not reach as `collection_errors` in its snapshot, and `gather` merges the
parts into one site, as `hostlint check` merges several files.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from hostlint.collect.progress import Progress
from hostlint.gcpause import gc_paused
from hostlint.snapshot import Snapshot, load_site
from hostlint.snapshot.load import merge
from hostlint.snapshot.stream import read_streamed


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


def detached(source: Source) -> Source | None:
    """`source` as it can be collected in a process of its own, or None when it must stay in this one.

    A source offers a copy through `detached()` (a vCenter without ESXi SSH: nothing it holds is tied
    to this process). Passwords are not part of it: the child finds its own where this process would
    (the environment it inherits, the keyring).
    """
    offer = getattr(source, "detached", None)
    copy: Source | None = offer() if callable(offer) else None
    return copy


# Workers are forked: a spawned interpreter's imports cost about 0.5 s of CPU each, more than a small
# vCenter's whole collection. The fork happens before gather starts any thread of its own; a worker
# uses no lock it could inherit held (it prints nothing, logs nothing, sends its progress through a
# queue made for it). Where fork is not available, spawn.
_START_METHOD = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"

# The child process's end of the progress queue (set by _child_started).
_PROGRESS: Any = None


def _child_started(queue: Any) -> None:
    """First thing in a worker: its progress queue, and standard streams of its own. A thread of the
    parent (a progress display) may have held stderr's buffer lock at the fork, and a worker flushes
    its streams when it exits; it has nothing to print (results and errors go back to the parent)."""
    global _PROGRESS
    _PROGRESS = queue
    sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (lives as long as the worker)


def _collect_in_child(index: int, source: Source) -> None:
    """Runs in a worker process: the source's snapshot, sent as JSON (what a collector writes to a file)
    the moment it is done, so the parent reads it while the worker's other sources are still collected."""
    queue = _PROGRESS

    def send(event: str, value: object) -> None:
        queue.put((index, event, value))

    progress = Progress(on_total=lambda total: send("total", total), on_host=lambda name: send("host", name))
    send("snapshot", source.snapshot(progress).model_dump_json())


def _collect_group(group: list[tuple[int, Source]], threads: int) -> None:
    """Runs in a worker process: its sources collected `threads` at once, each sent as it is done (a
    source that raised raises here, and so in the parent)."""
    with gc_paused(), ThreadPoolExecutor(threads, thread_name_prefix="hostlint-source") as pool:
        list(pool.map(lambda item: _collect_in_child(*item), group))


class _Relay:
    """The parent's end of the workers' queue, in a thread of its own until None: their progress events
    go to the parent's callbacks, their snapshots are read into `snapshots` as they come (a snapshot
    that cannot be read goes to `unreadable`, raised once every worker has stopped)."""

    def __init__(self, queue: Any, progresses: list[Progress | None]) -> None:
        self.queue = queue
        self.progresses = progresses
        self.snapshots: dict[int, Snapshot] = {}
        self.unreadable: dict[int, Exception] = {}

    def run(self) -> None:
        while (message := self.queue.get()) is not None:
            index, event, value = message
            if event == "snapshot":
                try:
                    self.snapshots[index] = _from_child(value)
                except Exception as exc:  # raised by gather, once every worker has stopped
                    self.unreadable[index] = exc
                continue
            progress = self.progresses[index]
            if progress is not None:
                (progress.on_total if event == "total" else progress.on_host)(value)


def _from_child(text: str) -> Snapshot:
    return read_streamed(text) or Snapshot.model_validate_json(text)


def gather(
    sources: list[Source],
    watch: Callable[[Source], Progress | None] = lambda source: None,
    concurrency: int = 1,
    processes: bool = True,
) -> Snapshot:
    """One snapshot of the whole site from every source; `watch(source)` gives each its progress callbacks.

    Up to `concurrency` sources are collected at once. A source waits on its vCenter or switches, and
    threads would do for that; but a vCenter's answers are also parsed, in Python, which threads of one
    interpreter take turns at (bench/README.md, "Scan inventory"). So when two or more sources can
    (`detached`), they are spread over worker processes, one per core at most, each collecting its
    share in threads; the rest stay here, in threads; `processes=False` keeps every source here. A
    worker (forked, see _START_METHOD) finds the password where this process would (its environment,
    the keyring), and sends its progress and, the moment each is done, its snapshots as JSON back
    through a queue; a thread here reads each as a snapshot file is read while the workers go on with
    the rest. The parts are merged in the sources' order, whichever finished first.
    """
    workers = max(1, min(concurrency, len(sources)))
    if workers == 1:
        parts = [(Path(source.name), source.snapshot(watch(source))) for source in sources]
        return parts[0][1] if len(parts) == 1 else merge(parts)
    progresses = [watch(source) for source in sources]
    apart = [(index, copy) for index, source in enumerate(sources) if processes and (copy := detached(source))]
    # One such source shares the interpreter with nothing that parses as much: a worker and the JSON
    # hand-over would only add to its time.
    if len(apart) < 2:
        apart = []
    moved = {index for index, _ in apart}
    stay = [index for index in range(len(sources)) if index not in moved]
    # The bound is shared: the sources that stay get threads here first, the others the rest of it.
    slots = min(len(apart), max(1, workers - len(stay)))
    count = min(slots, os.cpu_count() or 1)
    groups = [apart[g::count] for g in range(count)] if apart else []
    threads_of = [slots // count + (1 if g < slots % count else 0) for g in range(count)] if apart else []
    snapshots: dict[int, Snapshot] = {}
    relay: _Relay | None = None
    # One pause for all threads: a per-thread pause would re-enable the collector under the others.
    with gc_paused(), ExitStack() as stack:
        pool = None
        if groups:
            context = multiprocessing.get_context(_START_METHOD)
            queue = context.Queue()
            relay = _Relay(queue, progresses)
            relaying = threading.Thread(target=relay.run, name="hostlint-relay", daemon=True)
            # Unwound in reverse: the pool shuts down (its workers exit, flushing what they sent), then the
            # relay is told to stop and waited for.
            stack.callback(relaying.join)
            stack.callback(queue.put, None)
            pool = stack.enter_context(
                ProcessPoolExecutor(count, mp_context=context, initializer=_child_started, initargs=(queue,))
            )
            # A forking pool starts every worker at its first task: now, before this function starts threads.
            pool.submit(int).result()
            relaying.start()
        in_workers = [pool.submit(_collect_group, g, t) for g, t in zip(groups, threads_of, strict=True) if pool]
        threads = stack.enter_context(ThreadPoolExecutor(max(1, workers - slots), thread_name_prefix="hostlint-source"))
        here = {index: threads.submit(sources[index].snapshot, progresses[index]) for index in stay}
        for future in in_workers:
            future.result()  # a source that raised in a worker raises here
        for index, waiting in here.items():
            snapshots[index] = waiting.result()
    # Every worker has stopped and the relay has read all they sent (the stack's unwinding).
    if relay is not None:
        for exc in relay.unreadable.values():
            raise exc
        snapshots.update(relay.snapshots)
    return merge([(Path(source.name), snapshots[index]) for index, source in enumerate(sources)])
