"""The KVM collector end to end on real parts: network namespaces built here, libvirt's test driver.

Each test builds its own namespace (unique name, removed in teardown) with veth
pairs, a Linux bridge and a tap, runs `hostlint collect kvm --local` inside it
with `ip netns exec`, then checks the snapshot and the findings. Needs root and
iproute2; bonds and VLANs also need the kernel's bonding / 8021q support and are
skipped with the kernel's own refusal when it is missing.
"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from hostlint.check import check_paths
from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.join import build_facts
from hostlint.rules import load_rules
from hostlint.snapshot import load_snapshot

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "kvm"
NODE_XML = FIXTURES / "libvirt" / "node.xml"
HOSTLINT = [sys.executable, "-c", "from hostlint.cli.main import main; main()"]

needs_libvirt = pytest.mark.skipif(
    importlib.util.find_spec("libvirt") is None,
    reason="libvirt-python is not installed (apt-get install libvirt-dev; pip install -e '.[kvm]')",
)
needs_netns = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("ip") is None, reason="network namespaces need root and iproute2"
)


def collect_here(*args: str) -> tuple[int, str]:
    """`hostlint collect kvm ARGS` in this process (no namespace): exit code and standard error."""
    outcome = CliRunner().invoke(cli, ["collect", "kvm", *args], standalone_mode=False)
    if isinstance(outcome.exception, click.UsageError):
        return Exit.USAGE, outcome.exception.format_message()
    assert outcome.exception is None, outcome.output
    return int(outcome.return_value), outcome.stderr


def ip(namespace: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", "-n", namespace, *args], capture_output=True, text=True, check=check)


class Namespace:
    def __init__(self) -> None:
        self.name = f"hl-{os.getpid()}-{secrets.token_hex(3)}"
        subprocess.run(["ip", "netns", "add", self.name], check=True, capture_output=True)

    def ip(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return ip(self.name, *args, check=check)

    def collect(self, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["ip", "netns", "exec", self.name, *HOSTLINT, "collect", "kvm", *args],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            env=env,
        )

    def delete(self) -> None:
        subprocess.run(["ip", "netns", "delete", self.name], capture_output=True, check=False)


@pytest.fixture
def netns() -> Iterator[Namespace]:
    namespace = Namespace()
    try:
        yield namespace
    finally:
        namespace.delete()


def _kvm_host(ns: Namespace) -> None:
    """br0 (MTU 1500) over veth uplink eth1 (peer sw1) and a guest tap vnet0; eth2 up, outside br0."""
    ns.ip("link", "add", "eth1", "type", "veth", "peer", "name", "sw1")
    ns.ip("link", "add", "eth2", "type", "veth", "peer", "name", "sw2")
    ns.ip("link", "add", "br0", "type", "bridge")
    ns.ip("tuntap", "add", "dev", "vnet0", "mode", "tap")
    for member in ("eth1", "vnet0"):
        ns.ip("link", "set", member, "master", "br0")
    ns.ip("link", "set", "eth2", "mtu", "9000")
    ns.ip("link", "set", "sw2", "mtu", "9000")
    for link in ("eth1", "sw1", "eth2", "sw2", "vnet0", "br0"):
        ns.ip("link", "set", link, "up")


@needs_netns
@needs_libvirt
def test_collect_namespace_and_libvirt_test_driver(netns: Namespace, tmp_path: Path) -> None:
    _kvm_host(netns)
    out = tmp_path / "kvm.json"
    done = netns.collect(
        "--local", "--name", "kvm-test", "--no-lldp", "--libvirt-uri", f"test://{NODE_XML}", "-o", str(out)
    )
    assert done.returncode == 0, done.stderr
    host = load_snapshot(out).kvm_hosts[0]
    interfaces = {i.name: i for i in host.interfaces}
    assert set(interfaces) == {"lo", "eth1", "sw1", "eth2", "sw2", "br0", "vnet0"}
    assert [(n, interfaces[n].kind, interfaces[n].master) for n in ("eth1", "vnet0", "br0", "eth2")] == [
        ("eth1", "veth", "br0"),
        ("vnet0", "tap", "br0"),
        ("br0", "bridge", None),
        ("eth2", "veth", None),
    ]
    assert (interfaces["eth2"].mtu, interfaces["eth1"].mtu, interfaces["br0"].mtu) == (9000, 1500, 1500)
    assert interfaces["eth1"].operstate == "up"
    # veth reports 10 Gb/s full duplex once up; a tap without a reader has no carrier and no speed.
    assert (interfaces["eth1"].speed_mbps, interfaces["eth1"].duplex) == (10000, "full")
    assert [(b.name, sorted(b.members), b.stp) for b in host.bridges] == [("br0", ["eth1", "vnet0"], False)]
    assert host.bonds == [] and host.pci_devices == []
    assert host.vhost_net == Path("/dev/vhost-net").exists()
    assert [(d.name, [(i.model, i.source, i.mtu) for i in d.interfaces]) for d in host.domains] == [
        ("db01", [("virtio", "br0", 9000), ("virtio", "backup", None)]),
        ("legacy01", [("rtl8139", "br0", None), ("e1000", "eno3", None)]),
    ]
    assert [(n.name, n.forward_mode, n.bridge, n.mtu) for n in host.networks] == [
        ("backup", "nat", "virbr1", 9000),
        ("isolated", "isolated", "virbr2", None),
    ]


@needs_netns
@needs_libvirt
def test_collected_namespace_gives_guest_findings(netns: Namespace, tmp_path: Path) -> None:
    """A 9000-byte guest on the namespace's 1500 bridge, and the emulated NICs, found from a real collection."""
    _kvm_host(netns)
    out = tmp_path / "kvm.json"
    done = netns.collect(
        "--local", "--name", "kvm-test", "--no-lldp", "--libvirt-uri", f"test://{NODE_XML}", "-o", str(out)
    )
    assert done.returncode == 0, done.stderr
    _, result = check_paths([out], load_rules())
    found = {(f.code, f.object): f for f in result.findings}
    mtu = found[("MT101", "kvm-test/db01/52:54:00:1a:00:01")]
    assert mtu.actual == 9000 and mtu.expected == 1500
    assert "br0 1500, eth1 1500" in mtu.message
    assert {k for k in found if k[0] == "VN101"} == {
        ("VN101", "kvm-test/legacy01/52:54:00:1a:00:02"),
        ("VN101", "kvm-test/legacy01/52:54:00:1a:00:12"),
    }
    # The guest on the 9000 libvirt network whose bridge is not on this host is not judged against eth1.
    assert ("MT101", "kvm-test/db01/52:54:00:1a:00:11") not in found
    # veth pairs are not physical NICs: no uplink of this host waits for a switch port.
    assert result.unresolved == []


@needs_netns
@pytest.mark.parametrize("mode", ["802.3ad", "active-backup"])
def test_collect_bond(netns: Namespace, tmp_path: Path, mode: str) -> None:
    refused = netns.ip("link", "add", "bond0", "type", "bond", "mode", mode, "miimon", "100", check=False)
    if refused.returncode != 0:
        reason = f"this kernel cannot create a {mode} bond: {refused.stderr.strip()}"
        print(reason)
        pytest.skip(reason)
    for n in (1, 2):
        netns.ip("link", "add", f"eth{n}", "type", "veth", "peer", "name", f"sw{n}")
        netns.ip("link", "set", f"eth{n}", "master", "bond0")
        netns.ip("link", "set", f"sw{n}", "up")
    netns.ip("link", "set", "bond0", "up")
    out = tmp_path / "kvm.json"
    done = netns.collect("--local", "--name", "kvm-test", "--no-lldp", "--no-libvirt", "-o", str(out))
    assert done.returncode == 0, done.stderr
    host = load_snapshot(out).kvm_hosts[0]
    bond = host.bonds[0]
    assert (bond.name, bond.mode, [m.name for m in bond.members]) == ("bond0", mode, ["eth1", "eth2"])
    assert {i.name: i.master for i in host.interfaces if i.name.startswith("eth")} == {"eth1": "bond0", "eth2": "bond0"}
    if mode == "802.3ad":
        # Plain veth peers send no LACPDUs: the kernel reports no partner.
        assert bond.partner_mac == "00:00:00:00:00:00"


@needs_netns
def test_collect_vlan(netns: Namespace, tmp_path: Path) -> None:
    netns.ip("link", "add", "eth1", "type", "veth", "peer", "name", "sw1")
    refused = netns.ip("link", "add", "link", "eth1", "name", "eth1.20", "type", "vlan", "id", "20", check=False)
    if refused.returncode != 0:
        reason = f"this kernel cannot create a VLAN interface: {refused.stderr.strip()}"
        print(reason)
        pytest.skip(reason)
    out = tmp_path / "kvm.json"
    done = netns.collect("--local", "--name", "kvm-test", "--no-lldp", "--no-libvirt", "-o", str(out))
    assert done.returncode == 0, done.stderr
    host = load_snapshot(out).kvm_hosts[0]
    assert [(v.name, v.vlan_id, v.parent) for v in host.vlans] == [("eth1.20", 20, "eth1")]


def _fake_ssh(tmp_path: Path, namespace: str) -> Path:
    """An `ssh` that runs the remote command inside the namespace; host `nowhere` cannot be resolved."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "ssh"
    script.write_text(
        "#!/bin/sh\n"
        'while [ "$1" = -o ]; do shift 2; done\n'
        'dest="$1"; shift\n'
        'case "$dest" in *nowhere*) echo "ssh: Could not resolve hostname nowhere: Name or service not known" >&2;'
        " exit 255;; esac\n"
        f'exec ip netns exec {namespace} sh -c "$*"\n'
    )
    script.chmod(0o755)
    return bin_dir


@needs_netns
def test_over_ssh_one_host_unreachable_keeps_the_other(netns: Namespace, tmp_path: Path) -> None:
    _kvm_host(netns)
    bin_dir = _fake_ssh(tmp_path, netns.name)
    out = tmp_path / "kvm.json"
    env = os.environ | {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    env.pop("HOSTLINT_SSH_PASSWORD", None)
    done = subprocess.run(
        [
            *HOSTLINT,
            "collect",
            "kvm",
            "--host",
            "root@kvm-a",
            "--host",
            "nowhere",
            "--no-lldp",
            "--no-libvirt",
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 3, done.stderr
    errors = [line for line in done.stderr.splitlines() if "nowhere" in line]
    assert errors == ["hostlint: nowhere: ssh: Could not resolve hostname nowhere: Name or service not known"]
    snapshot = load_snapshot(out)
    reached, lost = snapshot.kvm_hosts
    assert (reached.name, reached.connection_state, lost.name, lost.connection_state) == (
        "kvm-a",
        "connected",
        "nowhere",
        "unreachable",
    )
    assert {i.name for i in reached.interfaces} >= {"eth1", "br0", "vnet0"}
    assert [(b.name, sorted(b.members)) for b in reached.bridges] == [("br0", ["eth1", "vnet0"])]
    assert [e.target for e in snapshot.collection_errors] == ["nowhere"]


def test_real_ssh_client_refused_on_loopback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("ssh") is None:
        pytest.skip("no ssh client")
    monkeypatch.delenv("HOSTLINT_SSH_PASSWORD", raising=False)
    out = tmp_path / "kvm.json"
    known_hosts = tmp_path / "known_hosts"
    known_hosts.write_text("")
    code, stderr = collect_here(
        "--host",
        "nobody@127.0.0.1",
        "--ssh-option",
        "Port=1",
        "--known-hosts",
        str(known_hosts),
        "--no-libvirt",
        "-o",
        str(out),
    )
    assert code == Exit.PARTIAL
    first = stderr.splitlines()[0]
    assert first.startswith("hostlint: 127.0.0.1: ssh: ") and "refused" in first
    document = json.loads(out.read_text())
    assert document["kvm_hosts"][0]["connection_state"] == "unreachable"


@needs_libvirt
def test_bad_libvirt_uri_keeps_host_facts(tmp_path: Path) -> None:
    out = tmp_path / "kvm.json"
    missing = tmp_path / "no-such-node.xml"
    code, stderr = collect_here(
        "--local", "--name", "here", "--no-lldp", "--libvirt-uri", f"test://{missing}", "-o", str(out)
    )
    assert code == Exit.PARTIAL
    assert stderr.splitlines()[0].startswith(f"hostlint: here: libvirt test://{missing}: ")
    host = load_snapshot(out).kvm_hosts[0]
    assert host.interfaces and host.domains == []


def test_local_and_host_exclude_each_other(tmp_path: Path) -> None:
    code, message = collect_here("--local", "--host", "x", "-o", str(tmp_path / "x.json"))
    assert code == Exit.USAGE and "either --local or one or more --host" in message


def _stop(process: subprocess.Popen) -> None:
    """End a daemon this test started and the children it forked, by their ids."""
    children = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()
    process.terminate()
    for child in children:
        subprocess.run(["kill", child], capture_output=True, check=False)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@needs_netns
def test_lldp_neighbour_from_real_lldpd(tmp_path: Path) -> None:
    """lldpd on both ends of a veth pair; the collector reads the host side's `lldpctl -f json`."""
    lldpd, lldpctl, lldpcli = (shutil.which(name) for name in ("lldpd", "lldpctl", "lldpcli"))
    if not (lldpd and lldpctl and lldpcli):
        pytest.skip("lldpd is not installed (apt-get install lldpd)")
    host, switch = Namespace(), Namespace()
    daemons: list[subprocess.Popen] = []
    # lldpcli runs with lldpd's group: its sockets live where that group can reach them, not in tmp_path.
    socket_dir = Path(tempfile.mkdtemp(prefix="hostlint-lldp-"))
    socket_dir.chmod(0o755)
    sockets = {"switch": socket_dir / "switch.sock", "host": socket_dir / "host.sock"}
    try:
        subprocess.run(
            [
                "ip",
                "link",
                "add",
                "eno1",
                "netns",
                host.name,
                "type",
                "veth",
                "peer",
                "name",
                "Ethernet7",
                "netns",
                switch.name,
            ],
            check=True,
            capture_output=True,
        )
        for namespace, link in ((host, "eno1"), (switch, "Ethernet7")):
            namespace.ip("link", "set", link, "up")
            namespace.ip("link", "set", "lo", "up")
        commands = {
            "switch": [
                "configure system hostname leaf1.lab.example",
                "configure lldp portidsubtype ifname",
                "configure lldp tx-interval 1",
                "resume",
            ],
            # lldpd starts paused until its own lldpcli says `resume`; say it again in case that one lost a race.
            "host": ["resume"],
        }
        for namespace, name, link, extra in (
            (switch, "switch", "Ethernet7", ["-S", "Arista Networks EOS version 4.31.2F", "-m", "10.20.0.11"]),
            (host, "host", "eno1", []),
        ):
            daemons.append(
                subprocess.Popen(
                    ["ip", "netns", "exec", namespace.name, lldpd, "-d", "-u", str(sockets[name]), "-I", link, *extra],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
            cli = ["ip", "netns", "exec", namespace.name, lldpcli, "-u", str(sockets[name])]
            for command in commands[name]:
                for _ in range(50):  # until the daemon listens on its socket
                    done = subprocess.run([*cli, *command.split()], capture_output=True, text=True, timeout=10)
                    if done.returncode == 0:
                        break
                    time.sleep(0.2)
                assert done.returncode == 0, done.stderr
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        wrapper = bin_dir / "lldpctl"
        wrapper.write_text(f'#!/bin/sh\nexec {lldpctl} -u {sockets["host"]} "$@"\n')
        wrapper.chmod(0o755)
        env = os.environ | {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
        out = tmp_path / "kvm.json"
        neighbour = None
        for _ in range(30):
            # Until both daemons are up lldpctl may fail or print nothing: the collector then reports it.
            collected = subprocess.run(
                [
                    "ip",
                    "netns",
                    "exec",
                    host.name,
                    *HOSTLINT,
                    "collect",
                    "kvm",
                    "--local",
                    "--name",
                    "kvm-test",
                    "--no-libvirt",
                    "-o",
                    str(out),
                ],
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            if collected.returncode != 0:
                time.sleep(0.5)
                continue
            neighbour = {i.name: i.neighbour for i in load_snapshot(out).kvm_hosts[0].interfaces}["eno1"]
            heard = (neighbour.system_name, neighbour.port_id) if neighbour else None
            if heard == ("leaf1.lab.example", "Ethernet7"):
                break
            time.sleep(0.5)
        assert collected.returncode == 0, collected.stderr
        seen = subprocess.run(
            ["ip", "netns", "exec", host.name, str(wrapper), "-f", "json"], capture_output=True, text=True, check=False
        )
        assert neighbour is not None, f"lldpd heard nothing: {seen.stdout} {seen.stderr}"
        assert (neighbour.protocol, neighbour.system_name, neighbour.port_id, neighbour.mgmt_address) == (
            "lldp",
            "leaf1.lab.example",
            "Ethernet7",
            "10.20.0.11",
        )
        assert neighbour.platform == "Arista Networks EOS version 4.31.2F"
    finally:
        for daemon in daemons:
            _stop(daemon)
        host.delete()
        switch.delete()
        shutil.rmtree(socket_dir, ignore_errors=True)


def _wait_for(path: Path, seconds: float = 10.0) -> None:
    for _ in range(int(seconds * 10)):
        if path.exists():
            return
        time.sleep(0.1)
    raise AssertionError(f"{path} did not appear")


@needs_netns
def test_ovs_bonds_from_real_open_vswitch(netns: Namespace, tmp_path: Path) -> None:
    """ovsdb-server and ovs-vswitchd (userspace datapath) in the namespace; two LACP bonds, one answered."""
    tools = [shutil.which(name) for name in ("ovsdb-tool", "ovsdb-server", "ovs-vswitchd", "ovs-vsctl", "ovs-appctl")]
    if not all(tools):
        pytest.skip("Open vSwitch is not installed (apt-get install openvswitch-switch)")
    ovsdb_tool, ovsdb_server, vswitchd, vsctl, appctl = tools
    run = Path(tempfile.mkdtemp(prefix="hostlint-ovs-"))
    env = os.environ | {"OVS_RUNDIR": str(run), "OVS_LOGDIR": str(run), "OVS_DBDIR": str(run)}
    db = f"unix:{run}/db.sock"
    daemons: list[subprocess.Popen] = []
    try:
        subprocess.run(
            [ovsdb_tool, "create", str(run / "conf.db"), "/usr/share/openvswitch/vswitch.ovsschema"],
            check=True,
            capture_output=True,
        )
        daemons.append(
            subprocess.Popen(
                ["ip", "netns", "exec", netns.name, ovsdb_server, f"--remote=p{db}", str(run / "conf.db")],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        _wait_for(run / "db.sock")
        subprocess.run([vsctl, f"--db={db}", "--no-wait", "init"], check=True, capture_output=True, env=env)
        daemons.append(
            subprocess.Popen(
                ["ip", "netns", "exec", netns.name, vswitchd, db, f"--pidfile={run}/vswitchd.pid"],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        _wait_for(run / "vswitchd.pid")
        for n in range(1, 5):
            netns.ip("link", "add", f"eno{n}", "type", "veth", "peer", "name", f"sw{n}")
            netns.ip("link", "set", f"eno{n}", "up")
            netns.ip("link", "set", f"sw{n}", "up")
        vsctl_db = [vsctl, f"--db={db}", "--timeout=20"]
        for command in (
            "add-br br-host -- set bridge br-host datapath_type=netdev",
            "add-br br-sw -- set bridge br-sw datapath_type=netdev",
            "add-bond br-host bond1 eno1 eno2 bond_mode=balance-tcp lacp=active other_config:lacp-time=fast",
            "add-bond br-sw po1 sw1 sw2 bond_mode=balance-tcp lacp=active",
            "add-bond br-host bond4 eno3 eno4 bond_mode=balance-tcp lacp=active",
        ):
            subprocess.run([*vsctl_db, *command.split()], check=True, capture_output=True, env=env)
        control = run / f"ovs-vswitchd.{(run / 'vswitchd.pid').read_text().strip()}.ctl"
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        # The collector runs the plain commands; these point them at this test's daemons.
        for name, command in (("ovs-appctl", f"{appctl} -t {control}"), ("ovs-vsctl", f"{vsctl} --db={db}")):
            wrapper = bin_dir / name
            wrapper.write_text(f'#!/bin/sh\nexec {command} "$@"\n')
            wrapper.chmod(0o755)
        path_env = os.environ | {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
        out = tmp_path / "kvm.json"
        bonds = {}
        for _ in range(40):  # LACP needs a few PDUs (fast rate: one a second) to negotiate
            done = netns.collect(
                "--local", "--name", "kvm-ovs", "--no-lldp", "--no-libvirt", "-o", str(out), env=path_env
            )
            assert done.returncode == 0, done.stderr
            bonds = {b.name: b for b in load_snapshot(out).kvm_hosts[0].bonds}
            if bonds.get("bond1") and bonds["bond1"].partner_mac not in (None, "00:00:00:00:00:00"):
                break
            time.sleep(0.5)
        assert sorted(bonds) == ["bond1", "bond4", "po1"]
        answered, unanswered = bonds["bond1"], bonds["bond4"]
        assert (answered.implementation, answered.mode, answered.lacp_rate) == ("ovs", "balance-tcp", "fast")
        # Each side of the negotiated pair names the other's system id as its partner.
        assert None not in (answered.partner_mac, bonds["po1"].partner_mac)
        assert "00:00:00:00:00:00" not in (answered.partner_mac, bonds["po1"].partner_mac)
        assert answered.partner_mac != bonds["po1"].partner_mac
        assert unanswered.partner_mac == "00:00:00:00:00:00"
        # OVS disabled bond4's members (LACP failed) but their links are up: LG104 says why.
        assert [(m.name, m.link_up, m.speed_mbps) for m in unanswered.members] == [
            ("eno3", True, 10000),
            ("eno4", True, 10000),
        ]
        bridges = {b.name: sorted(b.members) for b in load_snapshot(out).kvm_hosts[0].bridges}
        assert bridges == {"br-host": ["bond1", "bond4"], "br-sw": ["po1"]}
        _, result = check_paths([out], load_rules())
        lg104 = {f.object for f in result.findings if f.code == "LG104"}
        assert lg104 == {"kvm-ovs/bond4"}
        bond_facts = {b.object: b for b in build_facts(load_snapshot(out)).bonds}
        assert (bond_facts["kvm-ovs/bond1"].kind, bond_facts["kvm-ovs/bond1"].bridge) == ("ovs-bond", "br-host")
    finally:
        for daemon in daemons:
            _stop(daemon)
        shutil.rmtree(run, ignore_errors=True)


@needs_netns
def test_over_real_openssh(netns: Namespace, tmp_path: Path) -> None:
    """A real sshd on the namespace's loopback (key login); the collector reaches it with the system ssh."""
    sshd = shutil.which("sshd") or "/usr/sbin/sshd"
    if not Path(sshd).exists() or shutil.which("ssh-keygen") is None:
        pytest.skip("OpenSSH server is not installed (apt-get install openssh-server)")
    _kvm_host(netns)
    netns.ip("link", "set", "lo", "up")
    for key in ("host_key", "client_key"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / key)], check=True)
    (tmp_path / "authorized_keys").write_text((tmp_path / "client_key.pub").read_text())
    config = tmp_path / "sshd_config"
    config.write_text(
        f"ListenAddress 127.0.0.1:2222\nHostKey {tmp_path}/host_key\nAuthorizedKeysFile {tmp_path}/authorized_keys\n"
        f"PidFile {tmp_path}/sshd.pid\nPermitRootLogin prohibit-password\nPasswordAuthentication no\n"
        "KbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\n"
    )
    Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation directory
    sshd_log = tmp_path / "sshd.log"
    daemon = subprocess.Popen(
        ["ip", "netns", "exec", netns.name, sshd, "-D", "-e", "-f", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=sshd_log.open("w"),
        text=True,
    )

    def logins() -> int:
        return sshd_log.read_text().count("Accepted publickey")

    options = [f"IdentityFile={tmp_path}/client_key", "Port=2222", "LogLevel=ERROR"]
    known_hosts = tmp_path / "known_hosts"
    known_hosts.write_text(f"[127.0.0.1]:2222 {(tmp_path / 'host_key.pub').read_text()}")
    try:
        _wait_for(tmp_path / "sshd.pid")
        out = tmp_path / "kvm.json"
        env = {k: v for k, v in os.environ.items() if k != "HOSTLINT_SSH_PASSWORD"}
        done = netns.collect(
            "--host",
            "root@127.0.0.1",
            *[arg for o in options for arg in ("--ssh-option", o)],
            "--no-lldp",
            "--no-libvirt",
            "--known-hosts",
            str(known_hosts),
            "-o",
            str(out),
            env=env,
        )
        assert done.returncode == 0, done.stderr
        host = load_snapshot(out).kvm_hosts[0]
        assert (host.name, host.connection_state) == ("127.0.0.1", "connected")
        interfaces = {i.name: i for i in host.interfaces}
        assert {"eth1", "eth2", "br0", "vnet0"} <= set(interfaces)
        assert (interfaces["eth2"].mtu, interfaces["eth1"].master, interfaces["vnet0"].kind) == (9000, "br0", "tap")
        assert [(b.name, sorted(b.members)) for b in host.bridges] == [("br0", ["eth1", "vnet0"])]
        # Every command of the collection (file batches, ip, ovs-appctl, ...) rode on one SSH connection.
        assert logins() == 1
        if importlib.util.find_spec("libvirt") is None:
            pytest.skip("the libvirt half needs libvirt-python (apt-get install libvirt-dev; pip install -e '.[kvm]')")
        # libvirt's own ssh is hostlint's ssh (the URI's `command`): it verifies the host key against the
        # --known-hosts file (not the user's known_hosts, which the test keeps free of this key) and rides on
        # the same one connection; the far side has no libvirt to reach, a named collection error.
        forget = ["ssh-keygen", "-R", "[127.0.0.1]:2222"]
        subprocess.run(forget, capture_output=True, check=False)
        done = netns.collect(
            "--host",
            "root@127.0.0.1",
            *[arg for o in options for arg in ("--ssh-option", o)],
            "--no-lldp",
            "--known-hosts",
            str(known_hosts),
            "-o",
            str(out),
            env=env,
        )
        assert done.returncode == 3, done.stderr
        libvirt = [line for line in done.stderr.splitlines() if "libvirt qemu+ssh://" in line]
        assert len(libvirt) == 1, done.stderr
        assert libvirt[0].startswith("hostlint: 127.0.0.1: libvirt qemu+ssh://root@127.0.0.1:2222/system?"), libvirt
        assert "refused" not in libvirt[0] and "Permission denied" not in libvirt[0], libvirt
        assert "keyfile=" in libvirt[0] and "command=" not in libvirt[0], libvirt
        assert "Host key verification failed" not in libvirt[0] and "host key" not in libvirt[0], libvirt
        assert logins() == 2, sshd_log.read_text()
        subprocess.run(forget, capture_output=True, check=False)
    finally:
        _stop(daemon)
