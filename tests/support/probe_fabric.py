"""The fabric `hostlint probe` pings through (tests/test_probe.py): four "hosts" whose vmks are veths in
network namespaces on one bridge, so the kernel enforces every MTU on the path, and the snapshot that
describes them. esx01 and esx02 carry 9000 end to end; esx03's port on the fabric is 1500 (a transit hop
no snapshot shows); esx04's vmk really runs at 1500 although its snapshot says 9000.

`fabric` and `scenario` are fixtures, registered for every test module in tests/conftest.py.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from hostlint.snapshot import Snapshot
from hostlint.snapshot.esxi import EsxiHost, PhysicalNic, PortGroup, StandardVSwitch, Teaming, Vmk

needs_namespaces = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("ip") is None or shutil.which("ping") is None,
    reason="needs root, iproute2 and ping (iputils-ping) to build network namespaces",
)

# host -> (the vmk's real MTU in its namespace, the MTU of its port on the fabric)
FABRIC = {"esx01": (9000, 9000), "esx02": (9000, 9000), "esx03": (9000, 1500), "esx04": (1500, 9000)}


def vmotion_host(name: str, index: int) -> EsxiHost:
    return EsxiHost(
        name=name,
        version="8.0.3",
        vswitches=[StandardVSwitch(name="vSwitch1", mtu=9000, uplinks=["vmnic0"], teaming=Teaming(active=["vmnic0"]))],
        portgroups=[PortGroup(name="vMotion", vswitch="vSwitch1", vlan=0, members=["vmk1"])],
        vmks=[
            Vmk(
                name="vmk1",
                portgroup="vMotion",
                vswitch="vSwitch1",
                mtu=9000,
                ip=f"10.77.0.{index}",
                prefix=24,
                services=["vmotion"],
            )
        ],
        pnics=[PhysicalNic(name="vmnic0", link_up=True, speed_mbps=10000, duplex="full")],
    )


SITE = Snapshot(esxi_hosts=[vmotion_host(name, i + 1) for i, name in enumerate(FABRIC)])


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True)


@pytest.fixture
def fabric(tmp_path) -> Iterator[Path]:
    """The namespaces and the simulator's map of where each vmk lives; removed afterwards."""
    tag = f"hlp{os.getpid() % 100000}"
    fabric_ns = f"{tag}sw"
    made = [fabric_ns]
    targets: dict[str, dict[str, dict[str, str]]] = {}
    try:
        ip("netns", "add", fabric_ns)
        ip("-n", fabric_ns, "link", "add", "br0", "type", "bridge")
        ip("-n", fabric_ns, "link", "set", "br0", "mtu", "9000", "up")
        for index, (host, (vmk_mtu, port_mtu)) in enumerate(FABRIC.items(), start=1):
            namespace = f"{tag}h{index}"
            ip("netns", "add", namespace)
            made.append(namespace)
            ip("-n", namespace, "link", "add", "vmk1", "type", "veth", "peer", "name", f"p{index}", "netns", fabric_ns)
            ip("-n", namespace, "link", "set", "vmk1", "mtu", str(vmk_mtu), "up")
            ip("-n", namespace, "addr", "add", f"10.77.0.{index}/24", "dev", "vmk1")
            ip("-n", fabric_ns, "link", "set", f"p{index}", "mtu", str(port_mtu), "master", "br0", "up")
            targets[host] = {"vmk1": {"netns": namespace, "dev": "vmk1"}}
        path = tmp_path / "diag-ping.json"
        path.write_text(json.dumps(targets))
        yield path
    finally:
        for namespace in made:
            subprocess.run(["ip", "netns", "delete", namespace], capture_output=True, check=False)


@pytest.fixture
def scenario(tmp_path) -> Path:
    path = tmp_path / "hosts.json"
    path.write_text(SITE.model_dump_json())
    return path
