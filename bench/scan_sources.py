"""Scan inventory benchmark: ten vCenters collected at once against one.

Target (issue #27): `scan --inventory` with ten vCenters of 1,000 hosts each collects in at most 1.5x the
wall time of one. Each vCenter is its own simulator (sim/vcsim: govmomi's simulator over real SOAP and TLS
on 127.0.0.1) holding bench/vsphere.py's scenario, its host and switch names made distinct so the ten
parts merge into one site. The collection phase is measured (`gather` of the inventory's sources, in a
fresh process per run): the check and the store that follow grow with the host count, not with how the
sources are collected. Three settings, each the median of `--repeat` runs:

- one: an inventory of one vCenter;
- all, serial: the ten with `concurrency: 1` (as before: one source after another);
- all, concurrent: the ten with the inventory's default concurrency (16) or `--concurrency`.

    python bench/scan_sources.py                              # ten vCenters of 1,000 hosts (heavy: ten simulators)
    python bench/scan_sources.py --hosts 200 --delay-ms 5     # smaller, each SOAP call 5 ms late (a WAN)

It prints a table and PASS/FAIL for the target and exits 0 either way: it measures, it does not gate. On a
machine with fewer cores than simulators, the simulators compete with the collector for CPU; `--delay-ms`
shows the case the concurrency is for, a vCenter whose answers take time rather than CPU here.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from vsphere import PASSWORD, scenario  # noqa: E402  (bench/vsphere.py: the 1,000-host scenario)

_spec = importlib.util.spec_from_file_location("vcsim_launcher", ROOT / "sim" / "vcsim" / "launcher.py")
assert _spec is not None and _spec.loader is not None
launcher = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(launcher)

TARGET_RATIO = 1.5
# Runs in a fresh process: import, load the inventory, collect every source, report the wall and the hosts.
GATHER = """
import json, sys, time
from pathlib import Path
from hostlint.history.inventory import load_scan_inventory, scan_inventory_settings
path = Path(sys.argv[1])
sources = load_scan_inventory(path)
concurrency = scan_inventory_settings(path).concurrency
from hostlint.history.sources import gather
started = time.perf_counter()
snapshot = gather(sources, concurrency=concurrency)
wall = time.perf_counter() - started
print(json.dumps({"wall": wall, "hosts": len(snapshot.esxi_hosts), "errors": len(snapshot.collection_errors)}))
"""


def distinct(document: dict, vcenter: int) -> dict:
    """bench/vsphere.py's scenario with every host and distributed switch named for vCenter `vcenter`."""
    prefix = f"vc{vcenter:02d}-"
    for host in document["esxi_hosts"]:
        host["name"] = prefix + host["name"]
    for dvs in document.get("distributed_switches", []):
        dvs["name"] = prefix + dvs["name"]
        for member in dvs.get("hosts", []):
            member["host"] = prefix + member["host"]
    return document


def inventory(path: Path, sims: list, concurrency: int) -> Path:
    entries = [{"server": sim.url, "user": sim.user, "ca_bundle": str(sim.cert)} for sim in sims]
    path.write_text(yaml.safe_dump({"vsphere": entries, "concurrency": concurrency}), encoding="utf-8")
    return path


def measure(path: Path, repeat: int) -> dict:
    runs = []
    env = {**os.environ, "HOSTLINT_VSPHERE_PASSWORD": PASSWORD}
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, "-c", GATHER, str(path)], capture_output=True, text=True, env=env, check=False
        )
        if done.returncode != 0:
            raise SystemExit(f"collection failed:\n{done.stderr[-2000:]}")
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return {
        "wall": statistics.median(r["wall"] for r in runs),
        "hosts": runs[0]["hosts"],
        "errors": runs[0]["errors"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hosts", type=int, default=1000, help="hosts per vCenter")
    parser.add_argument("--vcenters", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=16, help="the inventory's concurrency for 'concurrent'")
    parser.add_argument("--delay-ms", type=int, default=0, help="latency added to every SOAP call")
    parser.add_argument("--start-timeout", type=float, default=300.0)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="hostlint-scan-bench-") as work_dir, ExitStack() as stack:
        work = Path(work_dir)
        binary = launcher.build(work / "bin")
        extra = ("-delay-ms", str(args.delay_ms)) if args.delay_ms else ()
        sims = []
        started = time.monotonic()
        for n in range(args.vcenters):
            source = work / f"vc{n:02d}.json"
            source.write_text(json.dumps(distinct(scenario(args.hosts), n)), encoding="utf-8")
            sims.append(
                stack.enter_context(
                    launcher.Simulator(
                        binary, source, password=PASSWORD, extra_args=extra, start_timeout=args.start_timeout
                    )
                )
            )
        startup = time.monotonic() - started
        one = measure(inventory(work / "one.yaml", sims[:1], 1), args.repeat)
        serial = measure(inventory(work / "serial.yaml", sims, 1), args.repeat)
        concurrent = measure(inventory(work / "concurrent.yaml", sims, args.concurrency), args.repeat)

    ratio = concurrent["wall"] / one["wall"]
    results = {
        "hosts_per_vcenter": args.hosts,
        "vcenters": args.vcenters,
        "delay_ms": args.delay_ms,
        "concurrency": args.concurrency,
        "cpus": os.cpu_count(),
        "simulators_started_s": round(startup, 1),
        "one": one,
        "serial": serial,
        "concurrent": concurrent,
        "ratio_concurrent_to_one": round(ratio, 2),
        "ratio_serial_to_one": round(serial["wall"] / one["wall"], 2),
        "target": TARGET_RATIO,
        "pass": ratio <= TARGET_RATIO,
    }
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    print(f"{args.vcenters} vCenters x {args.hosts} hosts, delay {args.delay_ms} ms, {os.cpu_count()} CPUs")
    print(f"{'setting':<22}{'hosts':>8}{'wall s':>10}{'x one':>8}")
    rows = (("one vCenter", one), ("all, serial", serial), (f"all, concurrency {args.concurrency}", concurrent))
    for name, row in rows:
        print(f"{name:<22}{row['hosts']:>8}{row['wall']:>10.2f}{row['wall'] / one['wall']:>8.2f}")
    verdict = "PASS" if results["pass"] else "FAIL"
    print(f"{verdict}: {args.vcenters} vCenters at once take {ratio:.2f}x one (target <= {TARGET_RATIO}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
