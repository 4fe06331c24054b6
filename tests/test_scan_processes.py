"""`scan --inventory` collects each vCenter in a process of its own (issue 27, Deliver 6).

Two simulated vCenters (sim/vcsim over real SOAP and TLS) holding bench/vsphere.py's scenario under
distinct names: collected in worker processes they give the snapshot threads give, the progress of
each reaches the parent's callbacks, and the password reaches the workers only through the
environment they inherit (a missing one is each source's collection error, not the scan's).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from hostlint.collect.progress import Progress
from hostlint.history import sources as sources_module
from hostlint.history.inventory import VsphereEntry, VsphereSource, load_scan_inventory
from hostlint.history.sources import FileSource, Source, detached, gather
from hostlint.snapshot import Snapshot

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


launcher = _load("vcsim_launcher", ROOT / "sim" / "vcsim" / "launcher.py")


def test_only_a_vcenter_without_esxi_ssh_leaves_the_process() -> None:
    plain = VsphereSource(VsphereEntry(server="vc01.example.com"))
    with_ssh = VsphereSource(VsphereEntry(server="vc02.example.com", esxi_ssh_user="root"))
    assert detached(plain) == plain and detached(plain) is not plain
    assert detached(with_ssh) is None
    assert detached(FileSource((ROOT / "fixtures" / "labs" / "clean",))) is None


def test_a_vcenter_without_esxi_ssh_does_not_load_the_ssh_client() -> None:
    """asyncssh's import is about 0.3 s of CPU per collecting process; only ESXi SSH needs it."""
    code = (
        "import sys\n"
        "from hostlint.history.inventory import VsphereEntry, VsphereSource\n"
        "snapshot = VsphereSource(VsphereEntry(server='127.0.0.1:1', timeout=5)).snapshot()\n"
        "print(len(snapshot.collection_errors), 'asyncssh' in sys.modules)\n"
    )
    env = {**os.environ, "HOSTLINT_VSPHERE_PASSWORD": "unused"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    # the refused connection is the source's collection error; the collector ran, the SSH client stayed out
    assert done.stdout.split() == ["1", "False"]


@dataclass(frozen=True)
class _Timed:
    """A source that takes `seconds` and writes down where and when it ran."""

    name: str
    log: Path
    apart: bool = True
    seconds: float = 0.3

    def detached(self) -> _Timed | None:
        return self if self.apart else None

    def snapshot(self, progress: Progress | None = None) -> Snapshot:
        started = time.monotonic()
        time.sleep(self.seconds)
        with (self.log / self.name).open("w") as record:
            record.write(f"{os.getpid()} {started} {time.monotonic()}")
        if progress is not None:
            progress.on_host(self.name)
        return Snapshot(source=self.name)


def test_sources_spread_over_workers_within_the_bound(tmp_path: Path) -> None:
    sources: list[Source] = [_Timed(f"s{n}", tmp_path) for n in range(5)] + [_Timed("here", tmp_path, apart=False)]
    done: list[str] = []
    gather(sources, lambda source: Progress(on_host=done.append), concurrency=3)
    runs = {p.name: p.read_text().split() for p in tmp_path.iterdir()}
    pids = {name: int(run[0]) for name, run in runs.items()}
    assert pids["here"] == os.getpid()
    workers = {pid for name, pid in pids.items() if name != "here"}
    assert os.getpid() not in workers and 1 <= len(workers) <= (os.cpu_count() or 1)
    # at no moment more than 3 sources (the bound) ran, in workers and here together
    edges = sorted((float(t), step) for run in runs.values() for t, step in ((run[1], 1), (run[2], -1)))
    running = [sum(step for _, step in edges[: i + 1]) for i in range(len(edges))]
    assert 2 <= max(running) <= 3
    assert sorted(done) == sorted(source.name for source in sources)


def test_a_workers_snapshot_is_read_here_while_its_other_sources_are_still_collected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # apart[0::workers]: the first worker collects "quick" and "slow-1" together, in two threads
    sources: list[Source] = [
        _Timed("quick", tmp_path, seconds=0.1),
        *(_Timed(f"slow-{n}", tmp_path, seconds=3.0) for n in range(3)),
    ]
    read_at: dict[str, float] = {}
    from_child = sources_module._from_child

    def timed_read(text: str) -> Snapshot:
        snapshot = from_child(text)
        read_at[snapshot.source or ""] = time.monotonic()
        return snapshot

    monkeypatch.setattr(sources_module, "_from_child", timed_read)
    gather(sources, concurrency=4)
    ended = {p.name: float(p.read_text().split()[2]) for p in tmp_path.iterdir()}
    assert sorted(read_at) == sorted(source.name for source in sources)
    # read here two seconds and more before its worker's other source was done
    assert read_at["quick"] < min(ended[f"slow-{n}"] for n in range(3)) - 2


def _comparable(snapshot: Any) -> Any:
    dumped = snapshot.model_dump(mode="json")
    dumped.pop("collected_at")
    return dumped


@pytest.mark.slow
@pytest.mark.skipif(not launcher.go_available() and not os.environ.get("CI"), reason="Go builds the simulator")
def test_vcenters_in_processes_give_what_threads_give(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _load("bench_vsphere", ROOT / "bench" / "vsphere.py")
    scan_bench = _load("bench_scan_sources", ROOT / "bench" / "scan_sources.py")
    binary = launcher.build(tmp_path / "bin")
    sims = []
    with launcher.Simulator(binary, _scenario(tmp_path, scan_bench, bench, 0), password=bench.PASSWORD) as one:
        sims.append(one)
        with launcher.Simulator(binary, _scenario(tmp_path, scan_bench, bench, 1), password=bench.PASSWORD) as two:
            sims.append(two)
            inventory = tmp_path / "scan.yaml"
            entries = [{"server": sim.url, "user": sim.user, "ca_bundle": str(sim.cert)} for sim in sims]
            inventory.write_text(yaml.safe_dump({"vsphere": entries}), encoding="utf-8")
            sources = load_scan_inventory(inventory)
            monkeypatch.setenv("HOSTLINT_VSPHERE_PASSWORD", bench.PASSWORD)
            seen: dict[str, list[Any]] = {}

            def watch(source: Source) -> Progress:
                events = seen.setdefault(source.name, [])
                return Progress(on_total=lambda n: events.append(n), on_host=lambda name: events.append(name))

            in_processes = gather(sources, watch, concurrency=4)
            in_threads = gather(sources, concurrency=4, processes=False)
            monkeypatch.setenv("HOSTLINT_VSPHERE_PASSWORD", "")
            monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
            without_password = gather(sources, concurrency=4)
    assert len(in_processes.esxi_hosts) == 6 and not in_processes.collection_errors
    assert _comparable(in_processes) == _comparable(in_threads)
    for index, source in enumerate(sources):
        hosts = sorted(h.name for h in in_processes.esxi_hosts if h.name.startswith(f"vc{index:02d}-"))
        assert sorted(map(str, seen[source.name])) == ["3", *hosts]
    assert not without_password.esxi_hosts
    assert [e.kind for e in without_password.collection_errors] == ["vcenter", "vcenter"]
    assert all("no password for" in e.reason for e in without_password.collection_errors)


def _scenario(tmp_path: Path, scan_bench: Any, bench: Any, vcenter: int) -> Path:
    import json

    path = tmp_path / f"vc{vcenter}.json"
    path.write_text(json.dumps(scan_bench.distinct(bench.scenario(3), vcenter)), encoding="utf-8")
    return path
