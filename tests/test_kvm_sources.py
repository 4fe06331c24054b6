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
import time
from pathlib import Path

import pytest

from hostlint.check import check_paths
from hostlint.join import build_facts
from hostlint.rules import load_rules
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

    def collect(*options: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [*HOSTLINT, "collect", "kvm", "--local", "--name", "plain", "--no-libvirt", *options, "-o", str(out)],
            capture_output=True,
            text=True,
            env=os.environ | {"PATH": str(bin_dir)},
            timeout=120,
            check=False,
        )

    done = collect("--no-lldp")
    assert not [line for line in done.stderr.splitlines() if "OVS" in line or "LLDP" in line], done.stderr
    # lldpd is expected unless --no-lldp says the host runs none: its client missing is then a failure.
    done = collect()
    assert done.returncode == 3, done.stderr
    assert [line for line in done.stderr.splitlines() if "OVS" in line or "LLDP" in line] == [
        "hostlint: plain: LLDP neighbours not read: lldpctl is not installed (--no-lldp for a host without lldpd)"
    ]


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


OVSDB_TOOLS = {name: shutil.which(name) for name in ("ovsdb-tool", "ovsdb-server", "ovs-vsctl", "ip")}
KVM_BONDS_SWITCHES = Path(__file__).resolve().parent.parent / "fixtures" / "labs" / "kvm-bonds" / "switches.json"
COLLECT_DENIED = ["collect", "kvm", "--local", "--name", "kvm-denied", "--no-libvirt"]
BOND_RULES = ("LG101", "LG102", "LG103", "LG104", "LG105")


def _wait_for(path: Path, seconds: float = 10.0) -> None:
    for _ in range(int(seconds * 10)):
        if path.exists():
            return
        time.sleep(0.1)
    raise AssertionError(f"{path} did not appear")


@pytest.mark.skipif(not all(OVSDB_TOOLS.values()), reason="needs ovsdb-server, ovs-vsctl and iproute2")
def test_ovs_bonds_whose_state_is_refused_are_listed_and_their_rules_skipped(tmp_path: Path) -> None:
    """A real OVSDB lists two bonds; ovs-vswitchd's control socket refuses ovs-appctl; lldpd is not there.

    The bonds are kept with mode and LACP state unknown, and every bond rule is skipped for each,
    naming the bond and the fact, with the switch side known from a cabling file."""
    namespace = f"hl-{os.getpid()}-ovsdb"
    run = Path(tempfile.mkdtemp(prefix="hostlint-ovsdb-"))
    run.chmod(0o755)
    db = f"unix:{run}/db.sock"
    control = socket.socket(socket.AF_UNIX)
    server = None
    subprocess.run(["ip", "netns", "add", namespace], check=True, capture_output=True)
    try:
        subprocess.run(
            [OVSDB_TOOLS["ovsdb-tool"], "create", str(run / "conf.db"), "/usr/share/openvswitch/vswitch.ovsschema"],
            check=True,
            capture_output=True,
        )
        server = subprocess.Popen(
            [OVSDB_TOOLS["ovsdb-server"], f"--remote=p{db}", f"--unixctl={run}/ovsdb.ctl", str(run / "conf.db")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_for(run / "db.sock")
        for n in range(1, 5):
            subprocess.run(
                ["ip", "-n", namespace, "link", "add", f"eno{n}", "type", "veth", "peer", "name", f"sw{n}"], check=True
            )
            for end in (f"eno{n}", f"sw{n}"):
                subprocess.run(["ip", "-n", namespace, "link", "set", end, "up"], check=True)
        vsctl = [OVSDB_TOOLS["ovs-vsctl"], f"--db={db}", "--no-wait", "--timeout=20"]
        for command in (
            "init",
            "add-br br-host",
            "add-bond br-host bond1 eno1 eno2 bond_mode=balance-tcp lacp=active",
            "add-bond br-host bond2 eno3 eno4 bond_mode=balance-slb",
            # A guest's port, tagged in OVSDB (no ovs-vswitchd needed to store it).
            "add-port br-host vnet0 tag=30",
        ):
            subprocess.run([*vsctl, *command.split()], check=True, capture_output=True)
        control.bind(str(run / "ovs-vswitchd.ctl"))
        control.listen()
        (run / "ovs-vswitchd.ctl").chmod(0o600)  # root only: ovs-appctl as nobody is refused by the kernel
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        nobody = "--reuid=65534 --regid=65534 --clear-groups"
        _wrapper(bin_dir, "ovs-appctl", f"{TOOLS['setpriv']} {nobody} {TOOLS['ovs-appctl']} -t {run}/ovs-vswitchd.ctl")
        _wrapper(bin_dir, "ovs-vsctl", f"{OVSDB_TOOLS['ovs-vsctl']} --db={db}")
        _wrapper(bin_dir, "lldpctl", f"{TOOLS['lldpctl']} -u {run}/lldpd.socket")
        env = os.environ | {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
        out = tmp_path / "kvm.json"
        done = subprocess.run(
            ["ip", "netns", "exec", namespace, *HOSTLINT, *COLLECT_DENIED, "-o", str(out)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
    finally:
        control.close()
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
        subprocess.run(["ip", "netns", "delete", namespace], capture_output=True, check=False)
        shutil.rmtree(run, ignore_errors=True)
    assert done.returncode == 3, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("hostlint: kvm-denied:")]
    assert [line.split(": ")[2] for line in errors] == ["OVS bonds not read", "LLDP neighbours not read"]
    assert 'ovs-vswitchd.ctl" (Permission denied)' in errors[0]

    host = load_snapshot(out).kvm_hosts[0]
    bonds = {b.name: (b.implementation, b.mode, b.partner_mac, [m.name for m in b.members]) for b in host.bonds}
    assert bonds == {
        "bond1": ("ovs", None, None, ["eno1", "eno2"]),
        "bond2": ("ovs", None, None, ["eno3", "eno4"]),
    }
    assert {b.name: sorted(b.members) for b in host.bridges} == {"br-host": ["bond1", "bond2", "vnet0"]}
    # OVSDB answers for the port VLANs although ovs-vswitchd does not.
    assert {p.name: (p.tag, p.trunks) for p in host.ovs_ports or []} == {
        "br-host": (None, []),
        "bond1": (None, []),
        "bond2": (None, []),
        "vnet0": (30, []),
    }

    cabling = tmp_path / "cabling.yaml"
    cabling.write_text(
        "cabling:\n"
        + "".join(f"  - {{host: kvm-denied, nic: eno{n}, switch: leaf1, port: Ethernet{n}}}\n" for n in range(1, 5))
    )
    _, result = check_paths([out, KVM_BONDS_SWITCHES, cabling], load_rules())
    import shutil as _s

    _s.copy(out, "/tmp/kvm-denied.json")
    _s.copy(cabling, "/tmp/cabling.yaml")
    on_bonds = {"kvm-denied/bond1", "kvm-denied/bond2"}
    vnet0 = next(p for p in build_facts(load_snapshot(out)).portgroups if p.portgroup == "vnet0")
    assert (vnet0.object, vnet0.vlan_type, vnet0.vlan) == ("kvm-denied/br-host/vnet0", "vlan", 30)
    assert [u.nic for u in vnet0.uplinks] == ["eno1", "eno2", "eno3", "eno4"]
    # Neither fired nor passed: every mode-dependent bond rule is skipped, naming bond and fact. (Rules
    # on what was read, such as LK101 on the members' sysfs speeds, still run.)
    assert not [f for f in result.findings if f.object in on_bonds and f.code in BOND_RULES]
    assert not [p for p in result.passed if p.object in on_bonds and p.code in BOND_RULES]
    skipped = {(s.code, s.object): s.reason for s in result.skipped if s.object in on_bonds and s.code in BOND_RULES}
    # bond2's switch ports are a static channel: LACP negotiation (LG104) is out of the question whatever its
    # mode; whether it runs LACP towards them at all is LG101's to say, skipped too.
    expected = {(code, bond) for code in BOND_RULES for bond in on_bonds} - {("LG104", "kvm-denied/bond2")}
    assert set(skipped) == expected
    for (_, bond), reason in skipped.items():
        name = bond.split("/")[1]
        assert f"kvm-denied {name}: ovs bond mode unknown (`ovs-appctl bond/show` for {name} not read)" in reason
