"""The CPU of parsing host pages in threads of one process: lxml's iterparse with and without `PARSING`.

lxml's iterparse lets go of the GIL while libxml2 parses and takes it back for every element it
reports. Two threads of one process parsing at once hand the GIL to each other at every element; on
two cores that multiplies the CPU and lengthens the wall time. hostlint's vSphere collector parses
host pages in up to three threads and each host's small answers in eight more, and `scan
--inventory` collects several vCenters in threads of one worker, so it parses every answer under one
lock per process (`fastretrieve.PARSING`). This script shows why, on one real page.

It starts the simulator with bench/vsphere.py's scenario (`--hosts`, 50 by default: one page of
the collector's host slices), records hostlint's collection of it, takes the largest
`RetrievePropertiesEx` answer, and parses it `--pages` times in 1, 2 and 3 threads, twice:
unlocked (each thread runs the same iterparse loop the collector does, without the lock) and as the
collector does (under `PARSING`). It prints the process CPU (all threads) and the wall time of each.

    python bench/parse_threads.py
    python bench/parse_threads.py --pages 24 --hosts 100
"""

from __future__ import annotations

import argparse
import base64
import json
import re
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from collect_cpu import recording  # noqa: E402
from vsphere import PASSWORD  # noqa: E402

from hostlint.collect.vsphere import fastretrieve  # noqa: E402
from hostlint.collect.vsphere.connect import connect, parse_server, tls_context  # noqa: E402
from hostlint.collect.vsphere.retrieve import HOST_PROJECTIONS  # noqa: E402


def largest_page(recorded: Path) -> bytes:
    """The largest RetrievePropertiesEx answer in a `vcsim -record` file."""
    largest = b""
    for line in recorded.read_text(encoding="utf-8").splitlines():
        exchange = json.loads(line)
        request = base64.b64decode(exchange.get("request") or "").decode("utf-8", "replace")
        if re.search(r"<(\w+:)?RetrievePropertiesEx[ >]", request):
            body = base64.b64decode(exchange["body"])
            largest = max(largest, body, key=len)
    if not largest:
        raise SystemExit("no RetrievePropertiesEx answer was recorded")
    return largest


def timed(threads: int, pages: int, parse: Callable[[int], object]) -> tuple[float, float]:
    """(process CPU, wall) of `pages` parses spread over `threads` threads."""
    with ThreadPoolExecutor(threads) as pool:
        cpu, wall = time.process_time(), time.perf_counter()
        list(pool.map(parse, range(pages)))
        return time.process_time() - cpu, time.perf_counter() - wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hosts", type=int, default=50)
    parser.add_argument("--pages", type=int, default=12, help="parses per measurement")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="hostlint-parse-threads-") as work_dir:
        with recording(Path(work_dir), args.hosts) as (_, sim, recorded, _):
            endpoint = parse_server(sim.url)
            service_instance = connect(endpoint, sim.user, PASSWORD, tls_context(False, Path(sim.cert)), 60)
            stub = service_instance._stub
        page = largest_page(recorded)
        objects = len(fastretrieve._Reader(stub, HOST_PROJECTIONS).page(page).items)
        print(f"one page: {objects} hosts, {len(page) / 1e6:.2f} MB, parsed {args.pages} times per row")

        def unlocked(_: int) -> object:
            return fastretrieve._Reader(stub, HOST_PROJECTIONS)._page(page)

        def locked(_: int) -> object:
            return fastretrieve._Reader(stub, HOST_PROJECTIONS).page(page)

        print(f"{'threads':>7}  {'unlocked CPU s':>14} {'wall s':>7}  {'PARSING CPU s':>13} {'wall s':>7}")
        for threads in (1, 2, 3):
            free_cpu, free_wall = timed(threads, args.pages, unlocked)
            lock_cpu, lock_wall = timed(threads, args.pages, locked)
            print(f"{threads:>7}  {free_cpu:>14.2f} {free_wall:>7.2f}  {lock_cpu:>13.2f} {lock_wall:>7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
