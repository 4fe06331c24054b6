"""Scan inventory benchmark: ten vCenters collected at once against one.

Target (issue #27): `scan --inventory` with ten vCenters of 1,000 hosts each collects in at most 1.5x the
wall time of one. Each vCenter is its own simulator (sim/vcsim: govmomi's simulator over real SOAP and TLS
on 127.0.0.1) holding bench/vsphere.py's scenario, its host and switch names made distinct so the ten
parts merge into one site. The collection phase is measured (`gather` of the inventory's sources, in a
fresh process per run): the check and the store that follow grow with the host count, not with how the
sources are collected. The settings, each the median of `--repeat` runs taken round by round (one run of
every setting, then the next round), so a change in the machine's speed falls on all of them alike:

- one: an inventory of one vCenter;
- all, serial: the ten with `concurrency: 1` (as before: one source after another);
- all, at once: the ten with the inventory's default concurrency (16) or `--concurrency`, in threads
  (`gather(processes=False)`, as before) and in worker processes (what `scan` does).

The one and the ten run the same code: `gather` of an inventory, in a fresh process (one source is
collected in that process, as `scan` does with a single vCenter).

Two kinds of server answer, each at each of its latencies:

- simulators (`--delays`): ten govmomi simulators, which build every answer on this machine's cores, as
  much CPU as the collector itself at 1,000 hosts: on two cores the ten can take no less than the CPU floor;
- replays (`--replay-delays`): each simulator's SOAP exchange is recorded once (`vcsim -record`, while the
  ten are collected once), then served by ten `vcsim -replay` processes: the same requests get the same
  bytes (a request without a recorded answer stops the bench), at a fraction of a simulator's CPU (the
  server CPU column; a remote vCenter costs the scan host none). **The target is judged on the replays at
  50 ms a call.**

    python bench/scan_sources.py                                  # ten vCenters of 1,000 hosts (heavy)
    python bench/scan_sources.py --hosts 200 --skip-serial        # smaller
    python bench/scan_sources.py --delays "" --replay-delays 50   # the judged measurement alone

It prints a table and PASS/FAIL for the target, judged on the replays at 50 ms a call (REALISTIC_DELAY_MS:
what a real vCenter takes to answer), and exits 0 either way: it measures, it does not gate. At 0 ms each
source is pure CPU; the script prints the CPU floor, the least any overlap could give (all the CPU work of
collector and servers over all cores).

Around the replay rows it also prints a machine reference: the CPU one fixed piece of the collector's work
takes (the largest recorded host page parsed as the collector parses it), before and after the rows. One
vCenter at 50 ms a call is latency-bound and takes about the same wall time on a fast or a slow machine;
ten at once are CPU-bound on two cores and do not, so runs are compared by the reference.
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
from concurrent.futures import ThreadPoolExecutor
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
# The latency a real vCenter adds to every call. netdata's vSphere collector logs what each of its
# property-collector retrievals took against a vCenter: "found 3 dcs, process took 49.329656ms",
# "found 12 folders, process took 49.538688ms" (learn.netdata.cloud, VMware vCenter Server collector,
# "Performance Impact"). 50 ms per SOAP call is that figure; govmomi's simulator answers at once.
REALISTIC_DELAY_MS = 50
# Runs in a fresh process: import, load the inventory, collect every source, report the wall, the CPU
# (this process and its worker processes) and the hosts. argv[2] "threads" keeps every source in threads.
GATHER = """
import json, resource, sys, time
from pathlib import Path
from hostlint.history.inventory import load_scan_inventory, scan_inventory_settings
path = Path(sys.argv[1])
sources = load_scan_inventory(path)
concurrency = scan_inventory_settings(path).concurrency
from hostlint.history.sources import gather
def cpu():
    usages = map(resource.getrusage, (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return sum(u.ru_utime + u.ru_stime for u in usages)
cpu_before, started = cpu(), time.perf_counter()
snapshot = gather(sources, concurrency=concurrency, processes=sys.argv[2] != "threads")
wall, used = time.perf_counter() - started, cpu() - cpu_before
errors = len(snapshot.collection_errors)
print(json.dumps({"wall": wall, "cpu": used, "hosts": len(snapshot.esxi_hosts), "errors": errors}))
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


def _server_cpu(servers: list) -> float:
    """CPU seconds the servers (simulators or replays) have used so far (/proc/PID/stat utime + stime)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for server in servers:
        try:
            fields = Path(f"/proc/{server.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def run_once(path: Path, servers: list, mode: str = "processes") -> dict:
    """One collection of the inventory at `path` in a fresh process, with the servers' CPU it cost."""
    env = {**os.environ, "HOSTLINT_VSPHERE_PASSWORD": PASSWORD}
    server_before = _server_cpu(servers)
    done = subprocess.run(
        [sys.executable, "-c", GATHER, str(path), mode], capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"collection failed:\n{done.stderr[-2000:]}")
    run = json.loads(done.stdout.strip().splitlines()[-1])
    run["sim_cpu"] = _server_cpu(servers) - server_before
    return run


def summary(runs: list[dict]) -> dict:
    return {
        "wall": statistics.median(r["wall"] for r in runs),
        "cpu": statistics.median(r["cpu"] for r in runs),
        "sim_cpu": statistics.median(r["sim_cpu"] for r in runs),
        "hosts": runs[0]["hosts"],
        "errors": runs[0]["errors"],
    }


def measure(path: Path, repeat: int, servers: list, mode: str = "processes") -> dict:
    return summary([run_once(path, servers, mode) for _ in range(repeat)])


# A fixed piece of the collector's own CPU work, timed in a fresh process: the largest recorded host page
# parsed as the collector parses it (fastretrieve, the host projections), median of argv[2] parses (the
# first, which fills the type tables, left out). The same work every run, so it says how fast this
# machine was at the time: one vCenter's wall time is latency and hardly moves with it, ten at once are
# CPU-bound and move with it.
REFERENCE = """
import statistics, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[3])
from pyVmomi import SoapStubAdapter, VmomiSupport
from hostlint.collect.vsphere import fastretrieve
from hostlint.collect.vsphere.retrieve import HOST_PROJECTIONS
from parse_threads import largest_page
page = largest_page(Path(sys.argv[1]))
stub = SoapStubAdapter(host="localhost", version=VmomiSupport.newestVersions.GetName("vim"))
used = []
for _ in range(int(sys.argv[2]) + 1):
    started = time.process_time()
    hosts = len(fastretrieve._Reader(stub, HOST_PROJECTIONS).page(page).items)
    used.append(time.process_time() - started)
print(statistics.median(used[1:]) * 1000, hosts, len(page))
"""


def reference(recorded: Path, parses: int = 10) -> dict:
    """The machine reference (REFERENCE) on one recording: CPU ms per page, the page's hosts and bytes."""
    done = subprocess.run(
        [sys.executable, "-c", REFERENCE, str(recorded), str(parses), str(ROOT / "bench")],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the machine reference failed:\n{done.stderr[-2000:]}")
    cpu_ms, hosts, size = done.stdout.split()
    return {"page_cpu_ms": round(float(cpu_ms), 1), "page_hosts": int(hosts), "page_bytes": int(size)}


def scenarios(args: argparse.Namespace, work: Path) -> list[Path]:
    """bench/vsphere.py's scenario once per vCenter, its names made distinct."""
    paths = []
    for n in range(args.vcenters):
        source = work / f"vc{n:02d}.json"
        if not source.exists():
            source.write_text(json.dumps(distinct(scenario(args.hosts), n)), encoding="utf-8")
        paths.append(source)
    return paths


def recording(n: int, work: Path) -> Path:
    return work / f"vc{n:02d}.exchanges.jsonl"


def record(args: argparse.Namespace, binary: Path, work: Path) -> dict:
    """Each simulated vCenter's SOAP exchange, recorded (vcsim -record) while the ten are collected once."""
    with ExitStack() as stack:
        sims = enter_all(
            stack,
            [
                launcher.Simulator(
                    binary,
                    source,
                    password=PASSWORD,
                    extra_args=("-record", str(recording(n, work))),
                    start_timeout=args.start_timeout,
                )
                for n, source in enumerate(scenarios(args, work))
            ],
        )
        row = measure(inventory(work / "record.yaml", sims, args.concurrency), 1, sims)
    print(f"  recorded: {row['hosts']} hosts, {row['errors']} collection errors", file=sys.stderr, flush=True)
    return row


def start(stack: ExitStack, args: argparse.Namespace, binary: Path, work: Path, kind: str, delay_ms: int) -> list:
    """Ten servers answering every SOAP call `delay_ms` late: simulators, or replays of their recordings."""
    extra = ("-delay-ms", str(delay_ms)) if delay_ms else ()
    if kind == "replay":
        servers = [
            launcher.Simulator(
                binary, None, password=PASSWORD, replay=recording(n, work), extra_args=extra,
                start_timeout=args.start_timeout,
            )
            for n in range(args.vcenters)
        ]  # fmt: skip
    else:
        servers = [
            launcher.Simulator(binary, source, password=PASSWORD, extra_args=extra, start_timeout=args.start_timeout)
            for source in scenarios(args, work)
        ]
    return enter_all(stack, servers)


def enter_all(stack: ExitStack, servers: list) -> list:
    """Start the servers at once (a simulator of 1,000 hosts takes a core for half a minute to build), each
    stopped when `stack` closes."""
    for server in servers:
        stack.callback(server.stop)
    with ThreadPoolExecutor(max_workers=len(servers) or 1) as pool:
        return list(pool.map(lambda server: server.__enter__(), servers))


def measure_delay(args: argparse.Namespace, binary: Path, work: Path, delay_ms: int, kind: str) -> dict:
    """One vCenter, the ten serial, the ten in threads, the ten in processes, against ten `kind` servers."""
    with ExitStack() as stack:
        started = time.monotonic()
        servers = start(stack, args, binary, work, kind, delay_ms)
        startup = time.monotonic() - started
        print(f"  {kind}, delay {delay_ms} ms: {args.vcenters} up in {startup:.0f} s", file=sys.stderr, flush=True)
        everyone = inventory(work / "all.yaml", servers, args.concurrency)
        settings = {"one vCenter": (inventory(work / "one.yaml", servers[:1], 1), servers[:1], "processes")}
        if not args.skip_serial:
            settings["all, serial"] = (inventory(work / "serial.yaml", servers, 1), servers, "processes")
        settings[f"all, {args.concurrency} at once, threads"] = (everyone, servers, "threads")
        settings[f"all, {args.concurrency} at once, processes"] = (everyone, servers, "processes")
        before = reference(recording(0, work)) if kind == "replay" else None
        # Round by round: a change in the machine's speed during the bench falls on every setting alike.
        runs: dict[str, list[dict]] = {name: [] for name in settings}
        for _ in range(args.repeat):
            for name, (path, group, mode) in settings.items():
                runs[name].append(run_once(path, group, mode))
        rows = {name: summary(found) for name, found in runs.items()}
        after = reference(recording(0, work)) if kind == "replay" else None
        for name, row in rows.items():
            print(f"  {kind}, delay {delay_ms} ms: {name}: {row['wall']:.2f} s", file=sys.stderr, flush=True)
        if kind == "replay":
            # Every request had its recorded answer: the replays served the simulators' exchange, nothing else.
            unmatched = sum(server.stats()["unmatched"] for server in servers)
            if unmatched:
                raise SystemExit(f"the replays had no recorded answer for {unmatched} requests")
    one, best = rows["one vCenter"], rows[f"all, {args.concurrency} at once, processes"]
    # However well the sources overlap, the CPU work of ten (collector and servers, all on this
    # machine's cores) cannot take less wall time than that work spread over every core.
    floor = (best["cpu"] + best["sim_cpu"]) / (os.cpu_count() or 1) / one["wall"]
    # With the vCenters elsewhere (their CPU not on the scan host), the floor is the collector's own CPU:
    # over every core in processes, over one in threads (one interpreter lock).
    remote = max(1.0, best["cpu"] / (os.cpu_count() or 1) / one["wall"])
    remote_threads = max(1.0, rows[f"all, {args.concurrency} at once, threads"]["cpu"] / one["wall"])
    return {
        "servers": kind,
        "delay_ms": delay_ms,
        "servers_started_s": round(startup, 1),
        "rows": rows,
        "ratio": round(best["wall"] / one["wall"], 2),
        "cpu_floor_ratio": round(floor, 2),
        "remote_floor_processes": round(remote, 2),
        "remote_floor_threads": round(remote_threads, 2),
        "pass": best["wall"] / one["wall"] <= TARGET_RATIO,
        "reference": {"before": before, "after": after} if before and after else None,
    }


def _delays(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hosts", type=int, default=1000, help="hosts per vCenter")
    parser.add_argument("--vcenters", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=16, help="the inventory's concurrency for 'at once'")
    parser.add_argument(
        "--delays",
        type=_delays,
        default=[0, REALISTIC_DELAY_MS],
        help=f"latencies of the simulators, ms (default 0,{REALISTIC_DELAY_MS}; none: an empty string)",
    )
    parser.add_argument(
        "--replay-delays",
        type=_delays,
        default=[0, REALISTIC_DELAY_MS],
        help=f"latencies of the replays, ms (default 0,{REALISTIC_DELAY_MS}; the target is judged on the replays "
        f"at {REALISTIC_DELAY_MS}; none: an empty string)",
    )
    parser.add_argument("--skip-serial", action="store_true", help="leave out the ten one after another")
    parser.add_argument(
        "--start-timeout", type=float, default=900.0, help="s for a server to start (ten simulators build at once)"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="hostlint-scan-bench-") as work_dir:
        work = Path(work_dir)
        binary = launcher.build(work / "bin")
        measured = [measure_delay(args, binary, work, delay, "simulator") for delay in args.delays]
        recorded = record(args, binary, work) if args.replay_delays else None
        measured += [measure_delay(args, binary, work, delay, "replay") for delay in args.replay_delays]
    for delay in measured:
        if recorded is not None and delay["servers"] == "replay":
            for name, row in delay["rows"].items():
                if name != "one vCenter" and (row["hosts"], row["errors"]) != (recorded["hosts"], recorded["errors"]):
                    raise SystemExit(
                        f"replay, {name}: {row['hosts']} hosts, {row['errors']} errors; recorded {recorded}"
                    )
    results = {
        "hosts_per_vcenter": args.hosts,
        "vcenters": args.vcenters,
        "concurrency": args.concurrency,
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg(),
        "target": TARGET_RATIO,
        "judged": {"servers": "replay", "delay_ms": REALISTIC_DELAY_MS},
        "recorded": recorded,
        "delays": measured,
    }
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    print(
        f"{args.vcenters} vCenters x {args.hosts} hosts, {os.cpu_count()} CPUs, median of {args.repeat}, load average "
        f"at the end {' '.join(f'{load:.1f}' for load in results['load_average'])}"
    )
    print(
        f"{'servers':<10}{'delay':>6}  {'setting':<34}{'hosts':>7}{'wall s':>9}{'x one':>7}{'CPU s':>8}"
        f"{'server CPU s':>13}"
    )
    for delay in measured:
        one = delay["rows"]["one vCenter"]
        for name, row in delay["rows"].items():
            print(
                f"{delay['servers']:<10}{delay['delay_ms']:>4}ms  {name:<34}{row['hosts']:>7}{row['wall']:>9.2f}"
                f"{row['wall'] / one['wall']:>7.2f}{row['cpu']:>8.1f}{row['sim_cpu']:>13.1f}"
            )
    print()
    for delay in measured:
        judged = delay["servers"] == "replay" and delay["delay_ms"] == REALISTIC_DELAY_MS
        verdict = ("PASS" if delay["pass"] else "FAIL") if judged else "not judged"
        print(
            f"{delay['servers']}, delay {delay['delay_ms']} ms: {args.vcenters} vCenters at once take "
            f"{delay['ratio']:.2f}x one (target <= {TARGET_RATIO}x): {verdict}; CPU floor on {os.cpu_count()} CPUs = "
            f"{delay['cpu_floor_ratio']:.2f}x; with the servers' CPU elsewhere: processes "
            f"{delay['remote_floor_processes']:.2f}x, threads {delay['remote_floor_threads']:.2f}x"
        )
    for delay in measured:
        if delay["reference"]:
            before, after = delay["reference"]["before"], delay["reference"]["after"]
            print(
                f"machine reference ({delay['servers']}, {delay['delay_ms']} ms): the largest recorded host page "
                f"({before['page_hosts']} hosts, {before['page_bytes'] / 1e6:.2f} MB) parsed as the collector parses "
                f"it in {before['page_cpu_ms']:.0f} ms of CPU before the rows, {after['page_cpu_ms']:.0f} ms after"
            )
    print(
        f"The target is judged on the replays at {REALISTIC_DELAY_MS} ms per call: a real vCenter's answer time "
        "(REALISTIC_DELAY_MS), from servers that only look up and send the recorded answers (the server CPU column: "
        "a fraction of the simulators', which build every answer on this machine's cores). Either way ten sources "
        "can take no less than the CPU floor (collector + server CPU / CPUs / one's wall); with real vCenters the "
        "floor is the collector's CPU alone ('with the servers' CPU elsewhere'). The machine reference is the same "
        "work every run: one vCenter's wall time is latency and hardly moves with this machine's speed, ten at once "
        "are CPU-bound and do, so compare runs by it."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
