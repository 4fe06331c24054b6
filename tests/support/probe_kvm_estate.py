"""The KVM estate `hostlint probe` reaches over real OpenSSH (tests/test_probe_kvm.py): each host a network
namespace with its own sshd on a management network and a data interface on a 9000-byte fabric.

kvm1 and kvm2 carry 9000 end to end; kvm3's port on the fabric is 1500 (a hop no snapshot shows); kvm4's
eth1 really runs at 1500 although its snapshot says 9000. `kvm_estate` is a fixture, registered for every
test module in tests/conftest.py.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hostlint.snapshot import Snapshot
from hostlint.snapshot.kvm import KvmHost, LinuxInterface

HOSTLINT = [sys.executable, "-c", "from hostlint.cli.main import main; main()"]
SSHD = shutil.which("sshd") or "/usr/sbin/sshd"

needs_ssh_namespaces = pytest.mark.skipif(
    os.geteuid() != 0
    or shutil.which("ip") is None
    or shutil.which("ping") is None
    or not Path(SSHD).exists()
    or shutil.which("ssh") is None,
    reason="needs root, iproute2, ping (iputils-ping) and OpenSSH (client and server)",
)

# host -> (MTU of its eth1, MTU of its port on the fabric)
FABRIC = {1: (9000, 9000), 2: (9000, 9000), 3: (9000, 1500), 4: (1500, 9000)}


def kvm_name(index: int) -> str:
    return f"10.99.0.{index}"


SITE = Snapshot(
    kvm_hosts=[
        KvmHost(
            name=kvm_name(index),
            interfaces=[
                LinuxInterface(name="mgmt0", kind="veth", mtu=1500, addresses=[f"{kvm_name(index)}/24"]),
                LinuxInterface(name="eth1", kind="physical", mtu=9000, addresses=[f"10.66.0.{index}/24"]),
            ],
        )
        for index in FABRIC
    ]
)


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True)


@pytest.fixture
def kvm_estate(tmp_path) -> Iterator[tuple[str, list[str]]]:
    """The namespaces and sshds; yields the management namespace and the ssh arguments for hostlint."""
    tag = f"hlk{os.getpid() % 100000}"
    mgmt, fabric = f"{tag}m", f"{tag}f"
    made = [mgmt, fabric]
    daemons: list[subprocess.Popen[str]] = []
    for key in ("host_key", "client_key"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / key)], check=True)
    (tmp_path / "authorized_keys").write_text((tmp_path / "client_key.pub").read_text())
    host_key = (tmp_path / "host_key.pub").read_text()
    known_hosts = tmp_path / "known_hosts"
    known_hosts.write_text("".join(f"{kvm_name(index)} {host_key}" for index in FABRIC))
    Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation directory
    try:
        for namespace, bridge, mtu in ((mgmt, "mg", "1500"), (fabric, "br0", "9000")):
            ip("netns", "add", namespace)
            ip("-n", namespace, "link", "set", "lo", "up")
            ip("-n", namespace, "link", "add", bridge, "type", "bridge")
            ip("-n", namespace, "link", "set", bridge, "mtu", mtu, "up")
        ip("-n", mgmt, "addr", "add", "10.99.0.254/24", "dev", "mg")
        for index, (eth_mtu, port_mtu) in FABRIC.items():
            host = f"{tag}h{index}"
            ip("netns", "add", host)
            made.append(host)
            ip("-n", host, "link", "set", "lo", "up")
            ip("-n", host, "link", "add", "mgmt0", "type", "veth", "peer", "name", f"m{index}", "netns", mgmt)
            ip("-n", host, "addr", "add", f"{kvm_name(index)}/24", "dev", "mgmt0")
            ip("-n", host, "link", "set", "mgmt0", "up")
            ip("-n", mgmt, "link", "set", f"m{index}", "master", "mg", "up")
            ip("-n", host, "link", "add", "eth1", "type", "veth", "peer", "name", f"p{index}", "netns", fabric)
            ip("-n", host, "link", "set", "eth1", "mtu", str(eth_mtu), "up")
            ip("-n", host, "addr", "add", f"10.66.0.{index}/24", "dev", "eth1")
            ip("-n", fabric, "link", "set", f"p{index}", "mtu", str(port_mtu), "master", "br0", "up")
            config = tmp_path / f"sshd_config{index}"
            config.write_text(
                f"ListenAddress {kvm_name(index)}:22\nHostKey {tmp_path}/host_key\n"
                f"AuthorizedKeysFile {tmp_path}/authorized_keys\nPidFile {tmp_path}/sshd{index}.pid\n"
                "PermitRootLogin prohibit-password\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                "UsePAM no\nStrictModes no\n"
            )
            daemons.append(
                subprocess.Popen(
                    ["ip", "netns", "exec", host, SSHD, "-D", "-e", "-f", str(config)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    text=True,
                )
            )
        for index in FABRIC:
            pid = tmp_path / f"sshd{index}.pid"
            for _ in range(100):
                if pid.exists():
                    break
                time.sleep(0.1)
        ssh = [
            "--ssh-user",
            "root",
            "--ssh-option",
            f"IdentityFile={tmp_path}/client_key",
            "--ssh-option",
            "LogLevel=ERROR",
            "--known-hosts",
            str(known_hosts),
        ]
        yield mgmt, ssh
    finally:
        for daemon in daemons:
            daemon.terminate()
            try:
                daemon.wait(timeout=10)
            except subprocess.TimeoutExpired:
                daemon.kill()
        for namespace in made:
            subprocess.run(["ip", "netns", "delete", namespace], capture_output=True, check=False)
