"""Switch collection at scale: 100 emulated switches at concurrency 20, against one switch alone.

Starts the test suite's SSH switch emulator (asyncssh on 127.0.0.1) in a child
process, so the server does not share this interpreter's GIL with the
collector's netmiko threads, then times `collect_switches` end to end (connect,
session preparation, every command of the platform's spec, parsing, assembly):

    python bench/switches.py                  # 100 switches, concurrency 20
    python bench/switches.py --switches 40 --concurrency 10 --rounds 3

Prints both times, the ratio (target: at most 7x one switch) and a JSON line.
The switches cycle through the four platforms; the single switch is timed as
the mean over one switch of each platform, so the ratio compares like with like.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hostlint.collect.hostkeys import HostKeyPolicy  # noqa: E402
from hostlint.collect.switches import Device, collect_switches  # noqa: E402
from hostlint.collect.switches.inventory import PASSWORD_ENV  # noqa: E402
from hostlint.platforms import SWITCH_NAMES  # noqa: E402

PLATFORMS = SWITCH_NAMES
TARGET_RATIO = 7.0


def _start_emulator(count: int) -> tuple[subprocess.Popen, list[int], str]:
    child = subprocess.Popen(
        [sys.executable, "-m", "switch_emulator", "--count", str(count), "--platforms", ",".join(PLATFORMS)],
        cwd=ROOT / "tests",
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    started = json.loads(child.stdout.readline())
    return child, started["ports"], started["known_hosts"]


def _devices(ports: list[int]) -> list[Device]:
    return [
        Device(
            name=f"sw{index:03d}",
            hostname="127.0.0.1",
            port=port,
            platform=PLATFORMS[index % len(PLATFORMS)],
            username="netadmin",
        )
        for index, port in enumerate(ports)
    ]


def _timed(devices: list[Device], concurrency: int, policy: HostKeyPolicy) -> float:
    start = time.perf_counter()
    snapshot = collect_switches(devices, concurrency=concurrency, policy=policy)
    elapsed = time.perf_counter() - start
    if snapshot.collection_errors:
        raise SystemExit(f"collection failed: {snapshot.collection_errors[:3]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--switches", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=1, help="repeat the many-switch run and keep the median")
    args = parser.parse_args()
    os.environ[PASSWORD_ENV] = "lab-secret"
    child, ports, known_hosts = _start_emulator(args.switches)
    try:
        with tempfile.TemporaryDirectory() as folder:
            trusted = Path(folder) / "known_hosts"
            trusted.write_text(known_hosts, encoding="utf-8")
            policy = HostKeyPolicy(trusted)
            devices = _devices(ports)
            _timed(devices[:1], 1, policy)  # warm up: imports, template cache, host key exchange code paths
            single = statistics.mean(_timed([device], 1, policy) for device in devices[: len(PLATFORMS)])
            many = statistics.median(_timed(devices, args.concurrency, policy) for _ in range(args.rounds))
    finally:
        child.stdin.close()
        child.wait(timeout=30)
    ratio = many / single
    verdict = "ok" if ratio <= TARGET_RATIO else "over target"
    print(f"one switch alone:            {single:6.2f} s (mean of one per platform)")
    print(f"{args.switches} switches, concurrency {args.concurrency}: {many:6.2f} s")
    print(f"ratio:                       {ratio:6.2f}x (target <= {TARGET_RATIO:g}x: {verdict})")
    print(
        json.dumps(
            {
                "switches": args.switches,
                "concurrency": args.concurrency,
                "single_s": round(single, 3),
                "many_s": round(many, 3),
                "ratio": round(ratio, 2),
                "cpus": os.cpu_count(),
            }
        )
    )


if __name__ == "__main__":
    main()
