"""Scale benchmark: how `hostlint check` grows from 1,000 to 10,000 hosts.

For each size it generates one synthetic site (bench/make_site.py), then

- runs `hostlint check SITE --format json -o /dev/null` with every rule,
  `--repeat` times, each in a fresh process, and keeps the median wall time and
  the largest peak RSS of those processes;
- runs bench/phases.py once in a fresh process to split the time into import,
  rule loading, snapshot load, check (join and rules, host by host) and report.

Targets: 10x the hosts costs at most 11x the time (the ratio is scaled when
other sizes are given), and 10,000 hosts stay under 512 MiB peak RSS (issue 27; it was 1 GiB). The script
prints PASS or FAIL for each and exits 0 either way (it measures), or 1 on a FAIL with `--strict` (a
regression guard for a quiet machine: the memory figure does not depend on the load, the time ratio does).

    python bench/run.py                       # 1,000 and 10,000 hosts, 3 runs each
    python bench/run.py --sizes 500,5000 --repeat 5 --keep /tmp/sites
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# bench/ is not a package; running this file puts bench/ on sys.path, and this keeps the import working from anywhere.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_site import Layout, add_layout_arguments, layout_from, make_site, write_site

PHASES_SCRIPT = Path(__file__).resolve().parent / "phases.py"
TIME_SLACK = 1.1
RSS_LIMIT_MIB = 512
RSS_TARGET_HOSTS = 10_000
WORK_PHASES = ("load", "check", "report")


@dataclass
class CliRun:
    seconds: float
    cpu_seconds: float
    peak_rss_mib: float
    exit_code: int


@dataclass
class SizeResult:
    hosts: int
    switches: int
    planted: dict[str, str]
    runs: list[CliRun]
    phases: dict[str, Any]

    @property
    def median_seconds(self) -> float:
        return statistics.median(run.seconds for run in self.runs)

    @property
    def median_cpu_seconds(self) -> float:
        return statistics.median(run.cpu_seconds for run in self.runs)

    @property
    def peak_rss_mib(self) -> float:
        return max(run.peak_rss_mib for run in self.runs)

    def work_seconds(self, clock: str = "seconds") -> float:
        """In-process time from snapshot load to rendered report: the part that should scale with hosts."""
        return sum(self.phases["phases"][name][clock] for name in WORK_PHASES)


def hostlint_command(explicit: str | None) -> str:
    """The console script to time.

    The one beside this interpreter comes first: a version manager's shim (pyenv) found on PATH would add
    its own start-up to every run.
    """
    if explicit:
        return explicit
    beside = Path(sys.executable).with_name("hostlint")
    if beside.is_file():
        return str(beside)
    found = shutil.which("hostlint")
    if found is None:
        sys.exit("bench: no `hostlint` command; install the project (pip install -e .) or pass --hostlint")
    return found


def run_cli(hostlint: str, snapshot: Path, workdir: Path) -> CliRun:
    errors = workdir / "stderr.txt"
    with errors.open("wb") as stderr:
        start = time.perf_counter()
        child = subprocess.Popen(
            [hostlint, "check", str(snapshot), "--format", "json", "-o", os.devnull],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            cwd=workdir,
        )
        # wait4 returns this one child's resource usage; RUSAGE_CHILDREN would be the maximum over all children so far.
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):
        sys.exit(f"bench: hostlint check exited {child.returncode}:\n{errors.read_text(errors='replace')}")
    # Linux reports ru_maxrss in KiB.
    return CliRun(
        seconds=seconds,
        cpu_seconds=usage.ru_utime + usage.ru_stime,
        peak_rss_mib=usage.ru_maxrss / 1024,
        exit_code=child.returncode,
    )


def run_phases(snapshot: Path, workdir: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(PHASES_SCRIPT), str(snapshot)], capture_output=True, text=True, cwd=workdir, check=False
    )
    if done.returncode != 0:
        sys.exit(f"bench: phases.py failed:\n{done.stderr}")
    return json.loads(done.stdout)


def measure_size(hosts: int, repeat: int, seed: int, layout: Layout, hostlint: str, workdir: Path) -> SizeResult:
    snapshot_path = workdir / f"site-{hosts}.json"
    start = time.perf_counter()
    site = make_site(hosts, seed, layout)
    write_site(site, snapshot_path)
    switches, planted = len(site.snapshot.switches), site.planted
    # The generated models are not needed any more; freeing them keeps this process small while children run.
    del site
    megabytes = snapshot_path.stat().st_size / 2**20
    print(
        f"  {hosts:>6} hosts: generated {megabytes:.0f} MB in {time.perf_counter() - start:.1f} s",
        file=sys.stderr,
        flush=True,
    )
    runs = []
    for attempt in range(1, repeat + 1):
        runs.append(run_cli(hostlint, snapshot_path, workdir))
        print(f"          run {attempt}/{repeat}: {runs[-1].seconds:.2f} s", file=sys.stderr, flush=True)
    phases = run_phases(snapshot_path, workdir)
    return SizeResult(hosts=hosts, switches=switches, planted=planted, runs=runs, phases=phases)


def _table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=True)]
    lines = [header, ["-" * width for width in widths], *rows]
    return "\n".join("  ".join(cell.rjust(width) for cell, width in zip(line, widths, strict=True)) for line in lines)


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def report(results: list[SizeResult], repeat: int, layout: Layout, hostlint: str, load_before: float) -> str:
    first = results[0].phases
    lines = [
        f"hostlint check, all {first['rules']} rules, --format json, median of {repeat} runs; "
        f"{layout.vms_per_host} VMs per host, {layout.hosts_per_segment} hosts per L2 segment",
        f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs, "
        f"load average {load_before:.1f} before / {os.getloadavg()[0]:.1f} after; {hostlint}",
        "",
        _table(
            ["hosts", "switches", "findings", "wall s", "s/1k hosts", "CPU s", "peak RSS MiB"],
            [
                [
                    f"{r.hosts:,}",
                    f"{r.switches:,}",
                    f"{r.phases['findings']:,}",
                    f"{r.median_seconds:.2f}",
                    f"{r.median_seconds / r.hosts * 1000:.2f}",
                    f"{r.median_cpu_seconds:.2f}",
                    f"{r.peak_rss_mib:.0f}",
                ]
                for r in results
            ],
        ),
        "",
        "In-process phases (bench/phases.py, one run): seconds; of them in the garbage collector; peak RSS MiB",
        "",
        _table(
            ["hosts", *results[0].phases["phases"], "load..report", "of which GC", "RSS after load", "RSS end"],
            [
                [
                    f"{r.hosts:,}",
                    *(f"{p['seconds']:.2f}" for p in r.phases["phases"].values()),
                    f"{r.work_seconds():.2f}",
                    f"{r.work_seconds('gc_seconds'):.2f}",
                    f"{r.phases['phases']['load']['peak_rss_mib']:.0f}",
                    f"{r.phases['phases']['report']['peak_rss_mib']:.0f}",
                ]
                for r in results
            ],
        ),
        "",
    ]
    for r in results:
        found = set(r.phases["findings_by_host"])
        missed = sorted(set(r.planted) - found)
        lines.append(
            f"{r.hosts:,} hosts: planted problems on {len(r.planted)} hosts, findings on {len(found)} hosts "
            f"{r.phases['findings_by_code']}; planted but not found: {len(missed)}"
            + (f" (first: {', '.join(missed[:3])})" if missed else "")
        )
    lines.append("")
    small, large = results[0], results[-1]
    if large.hosts > small.hosts:
        allowed = TIME_SLACK * large.hosts / small.hosts
        ratio = large.median_seconds / small.median_seconds
        work_ratio = large.work_seconds() / small.work_seconds()
        lines.append(
            f"scaling: time({large.hosts:,}) / time({small.hosts:,}) = {ratio:.2f} (target <= {allowed:.1f}): "
            f"{_verdict(ratio <= allowed)}"
        )
        # Interpreter start-up and imports cost the same at every size and flatter the wall-time ratio;
        # CPU time is less disturbed than wall time by other work on the machine.
        cpu_ratio = large.median_cpu_seconds / small.median_cpu_seconds
        lines.append(f"         CPU time ratio = {cpu_ratio:.2f}; without start-up (load..report) = {work_ratio:.2f}")
    else:
        lines.append("scaling: n/a (give at least two sizes)")
    at_target = next((r for r in results if r.hosts == RSS_TARGET_HOSTS), None)
    if at_target:
        lines.append(
            f"memory: peak RSS at {RSS_TARGET_HOSTS:,} hosts = {at_target.peak_rss_mib:.0f} MiB "
            f"(target <= {RSS_LIMIT_MIB} MiB): {_verdict(at_target.peak_rss_mib <= RSS_LIMIT_MIB)}"
        )
    else:
        lines.append(f"memory: n/a ({RSS_TARGET_HOSTS:,} hosts not among --sizes)")
    return "\n".join(lines)


def _sizes(text: str) -> list[int]:
    try:
        sizes = sorted({int(part.replace("_", "")) for part in text.split(",") if part.strip()})
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"sizes are whole numbers separated by commas: {text!r}") from exc
    if not sizes or sizes[0] < 1:
        raise argparse.ArgumentTypeError("give at least one size of 1 host or more")
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time and measure `hostlint check` on generated sites.")
    parser.add_argument("--sizes", type=_sizes, default=[1000, 10_000], help="host counts (default 1000,10000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per size; the median is reported (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="seed for the planted problems (default 1)")
    add_layout_arguments(parser)
    parser.add_argument("--hostlint", help="the hostlint command to time (default: the one beside this python)")
    parser.add_argument("--keep", type=Path, help="write the generated sites here and keep them")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is not met")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    hostlint = hostlint_command(args.hostlint)
    layout = layout_from(args)
    # Other work on the machine shows up in wall times; the load average says how much there was.
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="hostlint-bench-") as temp:
        workdir = args.keep or Path(temp)
        workdir.mkdir(parents=True, exist_ok=True)
        print(f"bench: sites in {workdir}", file=sys.stderr)
        results = [measure_size(hosts, args.repeat, args.seed, layout, hostlint, workdir) for hosts in args.sizes]
    text = report(results, args.repeat, layout, hostlint, load_before)
    print(text)
    return 1 if args.strict and ": FAIL" in text else 0


if __name__ == "__main__":
    sys.exit(main())
