"""vSphere collection benchmark: hostlint vs naive pyvmomi attribute walking vs a compiled Go client.

All collect the same facts from the same simulated vCenter (sim/vcsim, govmomi's simulator over
real SOAP and TLS on 127.0.0.1) in the same run: every host's network configuration, VMkernel
services, iSCSI adapters and PCI devices, the distributed switches and their port groups, then the
per-host CDP/LLDP hints and iSCSI bindings. Round trips are counted by the simulator itself.

Two inventories: the project's scenario (`scenario()` below: CDP neighbours, software iSCSI, a
LAG on a distributed switch) and govmomi's stock inventory (`vcsim -stock`: two clusters, the
simulator's stock host networking, no per-host extras). On each, the contenders run in turns,
`--repeat` rounds, the order rotated every round (a load change on a shared machine hits all
alike), and the medians count:

- go: the compiled property-collector client (sim/vcsim/pcclient), collection and process wall;
- hostlint: `collect()` in-process with the lxml parser (collection only, as go's);
- hostlint-pyvmomi: the same with HOSTLINT_VSPHERE_PARSER=pyvmomi;
- cli: `hostlint collect vsphere` in a fresh process, wall (start-up, login, JSON written) and peak RSS;
- naive: attribute walking, on the first `--naive-sample` hosts only, scaled to all (it is linear).

    python bench/vsphere.py                   # 1,000 hosts, both inventories, 3 rounds
    python bench/vsphere.py --hosts 50 --repeat 1 --json
    python bench/vsphere.py --rss-hosts 10000 --inventories   # peak RSS of the CLI at 10,000 hosts only
    python bench/vsphere.py --hosts 200 --delay-ms 2 --sweep   # which concurrency/parallel is fastest

`--delay-ms` adds that much latency to every SOAP call, as a vCenter across a WAN would.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from pyVmomi import vim

from hostlint.collect.vsphere import collect, connect, convert, disconnect, parse_server, tls_context
from hostlint.collect.vsphere.collector import dvs_members
from hostlint.collect.vsphere.fastretrieve import Parser
from hostlint.collect.vsphere.hints import HostHints, iscsi_hba_names
from hostlint.collect.vsphere.retrieve import HOST_SLICE, Retrieved
from hostlint.snapshot import Snapshot

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("vcsim_launcher", ROOT / "sim" / "vcsim" / "launcher.py")
launcher = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(launcher)

USER = "administrator@vsphere.local"
PASSWORD = "bench-password"


# --- the inventory -----------------------------------------------------------------------------


def _host(index: int) -> dict:
    name = f"esx{index:04d}.bench.example.net"
    rack = index // 20
    mac = f"00:50:56:{index // 256:02x}:{index % 256:02x}"

    def pnic(n: int, pci: str, speed: int = 10000) -> dict:
        return {
            "name": f"vmnic{n}",
            "driver": "i40en",
            "mac": f"{mac}:{n:02x}",
            "pci": pci,
            "speed_mbps": speed,
            "duplex": "full",
            "neighbour": {
                "protocol": "cdp",
                "device_id": f"tor{rack}-{'a' if n % 2 == 0 else 'b'}.bench.example.net",
                "port_id": f"Ethernet1/{index % 20 * 4 + n + 1}",
                "platform": "N9K-C93180YC-FX",
            },
        }

    def vmk(n: int, portgroup: str, vswitch: str, mtu: int, net: int, services: list[str]) -> dict:
        ip = f"10.{net}.{rack}.{index % 250 + 1}"
        return {"name": f"vmk{n}", "portgroup": portgroup, "vswitch": vswitch, "mtu": mtu, "ip": ip, "prefix": 24,
                "services": services}  # fmt: skip

    return {
        "name": name,
        "version": "8.0.3",
        "vswitches": [
            {
                "name": "vSwitch0",
                "uplinks": ["vmnic0", "vmnic1"],
                "teaming": {"active": ["vmnic0"], "standby": ["vmnic1"]},
            },
            {
                "name": "vSwitch1",
                "mtu": 9000,
                "uplinks": ["vmnic2", "vmnic3"],
                "teaming": {"policy": "loadbalance_ip", "active": ["vmnic2", "vmnic3"]},
            },
        ],
        "portgroups": [
            {"name": "Management Network", "vswitch": "vSwitch0", "vlan": 10, "members": ["vmk0"]},
            {"name": "vMotion", "vswitch": "vSwitch1", "vlan": 20, "members": ["vmk1"]},
            {
                "name": "iSCSI-A",
                "vswitch": "vSwitch1",
                "vlan": 30,
                "members": ["vmk2"],
                "teaming": {"policy": "failover_explicit", "active": ["vmnic2"], "unused": ["vmnic3"]},
            },
            {
                "name": "iSCSI-B",
                "vswitch": "vSwitch1",
                "vlan": 30,
                "members": ["vmk3"],
                "teaming": {"policy": "failover_explicit", "active": ["vmnic3"], "unused": ["vmnic2"]},
            },
            {"name": "VM-Prod", "vswitch": "vSwitch1", "vlan": 100},
        ],
        "vmks": [
            vmk(0, "Management Network", "vSwitch0", 1500, 10, ["management"]),
            vmk(1, "vMotion", "vSwitch1", 9000, 20, ["vmotion"]),
            vmk(2, "iSCSI-A", "vSwitch1", 9000, 30, []),
            vmk(3, "iSCSI-B", "vSwitch1", 9000, 31, []),
        ],
        "pnics": [
            pnic(0, "0000:3b:00.0"),
            pnic(1, "0000:3b:00.1"),
            pnic(2, "0000:5e:00.0", 25000),
            pnic(3, "0000:5e:00.1", 25000),
            pnic(4, "0000:d8:00.0", 25000),
            pnic(5, "0000:d8:00.1", 25000),
        ],
        "iscsi_adapters": [
            {"name": "vmhba64", "kind": "software", "bound_vmks": ["vmk2", "vmk3"], "targets": ["10.30.0.100:3260"]}
        ],
        "pci_devices": [
            {"address": pci, "vendor": "Intel Corporation", "device": "Ethernet Controller", "device_class": "Ethernet"}
            for pci in ("0000:3b:00.0", "0000:3b:00.1", "0000:5e:00.0", "0000:5e:00.1", "0000:d8:00.0", "0000:d8:00.1")
        ],
    }


def scenario(hosts: int) -> dict:
    host_list = [_host(i) for i in range(hosts)]
    return {
        "schema_version": 1,
        "esxi_hosts": host_list,
        "distributed_switches": [
            {
                "name": "dvs-bench",
                "max_mtu": 9000,
                "lacp_api_version": "multipleLag",
                "lags": [{"name": "lag1", "mode": "active", "load_balance": "srcDestIp", "uplink_count": 2}],
                "portgroups": [
                    {"name": "dvpg-vm", "vlan": 200, "teaming": {"policy": "loadbalance_ip", "active": ["lag1"]}},
                    {"name": "dvpg-web", "vlan": 201, "teaming": {"policy": "loadbalance_ip", "active": ["lag1"]}},
                ],
                "hosts": [{"host": h["name"], "uplinks": {"lag1-0": "vmnic4", "lag1-1": "vmnic5"}} for h in host_list],
            }
        ],
    }


# --- the three clients -------------------------------------------------------------------------


def _login(sim):
    endpoint = parse_server(sim.url)
    return endpoint, connect(endpoint, sim.user, PASSWORD, tls_context(ca_bundle=Path(sim.cert)))


def run_hostlint(
    sim,
    page_size: int,
    concurrency: int,
    profile: bool,
    parallel: int = 2,
    parser: Parser = "lxml",
    slice_size: int = HOST_SLICE,
) -> tuple[dict, Snapshot]:
    endpoint, si = _login(sim)
    sim.stats(reset=True)
    profiler = cProfile.Profile() if profile else None
    started = time.perf_counter()
    if profiler:
        profiler.enable()
    collection = collect(
        si,
        str(endpoint),
        page_size=page_size,
        concurrency=concurrency,
        parallel=parallel,
        parser=parser,
        slice_size=slice_size,
    )
    if profiler:
        profiler.disable()
    seconds = time.perf_counter() - started
    stats = sim.stats()
    disconnect(si)
    result = {
        "seconds": seconds,
        "calls": stats["calls"],
        "methods": stats["methods"],
        "response_mb": stats["response_bytes"] / 1e6,
    }
    if profiler:
        result["profile"] = _parse_share(profiler, seconds)
    return result, collection.snapshot


def _parse_share(profiler: cProfile.Profile, seconds: float) -> dict:
    """How much of the main thread's time pyvmomi spent turning SOAP XML into objects."""
    stats = pstats.Stats(profiler)
    parse = 0.0
    for (filename, _line, function), (_cc, _nc, _tt, cumulative, _callers) in stats.stats.items():
        if filename.endswith("SoapAdapter.py") and function in ("Deserialize", "DeserializeResponse"):
            parse = max(parse, cumulative)
    return {"pyvmomi_deserialize_seconds": parse, "share_of_total": parse / seconds if seconds else 0.0}


def _datacenter(entity: Any) -> str | None:
    """The datacenter above an object, walking `parent` one property access at a time."""
    parent = entity.parent
    while parent is not None and not isinstance(parent, vim.Datacenter):
        parent = parent.parent
    return parent.name if parent is not None else None


def run_naive(sim, sample: int | None = None) -> tuple[dict, Snapshot]:
    """What a straightforward pyvmomi script does: walk the objects, one property access at a time.

    With `sample`, only the first `sample` hosts are walked.
    """
    endpoint, si = _login(sim)
    sim.stats(reset=True)
    started = time.perf_counter()
    content = si.RetrieveContent()
    vcenter = str(endpoint) if content.about.apiType == "VirtualCenter" else None
    host_view = content.viewManager.CreateContainerView(content.rootFolder, [vim.HostSystem], True)
    hosts, hints = [], {}
    walked = host_view.view if sample is None else host_view.view[:sample]
    for host in walked:
        config, manager = host.config, host.configManager
        props = {
            "name": host.name,
            "runtime.connectionState": host.runtime.connectionState,
            "runtime.inMaintenanceMode": host.runtime.inMaintenanceMode,
            "config.product.version": config.product.version,
            "config.network": config.network,
            "config.virtualNicManagerInfo": config.virtualNicManagerInfo,
            "config.storageDevice.hostBusAdapter": config.storageDevice.hostBusAdapter,
            "configManager.networkSystem": manager.networkSystem,
            "configManager.iscsiManager": manager.iscsiManager,
            "hardware.pciDevice": host.hardware.pciDevice,
            "parent": host.parent,
        }
        record = Retrieved(ref=host, props=props)
        hosts.append(record)
        if props["runtime.connectionState"] == "connected":
            found = HostHints(network=list(manager.networkSystem.QueryNetworkHint()))
            for hba in iscsi_hba_names(record):
                found.bound_vnics[hba] = list(manager.iscsiManager.QueryBoundVnics(iScsiHbaName=hba))
            hints[host._moId] = found
    host_view.DestroyView()
    vm_view = content.viewManager.CreateContainerView(content.rootFolder, [vim.VirtualMachine], True)
    vms = []
    for vm in vm_view.view:
        config = vm.config
        props = {"name": vm.name, "runtime.host": vm.runtime.host, "config.template": config.template}
        props |= {"config.hardware.numCPU": config.hardware.numCPU, "config.cpuHotAddEnabled": config.cpuHotAddEnabled}
        vms.append(Retrieved(ref=vm, props={**props, "config.hardware.device": config.hardware.device}))
    vm_view.DestroyView()
    dvs_view = content.viewManager.CreateContainerView(content.rootFolder, [vim.DistributedVirtualSwitch], True)
    snapshot = Snapshot(source=f"vsphere:{endpoint}")
    dvs_names, pg_names, switches = {}, {}, []
    datacenters: dict[str, str | None] = {}
    for dvs in dvs_view.view:
        record = Retrieved(ref=dvs, props={"name": dvs.name, "uuid": dvs.uuid, "config": dvs.config})
        datacenters[dvs._moId] = _datacenter(dvs)
        portgroups = []
        for pg in dvs.portgroup:
            config = pg.config
            props = {"name": pg.name, "key": pg.key, "config.defaultPortConfig": config.defaultPortConfig}
            props["config.backingType"] = config.backingType
            portgroups.append(Retrieved(ref=pg, props={**props, "config.uplink": config.uplink}))
        dvs_names[record.get("uuid")] = record.get("name")
        pg_names.update({pg.get("key"): pg.get("name") for pg in portgroups})
        switches.append((record, portgroups))
    dvs_view.DestroyView()
    vms_on = convert.vms_by_host(vms, pg_names)
    datacenters.update({host.ref._moId: _datacenter(host.ref) for host in hosts})
    source = convert.Source(
        vcenter=vcenter,
        instance_uuid=(content.about.instanceUuid or None) if vcenter else None,
        datacenters={moid: name for moid, name in datacenters.items() if name is not None},
    )
    nsx = frozenset(pg.get("key") for _, pgs in switches for pg in pgs if pg.get("config.backingType") == "nsx")
    names = convert.NetworkNames(dvs=dvs_names, portgroups=pg_names, nsx=nsx)
    for host in sorted(hosts, key=lambda h: h.get("name")):
        esxi = convert.esxi_host(host, hints.get(host.ref._moId), source, names)
        if esxi is not None:
            esxi.vms = vms_on.get(host.ref._moId, [])
            snapshot.esxi_hosts.append(esxi)
    members = dvs_members(hosts)
    for record, portgroups in sorted(switches, key=lambda s: s[0].get("name")):
        own = sorted(members.get(record.get("uuid"), []), key=lambda m: m.host)
        converted = convert.distributed_switch(record, portgroups, own, source)
        if converted is not None:
            snapshot.distributed_switches.append(converted)
    seconds = time.perf_counter() - started
    stats = sim.stats()
    disconnect(si)
    result = {"seconds": seconds, "calls": stats["calls"], "methods": stats["methods"], "hosts_walked": len(hosts)}
    return {**result, "response_mb": stats["response_bytes"] / 1e6}, snapshot


# Measures one process's own peak RSS. The bench's process is large; a child it starts shares its memory until
# exec (vfork), and Linux counts that in the child's ru_maxrss. So a small fresh interpreter forks the process
# measured and reports what os.wait4 says of it, in the file named first.
_PEAK_RSS = """import json, os, sys
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as out:
    json.dump({"code": os.waitstatus_to_exitcode(status), "maxrss_kib": usage.ru_maxrss}, out)
"""


def _child(args: list[str], env: dict[str, str], timeout: float = 3600) -> tuple[float, float, str]:
    """Run a process; its wall seconds, its own peak RSS in MiB and its stdout."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "rusage.json"
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", _PEAK_RSS, str(report), *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=timeout,
            check=False,
        )
        wall = time.perf_counter() - started
        usage = json.loads(report.read_text())
    if usage["code"] not in (0, 3):
        raise RuntimeError(f"{args} exited {usage['code']}: {done.stderr[-2000:]}")
    return wall, usage["maxrss_kib"] / 1024, done.stdout


def run_go(sim, binary: Path, page_size: int, concurrency: int) -> dict:
    sim.stats(reset=True)
    env = {**os.environ, "VCSIM_PASSWORD": PASSWORD}
    args = [str(binary), "-url", sim.url, "-ca", sim.cert, "-user", sim.user]
    args += ["-page-size", str(page_size), "-concurrency", str(concurrency)]
    wall, rss, stdout = _child(args, env, timeout=1800)
    result = json.loads(stdout)
    stats = sim.stats()
    # the Go client logs in inside its own timing window; count only its collection calls
    return {
        "seconds": result["seconds"],
        "wall": wall,
        "rss_mib": rss,
        "calls": result["calls"],
        "server_calls": stats["calls"],
        "methods": stats["methods"],
        "response_mb": stats["response_bytes"] / 1e6,
    }


def run_cli(sim, out: Path, page_size: int, concurrency: int) -> dict:
    """`hostlint collect vsphere` in a fresh process (this checkout's code): wall seconds and peak RSS."""
    env = {**os.environ, "HOSTLINT_VSPHERE_PASSWORD": PASSWORD, "PYTHONPATH": str(ROOT)}
    env.pop("HOSTLINT_VSPHERE_PARSER", None)
    args = [sys.executable, "-m", "hostlint.cli.main", "collect", "vsphere", "--server", sim.url, "--user", sim.user]
    args += ["--ca-bundle", sim.cert, "--page-size", str(page_size), "--concurrency", str(concurrency), "-o", str(out)]
    sim.stats(reset=True)
    wall, rss, _ = _child(args, env)
    stats = sim.stats()
    return {"wall": wall, "rss_mib": rss, "calls": stats["calls"], "response_mb": stats["response_bytes"] / 1e6}


def _same_facts(a: Snapshot, b: Snapshot, hosts: set[str] | None = None) -> bool:
    """The same hosts (those named in `hosts`, when given) and, for a full walk, distributed switches."""
    if hosts is not None:

        def picked(snapshot: Snapshot) -> list[dict]:
            return [h.model_dump() for h in snapshot.esxi_hosts if h.name in hosts]

        return picked(a) == picked(b)
    keep = {"esxi_hosts", "distributed_switches"}
    return a.model_dump(include=keep) == b.model_dump(include=keep)


CONTENDERS = ("go", "hostlint", "hostlint-pyvmomi", "cli", "naive")
INVENTORIES = ("scenario", "stock")


def _stock_args(hosts: int, vms: int) -> tuple[str, ...]:
    """govmomi's stock inventory with `hosts` hosts in two clusters (one if odd)."""
    clusters = 2 if hosts % 2 == 0 and hosts > 1 else 1
    return ("-stock-clusters", str(clusters), "-stock-hosts", str(hosts // clusters), "-stock-vms", str(vms))


def _median(runs: list[dict], key: str) -> float:
    return statistics.median(run[key] for run in runs)


def bench_inventory(args: argparse.Namespace, sim, go_client: Path, work: Path) -> dict:
    """Every contender `args.repeat` times on one simulator, in rotated order; medians and ratios."""
    runs: dict[str, list[dict]] = {name: [] for name in args.contenders}
    snapshots: dict[str, Snapshot] = {}
    order = list(args.contenders)
    # warm the simulator's caches
    run_hostlint(sim, args.page_size, args.concurrency, False, args.parallel, slice_size=args.slice_size)
    for round_index in range(args.repeat):
        rotated = order[round_index % len(order) :] + order[: round_index % len(order)]
        for name in rotated:
            if name == "go":
                runs[name].append(run_go(sim, go_client, args.page_size, args.concurrency))
            elif name in ("hostlint", "hostlint-pyvmomi"):
                parser: Parser = "lxml" if name == "hostlint" else "pyvmomi"
                result, snapshots[name] = run_hostlint(
                    sim, args.page_size, args.concurrency, False, args.parallel, parser, args.slice_size
                )
                runs[name].append(result)
            elif name == "cli":
                runs[name].append(run_cli(sim, work / "cli.json", args.page_size, args.concurrency))
            elif name == "naive":
                result, snapshots[name] = run_naive(sim, args.naive_sample)
                runs[name].append(result)
    found: dict = {"contenders": {}}
    for name, results in runs.items():
        row: dict = {"runs": len(results), "calls": results[-1]["calls"], "response_mb": results[-1]["response_mb"]}
        for key in ("seconds", "wall", "rss_mib"):
            if key in results[0]:
                row[key] = _median(results, key)
        if name == "naive":
            walked = results[-1]["hosts_walked"]
            row |= {"sample_hosts": walked, "sample_seconds": row["seconds"]}
            row["seconds"] = row["seconds"] * sim.hosts / max(1, walked)  # linear in hosts: scaled to all
        if "methods" in results[-1]:
            row["methods"] = results[-1]["methods"]
        found["contenders"][name] = row
    table = found["contenders"]
    ratios = {}
    if "go" in table and "hostlint" in table:
        ratios["hostlint_vs_go"] = table["hostlint"]["seconds"] / table["go"]["seconds"]
    if "go" in table and "cli" in table:
        ratios["cli_vs_go_wall"] = table["cli"]["wall"] / table["go"]["wall"]
    if "hostlint" in table and "hostlint-pyvmomi" in table:
        ratios["pyvmomi_parser_vs_lxml"] = table["hostlint-pyvmomi"]["seconds"] / table["hostlint"]["seconds"]
    if "hostlint" in table and "naive" in table:
        ratios["naive_vs_hostlint"] = table["naive"]["seconds"] / table["hostlint"]["seconds"]
    found["ratios"] = ratios
    if "hostlint" in snapshots and "hostlint-pyvmomi" in snapshots:
        found["parsers_same_facts"] = _same_facts(snapshots["hostlint"], snapshots["hostlint-pyvmomi"])
    if "hostlint" in snapshots and "naive" in snapshots:
        walked_names = {h.name for h in snapshots["naive"].esxi_hosts}
        found["naive_same_facts"] = _same_facts(snapshots["hostlint"], snapshots["naive"], walked_names)
    return found


def peak_rss(args: argparse.Namespace, sim_binary: Path, work: Path) -> dict:
    """`hostlint collect vsphere` on a stock inventory of `--rss-hosts` hosts: wall and peak RSS."""
    extra = _stock_args(args.rss_hosts, 0)
    with launcher.Simulator(
        sim_binary, None, password=PASSWORD, extra_args=extra, start_timeout=args.start_timeout
    ) as sim:
        sim.hosts = args.rss_hosts
        result = run_cli(sim, work / "rss.json", args.page_size, args.concurrency)
    hosts = len(Snapshot.model_validate_json((work / "rss.json").read_text()).esxi_hosts)
    return {
        "hosts": hosts,
        "wall": result["wall"],
        "peak_rss_mib": result["rss_mib"],
        "response_mb": result["response_mb"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hosts", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3, help="rounds (and runs per setting with --sweep); medians")
    parser.add_argument("--page-size", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--parallel", type=int, default=2, help="host retrievals (slices) in flight")
    parser.add_argument("--slice-size", type=int, default=HOST_SLICE, help="hosts per retrieval slice")
    parser.add_argument("--delay-ms", type=int, default=0, help="latency added to every SOAP call")
    parser.add_argument(
        "--inventories", nargs="*", choices=INVENTORIES, default=list(INVENTORIES), help="which inventories"
    )
    parser.add_argument("--contenders", nargs="+", choices=CONTENDERS, default=list(CONTENDERS))
    parser.add_argument("--no-naive", action="store_true", help="leave out the (slow) attribute-walking client")
    parser.add_argument("--naive-sample", type=int, default=100, help="hosts the naive client walks (scaled to all)")
    parser.add_argument("--stock-vms", type=int, default=0, help="VMs per host in the stock inventory")
    parser.add_argument("--rss-hosts", type=int, default=0, help="also: peak RSS of the CLI at this many stock hosts")
    parser.add_argument("--start-timeout", type=float, default=3600, help="seconds the simulator may take to build")
    parser.add_argument(
        "--profile", action="store_true", help="measure pyvmomi's XML parsing share (retrieves in one thread)"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--sweep",
        action="store_true",
        help="time hostlint alone for each per-host call concurrency, host retrievals in flight and slice size "
        "(the defaults in hostlint/collect/limits.py and retrieve.HOST_SLICE come from this)",
    )
    parser.add_argument(
        "--sweep-concurrency", type=int, nargs="+", default=list(SWEEP_CONCURRENCY), help="values tried with --sweep"
    )
    parser.add_argument(
        "--sweep-parallel", type=int, nargs="+", default=list(SWEEP_PARALLEL), help="values tried with --sweep"
    )
    parser.add_argument(
        "--sweep-slice", type=int, nargs="+", default=list(SWEEP_SLICE), help="values tried with --sweep"
    )
    args = parser.parse_args(argv)
    if args.no_naive:
        args.contenders = [name for name in args.contenders if name != "naive"]
    if args.sweep:
        return sweep(args)
    if args.profile:
        return profile(args)

    results: dict = {"hosts": args.hosts, "repeat": args.repeat, "delay_ms": args.delay_ms, "inventories": {}}
    with tempfile.TemporaryDirectory(prefix="hostlint-bench-") as work:
        work_dir = Path(work)
        binaries = work_dir / "bin"
        sim_binary = launcher.build(binaries)
        go_client = launcher.build(binaries, "./pcclient", "pcclient")
        delay = ("-delay-ms", str(args.delay_ms)) if args.delay_ms else ()
        for inventory in args.inventories:
            if inventory == "scenario":
                source: Path | None = work_dir / "scenario.json"
                source.write_text(json.dumps(scenario(args.hosts)))
                extra: tuple[str, ...] = delay
            else:
                source, extra = None, (*_stock_args(args.hosts, args.stock_vms), *delay)
            with launcher.Simulator(
                sim_binary, source, password=PASSWORD, extra_args=extra, start_timeout=args.start_timeout
            ) as sim:
                sim.hosts = args.hosts
                found = bench_inventory(args, sim, go_client, work_dir)
                found["sim_build_ms"] = sim.build_ms
            results["inventories"][inventory] = found
            print(f"{inventory}: {json.dumps(found)}", file=sys.stderr, flush=True)  # a long run's partial result
        if args.rss_hosts:
            results["rss"] = peak_rss(args, sim_binary, work_dir)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        _print_table(results)
    return 0


def profile(args: argparse.Namespace) -> int:
    """hostlint once on the project's scenario, retrieving in one thread, with pyvmomi's parsing share."""
    with tempfile.TemporaryDirectory(prefix="hostlint-bench-") as work:
        sim_binary = launcher.build(Path(work) / "bin")
        scenario_path = Path(work) / "scenario.json"
        scenario_path.write_text(json.dumps(scenario(args.hosts)))
        with launcher.Simulator(sim_binary, scenario_path, password=PASSWORD, start_timeout=args.start_timeout) as sim:
            result, _ = run_hostlint(sim, args.page_size, args.concurrency, True, 1, parser="pyvmomi")
    print(json.dumps(result, indent=2))
    return 0


SWEEP_CONCURRENCY = (1, 2, 4, 8, 16)
SWEEP_PARALLEL = (1, 2, 4)
SWEEP_SLICE = (25, 50, 100, 250)


def sweep(args: argparse.Namespace) -> int:
    """Median seconds of hostlint's collection for each (concurrency, parallel, slice size), fastest first."""
    import statistics

    with tempfile.TemporaryDirectory(prefix="hostlint-bench-") as work:
        work_dir = Path(work)
        sim_binary = launcher.build(work_dir / "bin")
        scenario_path = work_dir / "scenario.json"
        scenario_path.write_text(json.dumps(scenario(args.hosts)))
        extra = ("-delay-ms", str(args.delay_ms)) if args.delay_ms else ()
        rows = []
        with launcher.Simulator(sim_binary, scenario_path, password=PASSWORD, extra_args=extra) as sim:
            run_hostlint(sim, args.page_size, 8, False, 1)  # warm up: the first run pays the simulator's caches
            # every setting, interleaved run by run so that a load change hits all alike; one query when parallel is 1
            settings = sorted(
                {
                    (c, p, sl if p > 1 else 0)
                    for p in args.sweep_parallel
                    for c in args.sweep_concurrency
                    for sl in args.sweep_slice
                }
            )
            times: dict[tuple[int, int, int], list[float]] = {setting: [] for setting in settings}
            for _ in range(args.repeat):
                for concurrency, parallel, slice_size in settings:
                    run = run_hostlint(
                        sim, args.page_size, concurrency, False, parallel, slice_size=slice_size or HOST_SLICE
                    )[0]
                    times[(concurrency, parallel, slice_size)].append(run["seconds"])
            for (concurrency, parallel, slice_size), seconds in times.items():
                row = {"concurrency": concurrency, "parallel": parallel, "slice": slice_size or None}
                rows.append(row | {"seconds": statistics.median(seconds)})
    rows.sort(key=lambda row: row["seconds"])
    result = {"hosts": args.hosts, "delay_ms": args.delay_ms, "repeat": args.repeat, "runs": rows}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{args.hosts} hosts, {args.delay_ms} ms per call, median of {args.repeat} runs, fastest first")
        print(f"{'concurrency':>11} {'parallel':>8} {'slice':>6} {'seconds':>9}")
        for row in rows:
            size = row["slice"] or "-"
            print(f"{row['concurrency']:>11} {row['parallel']:>8} {size:>6} {row['seconds']:>9.2f}")
    return 0


def _print_table(results: dict) -> None:
    print(
        f"{results['hosts']} hosts, {results['delay_ms']} ms per call, medians of {results['repeat']} "
        "alternating rounds"
    )
    for inventory, found in results["inventories"].items():
        print(f"\n{inventory} (simulator built in {found['sim_build_ms'] / 1000:.0f} s)")
        print(f"{'client':<17} {'collect s':>9} {'wall s':>7} {'RSS MiB':>8} {'calls':>7} {'MB':>7}")
        for name, row in found["contenders"].items():
            seconds = f"{row['seconds']:.2f}" if "seconds" in row else "-"
            wall = f"{row['wall']:.2f}" if "wall" in row else "-"
            rss = f"{row['rss_mib']:.0f}" if "rss_mib" in row else "-"
            label = name if name != "naive" else f"naive ({row['sample_hosts']}, scaled)"
            print(f"{label:<17} {seconds:>9} {wall:>7} {rss:>8} {row['calls']:>7} {row['response_mb']:>7.1f}")
        for ratio, value in found["ratios"].items():
            print(f"  {ratio}: {value:.2f}x")
        for check in ("parsers_same_facts", "naive_same_facts"):
            if check in found:
                print(f"  {check}: {found[check]}")
    if "rss" in results:
        rss = results["rss"]
        print(
            f"\nhostlint collect vsphere, {rss['hosts']:,} stock hosts: peak RSS {rss['peak_rss_mib']:.0f} MiB, "
            f"wall {rss['wall']:.1f} s, {rss['response_mb']:.0f} MB of responses"
        )


if __name__ == "__main__":
    sys.exit(main())
