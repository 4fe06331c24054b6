"""`hostlint probe` on KVM hosts: real `ping -M do` over real OpenSSH, each host a network namespace with
its own sshd on a management network and a data interface on a 9000-byte fabric.

kvm1 and kvm2 carry 9000 end to end; kvm3's port on the fabric is 1500 (a hop no snapshot shows); kvm4's
eth1 really runs at 1500 although its snapshot says 9000 (its own stack refuses the probe). hostlint
runs in the management namespace and reaches each host by its name in the snapshot (its address).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hostlint.cli.exit import Exit
from hostlint.snapshot import Snapshot, load_snapshot
from hostlint.snapshot.kvm import KvmHost, LinuxInterface

HOSTLINT = [sys.executable, "-c", "from hostlint.cli.main import main; main()"]
SSHD = shutil.which("sshd") or "/usr/sbin/sshd"

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0
    or shutil.which("ip") is None
    or shutil.which("ping") is None
    or not Path(SSHD).exists()
    or shutil.which("ssh") is None,
    reason="needs root, iproute2, ping (iputils-ping) and OpenSSH (client and server)",
)

# host -> (MTU of its eth1, MTU of its port on the fabric)
FABRIC = {1: (9000, 9000), 2: (9000, 9000), 3: (9000, 1500), 4: (1500, 9000)}


def _name(index: int) -> str:
    return f"10.99.0.{index}"


SITE = Snapshot(
    kvm_hosts=[
        KvmHost(
            name=_name(index),
            interfaces=[
                LinuxInterface(name="mgmt0", kind="veth", mtu=1500, addresses=[f"{_name(index)}/24"]),
                LinuxInterface(name="eth1", kind="physical", mtu=9000, addresses=[f"10.66.0.{index}/24"]),
            ],
        )
        for index in FABRIC
    ]
)


def _ip(*args: str) -> None:
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
    known_hosts.write_text("".join(f"{_name(index)} {host_key}" for index in FABRIC))
    Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation directory
    try:
        for namespace, bridge, mtu in ((mgmt, "mg", "1500"), (fabric, "br0", "9000")):
            _ip("netns", "add", namespace)
            _ip("-n", namespace, "link", "set", "lo", "up")
            _ip("-n", namespace, "link", "add", bridge, "type", "bridge")
            _ip("-n", namespace, "link", "set", bridge, "mtu", mtu, "up")
        _ip("-n", mgmt, "addr", "add", "10.99.0.254/24", "dev", "mg")
        for index, (eth_mtu, port_mtu) in FABRIC.items():
            host = f"{tag}h{index}"
            _ip("netns", "add", host)
            made.append(host)
            _ip("-n", host, "link", "set", "lo", "up")
            _ip("-n", host, "link", "add", "mgmt0", "type", "veth", "peer", "name", f"m{index}", "netns", mgmt)
            _ip("-n", host, "addr", "add", f"{_name(index)}/24", "dev", "mgmt0")
            _ip("-n", host, "link", "set", "mgmt0", "up")
            _ip("-n", mgmt, "link", "set", f"m{index}", "master", "mg", "up")
            _ip("-n", host, "link", "add", "eth1", "type", "veth", "peer", "name", f"p{index}", "netns", fabric)
            _ip("-n", host, "link", "set", "eth1", "mtu", str(eth_mtu), "up")
            _ip("-n", host, "addr", "add", f"10.66.0.{index}/24", "dev", "eth1")
            _ip("-n", fabric, "link", "set", f"p{index}", "mtu", str(port_mtu), "master", "br0", "up")
            config = tmp_path / f"sshd_config{index}"
            config.write_text(
                f"ListenAddress {_name(index)}:22\nHostKey {tmp_path}/host_key\n"
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


def test_kvm_paths_are_probed_over_ssh(kvm_estate, tmp_path):
    mgmt, ssh = kvm_estate
    snapshot = tmp_path / "kvm.json"
    snapshot.write_text(SITE.model_dump_json())
    out = tmp_path / "probed.json"
    env = {k: v for k, v in os.environ.items() if k != "HOSTLINT_SSH_PASSWORD"}
    done = subprocess.run(
        ["ip", "netns", "exec", mgmt, *HOSTLINT, "probe", str(snapshot), *ssh, "--count", "2", "-o", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == Exit.FINDINGS, done.stdout + done.stderr
    probes = {(p.source_host, p.target_host, p.purpose): p for p in load_snapshot(out).probes}
    # eth1 of each of the four hosts, two peers each, jumbo and control; mgmt0 (1500) is not probed
    assert len(probes) == 4 * 2 * 2
    assert all(p.via == "ssh" and p.source_vmk == "eth1" for p in probes.values())
    assert probes["10.99.0.1", "10.99.0.2", "jumbo"].delivered is True
    assert probes["10.99.0.1", "10.99.0.3", "jumbo"].delivered is False
    assert probes["10.99.0.1", "10.99.0.3", "control"].delivered is True
    assert probes["10.99.0.3", "10.99.0.1", "jumbo"].delivered is False
    refused = probes["10.99.0.4", "10.99.0.1", "jumbo"]
    assert (refused.error_kind, refused.delivered) == ("too-big-locally", False)
    assert probes["10.99.0.4", "10.99.0.1", "control"].delivered is True

    # A host whose SSH refuses (a key hostlint does not trust) is named, the others go on.
    ssh_untrusted = [*ssh[:-1], str(tmp_path / "empty_known_hosts")]
    (tmp_path / "empty_known_hosts").write_text("")
    done = subprocess.run(
        [
            "ip",
            "netns",
            "exec",
            mgmt,
            *HOSTLINT,
            "probe",
            str(snapshot),
            *ssh_untrusted,
            "--count",
            "1",
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == Exit.PARTIAL, done.stdout + done.stderr
    assert all(p.error_kind == "failed" and "host key" in (p.error or "") for p in load_snapshot(out).probes)
    json.loads(out.read_text())  # the evidence file stays valid JSON


def test_addresses_and_vrfs_are_read_from_ip_json():
    from hostlint.collect.kvm.host import link_addresses, link_vrfs

    addresses = json.dumps(
        [
            {"ifname": "lo", "addr_info": [{"family": "inet", "local": "127.0.0.1", "prefixlen": 8, "scope": "host"}]},
            {
                "ifname": "eth1",
                "addr_info": [
                    {"family": "inet", "local": "10.66.0.1", "prefixlen": 24, "scope": "global"},
                    {"family": "inet6", "local": "fe80::1", "prefixlen": 64, "scope": "link"},
                ],
            },
            {"ifname": "eth2"},
        ]
    )
    assert link_addresses(addresses) == {"lo": [], "eth1": ["10.66.0.1/24"], "eth2": []}
    links = json.dumps(
        [
            {"ifname": "eth3", "master": "vrf-storage", "linkinfo": {"info_slave_kind": "vrf"}},
            {"ifname": "eth1", "master": "br0", "linkinfo": {"info_slave_kind": "bridge"}},
            {"ifname": "vrf-storage", "linkinfo": {"info_kind": "vrf"}},
        ]
    )
    assert link_vrfs(links) == {"eth3": "vrf-storage"}
    assert link_addresses("not json") == {} and link_vrfs("[1]") == {}
