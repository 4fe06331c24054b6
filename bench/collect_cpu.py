"""The collector's CPU for one vCenter: recorded once from the simulator, replayed and collected N times.

The iteration measurement behind bench/scan_sources.py's judged one (issue #27): what decides whether ten
vCenters collect at once within 1.5x the wall time of one is the collector's CPU per vCenter. This script
builds sim/vcsim, starts one simulator with bench/vsphere.py's scenario (`--hosts`), records its SOAP
exchange while hostlint collects it once (`vcsim -record`), then serves the recording (`vcsim -replay`,
`--delay-ms` before each answer) and collects it `--repeat` times, each in a fresh process as `scan
--inventory` collects one vCenter (`gather` of a one-vCenter inventory). Per collection it prints the
collecting process's CPU (user and system, `resource.getrusage` of the process and its reaped children),
the wall time, the SOAP calls the replay served (by method) and its response bytes.

    python bench/collect_cpu.py                          # 1,000 hosts, 3 collections at 0 ms
    python bench/collect_cpu.py --delay-ms 50 --repeat 3
    python bench/collect_cpu.py --hosts 200 --profile /tmp/collect.prof   # cProfile of one more collection

CPU seconds, not wall, are what to compare on a shared machine; the median is printed last.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from scan_sources import GATHER, inventory, launcher  # noqa: E402
from vsphere import PASSWORD, scenario  # noqa: E402

# GATHER with the collection under cProfile, the profile written to argv[3].
PROFILED = GATHER.replace(
    "snapshot = gather(", "import cProfile\nprofiler = cProfile.Profile()\nprofiler.enable()\nsnapshot = gather("
).replace("wall, used =", "profiler.disable()\nprofiler.dump_stats(sys.argv[3])\nwall, used =")


def collect_once(path: Path, server: launcher.Simulator, profile: Path | None = None) -> dict:
    """One collection of the inventory at `path` in a fresh process; the server's calls and bytes for it."""
    server.stats(reset=True)
    env = {**os.environ, "HOSTLINT_VSPHERE_PASSWORD": PASSWORD}
    command = [sys.executable, "-c", PROFILED if profile else GATHER, str(path), "processes"]
    done = subprocess.run([*command, *([str(profile)] if profile else [])], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"collection failed:\n{done.stderr[-2000:]}")
    run = json.loads(done.stdout.strip().splitlines()[-1])
    stats = server.stats()
    run.update(calls=stats["calls"], bytes=stats["response_bytes"], methods=stats["methods"])
    run["unmatched"] = stats.get("unmatched", 0)
    return run


@contextlib.contextmanager
def recording(work: Path, hosts: int) -> Iterator[tuple[Path, launcher.Simulator, Path, dict]]:
    """The simulator (built into `work`) with bench/vsphere.py's scenario of `hosts` hosts, recording its
    SOAP exchange while hostlint collects it once: (binary, simulator, recording, that collection)."""
    binary = launcher.build(work / "bin")
    source = work / "scenario.json"
    source.write_text(json.dumps(scenario(hosts)), encoding="utf-8")
    recorded = work / "exchanges.jsonl"
    extra = ("-record", str(recorded))
    with launcher.Simulator(binary, source, password=PASSWORD, extra_args=extra, start_timeout=900) as sim:
        yield binary, sim, recorded, collect_once(inventory(work / "record.yaml", [sim], 1), sim)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hosts", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--delay-ms", type=int, default=0, help="the replay's latency per SOAP call")
    parser.add_argument("--profile", type=Path, help="also collect once under cProfile, written here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="hostlint-collect-cpu-") as work_dir:
        work = Path(work_dir)
        with recording(work, args.hosts) as (binary, _, recorded, first):
            pass
        print(f"recorded: {first['hosts']} hosts, {first['errors']} errors, {first['calls']} calls", flush=True)
        extra = ("-delay-ms", str(args.delay_ms)) if args.delay_ms else ()
        runs = []
        with launcher.Simulator(binary, None, password=PASSWORD, replay=recorded, extra_args=extra) as replay:
            path = inventory(work / "replay.yaml", [replay], 1)
            for n in range(args.repeat):
                run = collect_once(path, replay)
                if run["unmatched"] or (run["hosts"], run["errors"]) != (first["hosts"], first["errors"]):
                    raise SystemExit(f"the replay does not give the recorded collection: {run}")
                runs.append(run)
                print(
                    f"collection {n + 1}: CPU {run['cpu']:.2f} s, wall {run['wall']:.2f} s, {run['calls']} calls, "
                    f"{run['bytes'] / 1e6:.1f} MB, load average {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
            if args.profile:
                collect_once(path, replay, args.profile)
                print(f"profile: {args.profile}")
        print("calls by method:", json.dumps(runs[0]["methods"], sort_keys=True))
        each = ", ".join(f"{r['cpu']:.2f}" for r in runs)
        print(
            f"{args.hosts} hosts at {args.delay_ms} ms a call: CPU per collection median "
            f"{statistics.median(r['cpu'] for r in runs):.2f} s (all: {each}), "
            f"wall median {statistics.median(r['wall'] for r in runs):.2f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
