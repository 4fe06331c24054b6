"""Nothing vanishes: a KVM source that is there but cannot be read is a collection error naming it, exit 3.

Real tools, real failures: `ovs-appctl` run as an unprivileged user against a control socket only root may
use (the kernel says Permission denied), and `lldpctl` pointed at an lldpd socket that is not there.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from hostlint.snapshot import load_snapshot

HOSTLINT = [sys.executable, "-c", "from hostlint.cli.main import main; main()"]
TOOLS = {name: shutil.which(name) for name in ("ovs-appctl", "lldpctl", "setpriv")}

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not all(TOOLS.values()),
    reason="needs root, setpriv, Open vSwitch and lldpd (apt-get install openvswitch-switch lldpd)",
)


def _wrapper(bin_dir: Path, name: str, command: str) -> None:
    wrapper = bin_dir / name
    wrapper.write_text(f'#!/bin/sh\nexec {command} "$@"\n')
    wrapper.chmod(0o755)


def test_ovs_denied_and_lldpd_unreachable_are_named_and_exit_3(tmp_path: Path) -> None:
    run = Path(tempfile.mkdtemp(prefix="hostlint-ovs-denied-"))
    run.chmod(0o755)
    control = socket.socket(socket.AF_UNIX)
    try:
        control.bind(str(run / "ovs-vswitchd.ctl"))
        control.listen()
        (run / "ovs-vswitchd.ctl").chmod(0o600)  # root only, as /var/run/openvswitch is on a real host
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        nobody = "--reuid=65534 --regid=65534 --clear-groups"
        _wrapper(bin_dir, "ovs-appctl", f"{TOOLS['setpriv']} {nobody} {TOOLS['ovs-appctl']} -t {run}/ovs-vswitchd.ctl")
        _wrapper(bin_dir, "lldpctl", f"{TOOLS['lldpctl']} -u {run}/lldpd.socket")
        env = os.environ | {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
        out = tmp_path / "kvm.json"
        done = subprocess.run(
            [*HOSTLINT, "collect", "kvm", "--local", "--name", "kvm-denied", "--no-libvirt", "-o", str(out)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
    finally:
        control.close()
        shutil.rmtree(run, ignore_errors=True)
    assert done.returncode == 3, done.stderr
    lines = done.stderr.splitlines()
    denied = f'ovs-appctl: cannot connect to "{run}/ovs-vswitchd.ctl" (Permission denied)'
    assert f"hostlint: kvm-denied: OVS bonds not read: ovs-appctl bond/show: {denied}" in lines
    lldp = [line for line in lines if "LLDP" in line]
    assert lldp == [
        f"hostlint: kvm-denied: LLDP neighbours not read: lldpctl cannot reach lldpd: {lldp[0].split('lldpd: ', 1)[1]}"
    ]
    assert f"{run}/lldpd.socket" in lldp[0]
    snapshot = load_snapshot(out)
    assert snapshot.kvm_hosts[0].interfaces  # what could be read is still there
    assert {e.reason.split(":")[0] for e in snapshot.collection_errors} >= {
        "OVS bonds not read",
        "LLDP neighbours not read",
    }


def test_a_tool_that_is_not_installed_is_no_source(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    # Only what the collector needs besides OVS and lldpd: a PATH without ovs-appctl and lldpctl.
    for name in ("sh", "cat", "ls", "readlink"):
        os.symlink(shutil.which(name), bin_dir / name)
    out = tmp_path / "kvm.json"
    done = subprocess.run(
        [*HOSTLINT, "collect", "kvm", "--local", "--name", "plain", "--no-libvirt", "-o", str(out)],
        capture_output=True,
        text=True,
        env=os.environ | {"PATH": str(bin_dir)},
        timeout=120,
        check=False,
    )
    assert not [line for line in done.stderr.splitlines() if "OVS" in line or "LLDP" in line], done.stderr


@pytest.mark.skipif(shutil.which("ip") is None, reason="iproute2")
def test_veth_whose_peer_is_in_another_namespace_is_a_veth(tmp_path: Path) -> None:
    host, other = (f"hl-{os.getpid()}-{side}" for side in ("host", "peer"))
    for namespace in (host, other):
        subprocess.run(["ip", "netns", "add", namespace], check=True, capture_output=True)
    try:
        subprocess.run(
            ["ip", "-n", host, "link", "add", "eth1", "type", "veth", "peer", "name", "sw1", "netns", other],
            check=True,
            capture_output=True,
        )
        # Both ends are the first link of their namespace: eth1's iflink (its peer's index) equals its own index.
        sysfs = subprocess.run(
            ["ip", "netns", "exec", host, "cat", "/sys/class/net/eth1/iflink", "/sys/class/net/eth1/ifindex"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        assert sysfs[0] == sysfs[1]
        out = tmp_path / "kvm.json"
        done = subprocess.run(
            [
                "ip",
                "netns",
                "exec",
                host,
                *HOSTLINT,
                "collect",
                "kvm",
                "--local",
                "--name",
                "kvm-veth",
                "--no-lldp",
                "--no-libvirt",
                "-o",
                str(out),
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        kinds = {i.name: i.kind for i in load_snapshot(out).kvm_hosts[0].interfaces}
        assert kinds["eth1"] == "veth"
    finally:
        for namespace in (host, other):
            subprocess.run(["ip", "netns", "delete", namespace], capture_output=True, check=False)
