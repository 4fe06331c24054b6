"""Each KVM source in its states: yields facts, not installed (silent), installed but not answering, answering
with nothing (collection errors naming the source, exit 3). Every wait bounded by `collect kvm --timeout`.

The kernel of the CI machine has no bonding module, so Linux bonds are shown to the collector the way the
kernel would show them: a private mount namespace (`unshare -m`) puts a sysfs-shaped folder on
/sys/class/net and a /proc/net-shaped one on the collector's own /proc/PID/net (what /proc/net resolves to),
with a /proc/net/bonding file captured from a real kernel (fixtures/kvm/bonding). The collector reads them
with its ordinary file reads.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hung_peer import HungPeer

from hostlint.check import check_paths
from hostlint.rules import load_rules
from hostlint.snapshot import load_snapshot

HOSTLINT = [sys.executable, "-c", "from hostlint.cli.main import main; main()"]
BONDING_FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "kvm" / "bonding" / "active-backup"
BOND_RULES = ("LG101", "LG102", "LG103", "LG104", "LG105")

needs_root_mounts = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None, reason="mount namespaces need root and unshare"
)
needs_libvirt = pytest.mark.skipif(importlib.util.find_spec("libvirt") is None, reason="libvirt-python")


def _netdev(root: Path, name: str, devtype: str | None = None, master: str | None = None, index: int = 2) -> None:
    """One /sys/class/net/NAME folder as the kernel fills it (one value per file)."""
    folder = root / name
    folder.mkdir()
    uevent = f"DEVTYPE={devtype}\n" if devtype else ""
    values = {
        "uevent": f"{uevent}INTERFACE={name}\nIFINDEX={index}\n",
        "mtu": "1500\n",
        "address": f"52:54:00:00:00:{index:02x}\n",
        "operstate": "up\n",
        "speed": "10000\n",
        "duplex": "full\n",
        "ifindex": f"{index}\n",
        "iflink": f"{index}\n",
    }
    for file, value in values.items():
        (folder / file).write_text(value)
    if master:
        (folder / "master").symlink_to(f"../{master}")


def _sysfs_with_bond(tmp_path: Path) -> Path:
    """lo, a bond `bond4` and its members eth6 and eth7, as sysfs shows them."""
    root = tmp_path / "class-net"
    root.mkdir()
    _netdev(root, "lo", index=1)
    _netdev(root, "bond4", devtype="bond", index=2)
    _netdev(root, "eth6", master="bond4", index=3)
    _netdev(root, "eth7", master="bond4", index=4)
    return root


def _proc_net(tmp_path: Path, bonding: str | None) -> Path:
    """A /proc/net: `bonding` None leaves out /proc/net/bonding, "" makes it empty, else bond4's file."""
    root = tmp_path / "proc-net"
    root.mkdir()
    if bonding is not None:
        (root / "bonding").mkdir()
        if bonding:
            (root / "bonding" / "bond4").write_text(bonding)
    return root


def _collect_mounted(
    tmp_path: Path, class_net: Path, proc_net: Path | None, *options: str, path: str | None = None
) -> tuple[subprocess.CompletedProcess, Path]:
    """`collect kvm --local` in a private mount namespace seeing these folders as /sys/class/net and /proc/net."""
    out = tmp_path / "kvm.json"
    mounts = f"mount --bind {class_net} /sys/class/net"
    if proc_net is not None:
        # /proc/net is /proc/self/net: bind over this shell's, which `exec` hands on to the collector.
        mounts += f' && mount --bind {proc_net} "/proc/$$/net"'
    collect = " ".join([*HOSTLINT[:2], f"'{HOSTLINT[2]}'", "collect", "kvm", "--local", "--name", "kvm-b"])
    env = f"PATH={path} " if path else ""
    script = f"{mounts} && {env}exec {collect} --no-libvirt --no-lldp {' '.join(options)} -o {out}"
    done = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done, out


def _errors(done: subprocess.CompletedProcess) -> list[str]:
    return [line.split(": ", 2)[2] for line in done.stderr.splitlines() if line.startswith("hostlint: kvm-b: ")]


@needs_root_mounts
def test_linux_bond_read_from_proc_net_bonding(tmp_path: Path) -> None:
    """Yields facts: sysfs shows bond4 and /proc/net/bonding/bond4 says its mode and members."""
    done, out = _collect_mounted(tmp_path, _sysfs_with_bond(tmp_path), _proc_net(tmp_path, BONDING_FIXTURE.read_text()))
    assert done.returncode == 0, done.stderr
    bond = load_snapshot(out).kvm_hosts[0].bonds[0]
    assert (bond.name, bond.mode, [m.name for m in bond.members]) == ("bond4", "active-backup", ["eth6", "eth7"])


@needs_root_mounts
def test_no_bond_and_no_proc_net_bonding_is_silent(tmp_path: Path) -> None:
    """Not installed: no bond in sysfs and no /proc/net/bonding (bonding module not loaded)."""
    root = tmp_path / "class-net"
    root.mkdir()
    _netdev(root, "lo", index=1)
    _netdev(root, "eth1", index=2)
    done, out = _collect_mounted(tmp_path, root, _proc_net(tmp_path, None))
    assert done.returncode == 0, done.stderr
    assert load_snapshot(out).kvm_hosts[0].bonds == []


@needs_root_mounts
@pytest.mark.parametrize(
    ("bonding", "reason"),
    [
        (None, "Linux bond bond4 not read: /proc/net/bonding is not there or not readable (sysfs shows bond4)"),
        ("", "Linux bond bond4 not read: /proc/net/bonding does not list it (sysfs shows bond4)"),
    ],
    ids=["proc-net-bonding-removed", "proc-net-bonding-empty"],
)
def test_bond_in_sysfs_without_its_bonding_file_is_named_and_kept(
    tmp_path: Path, bonding: str | None, reason: str
) -> None:
    """Not answering (/proc/net/bonding gone) and answering with nothing (bond4 not in it): the bond stays,
    mode unknown, members from sysfs; exit 3 naming the source; every bond rule skipped naming the file."""
    started = time.monotonic()
    done, out = _collect_mounted(tmp_path, _sysfs_with_bond(tmp_path), _proc_net(tmp_path, bonding), "--timeout", "5")
    assert time.monotonic() - started < 30
    assert done.returncode == 3, done.stderr
    assert _errors(done) == [reason]
    bond = load_snapshot(out).kvm_hosts[0].bonds[0]
    assert (bond.name, bond.implementation, bond.mode, [m.name for m in bond.members]) == (
        "bond4",
        "linux",
        None,
        ["eth6", "eth7"],
    )
    _, result = check_paths([out], load_rules())
    on_bond = [f for f in [*result.findings, *result.passed] if f.object == "kvm-b/bond4" and f.code in BOND_RULES]
    assert on_bond == []
    skipped = {s.code: s.reason for s in result.skipped if s.object == "kvm-b/bond4"}
    assert skipped, "the bond rules say they skipped bond4"
    assert skipped["LG101"] == "kvm-b bond4: bond mode unknown (/proc/net/bonding/bond4 (Bonding Mode) not read)"
    # Each reason names the file not read, the members' link state included (bond4's file, not theirs).
    assert all("(/proc/net/bonding/bond4 (" in r for r in skipped.values()), skipped


@needs_root_mounts
def test_sysfs_answering_with_nothing(tmp_path: Path) -> None:
    """/sys/class/net listing no interface at all: the host is unreachable, named; an interface folder
    without its files: an error naming it, the other interfaces kept."""
    empty = tmp_path / "empty"
    empty.mkdir()
    done, out = _collect_mounted(tmp_path, empty, None)
    assert done.returncode == 3, done.stderr
    assert _errors(done) == ["sysfs: /sys/class/net lists no interfaces (not even lo)"]
    assert load_snapshot(out).kvm_hosts[0].connection_state == "unreachable"

    root = tmp_path / "class-net"
    root.mkdir()
    _netdev(root, "lo", index=1)
    _netdev(root, "eth1", index=2)
    (root / "eth2").mkdir()  # listed, nothing readable in it
    done, out = _collect_mounted(tmp_path, root, None)
    assert done.returncode == 3, done.stderr
    assert _errors(done) == [
        "sysfs: /sys/class/net/eth2 not readable (listed, its uevent not there): its facts are unknown"
    ]
    interfaces = {i.name: i.mtu for i in load_snapshot(out).kvm_hosts[0].interfaces}
    assert interfaces == {"lo": 1500, "eth1": 1500, "eth2": None}


@needs_root_mounts
def test_ovs_datapath_in_sysfs_without_ovs_tools_is_named(tmp_path: Path) -> None:
    """The kernel shows Open vSwitch datapath ports (DEVTYPE=openvswitch) but `ovs-appctl` is not there:
    OVS is in use on this host and cannot be read, so it is not taken for "no OVS"."""
    root = tmp_path / "class-net"
    root.mkdir()
    _netdev(root, "lo", index=1)
    _netdev(root, "ovs-system", devtype="openvswitch", index=2)
    _netdev(root, "br-host", devtype="openvswitch", index=3)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("sh", "cat", "ls", "readlink"):
        os.symlink(shutil.which(name) or name, bin_dir / name)
    done, _ = _collect_mounted(tmp_path, root, None, path=str(bin_dir))
    assert done.returncode == 3, done.stderr
    assert _errors(done) == [
        "OVS not read: sysfs shows OVS datapath ports (br-host, ovs-system) but ovs-appctl is not installed"
    ]


def _path_with(tmp_path: Path, programs: dict[str, str]) -> dict[str, str]:
    """PATH with `programs` (name -> sh script body) first."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name, body in programs.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    return os.environ | {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


def _collect(*options: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*HOSTLINT, "collect", "kvm", "--local", "--name", "kvm-b", *options],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


def test_lldpctl_answering_with_nothing_is_named(tmp_path: Path) -> None:
    """lldpctl exiting 0 with no output at all (a fault a running lldpd does not make on request: a script)."""
    env = _path_with(tmp_path, {"lldpctl": "exit 0", "ovs-appctl": "exit 127"})
    done = _collect("--no-libvirt", "-o", str(tmp_path / "kvm.json"), env=env)
    assert done.returncode == 3, done.stderr
    assert _errors(done) == ["LLDP neighbours not read: lldpctl -f json answered with nothing"]


@needs_root_mounts
def test_lldpd_socket_without_lldpctl_is_named(tmp_path: Path) -> None:
    """lldpd's socket is there (a listening socket on /run/lldpd.socket), its client is not installed."""
    run = tmp_path / "run"
    run.mkdir()
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(run / "lldpd.socket"))
    listener.listen()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("sh", "cat", "ls", "readlink", "ip"):
        if found := shutil.which(name):
            os.symlink(found, bin_dir / name)
    out = tmp_path / "kvm.json"
    collect = " ".join([*HOSTLINT[:2], f"'{HOSTLINT[2]}'", "collect", "kvm", "--local", "--name", "kvm-b"])
    try:
        done = subprocess.run(
            [
                "unshare",
                "-m",
                "--propagation",
                "private",
                "sh",
                "-c",
                f"mount --bind {run} /run && PATH={bin_dir} exec {collect} --no-libvirt -o {out}",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        listener.close()
    assert done.returncode == 3, done.stderr
    assert _errors(done) == [
        "LLDP neighbours not read: lldpd's socket /run/lldpd.socket is there, lldpctl is not installed "
        "(--no-lldp for a host without lldpd)"
    ]


@needs_libvirt
@pytest.mark.parametrize("transport", ["tcp", "unix", "ssh"])
def test_mute_libvirt_endpoint_ends_within_the_timeout(tmp_path: Path, transport: str) -> None:
    """A libvirt endpoint that accepts and never answers, over each transport: exit 3 within about twice
    --timeout, naming libvirt, the URI and the phase it stopped in; the host's other facts kept."""
    with HungPeer() as peer:
        listener = None
        if transport == "tcp":
            uri = f"qemu+tcp://127.0.0.1:{peer.port}/system"
        elif transport == "ssh":
            # libvirt's own ssh waits for the server's banner, which never comes.
            uri = f"qemu+ssh://root@127.0.0.1:{peer.port}/system?no_tty=1"
        else:
            listener = socket.socket(socket.AF_UNIX)
            listener.bind(str(tmp_path / "libvirt-sock"))
            listener.listen()
            uri = f"qemu+unix:///system?socket={tmp_path / 'libvirt-sock'}"
        started = time.monotonic()
        try:
            done = _collect(
                "--no-lldp", "--libvirt-uri", uri, "--timeout", "3", "-o", str(tmp_path / "kvm.json"), timeout=60
            )
        finally:
            if listener is not None:
                listener.close()
        took = time.monotonic() - started
    assert done.returncode == 3, done.stderr
    assert _errors(done) == [f"libvirt {uri}: no answer within 3 s (connect)"]
    assert took < 2 * 3 + 4, took  # Python's start-up and the host's reads on top of the deadline
    assert load_snapshot(tmp_path / "kvm.json").kvm_hosts[0].interfaces


OVS_TOOLS = {
    n: shutil.which(n) for n in ("ovsdb-tool", "ovsdb-server", "ovs-vswitchd", "ovs-vsctl", "ovs-appctl", "ip")
}


def _wait_for(path: Path, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} did not appear"
        time.sleep(0.1)


def _stop(process: subprocess.Popen) -> None:
    """End a daemon this test started (`ip netns exec` execs it: the process is the daemon)."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@pytest.mark.skipif(os.geteuid() != 0 or not all(OVS_TOOLS.values()), reason="needs root, Open vSwitch, iproute2")
def test_ovs_vswitchd_stopped_while_ovsdb_runs_is_named_and_its_bonds_kept(tmp_path: Path) -> None:
    """Real ovsdb-server and ovs-vswitchd (userspace datapath) in a network namespace, found by the plain
    commands through OVS_RUNDIR: running, both answer (facts); ovs-vswitchd stopped, OVSDB still lists the
    bridge (exit 3 naming it, bonds kept mode unknown); both stopped, nothing configured runs (silent)."""
    namespace = f"hl-{os.getpid()}-ovsstop"
    run = tmp_path / "ovs"
    run.mkdir()
    env = os.environ | {"OVS_RUNDIR": str(run), "OVS_LOGDIR": str(run), "OVS_DBDIR": str(run)}
    daemons: dict[str, subprocess.Popen] = {}
    subprocess.run(["ip", "netns", "add", namespace], check=True, capture_output=True)
    in_ns = ["ip", "netns", "exec", namespace]
    try:
        subprocess.run(
            [OVS_TOOLS["ovsdb-tool"], "create", str(run / "conf.db"), "/usr/share/openvswitch/vswitch.ovsschema"],
            check=True,
            capture_output=True,
        )
        db = f"unix:{run}/db.sock"
        daemons["ovsdb-server"] = subprocess.Popen(
            [*in_ns, OVS_TOOLS["ovsdb-server"], f"--remote=p{db}", str(run / "conf.db")],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_for(run / "db.sock")
        subprocess.run([OVS_TOOLS["ovs-vsctl"], "--no-wait", "init"], check=True, capture_output=True, env=env)
        daemons["ovs-vswitchd"] = subprocess.Popen(
            [*in_ns, OVS_TOOLS["ovs-vswitchd"], db, "--pidfile"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_for(run / "ovs-vswitchd.pid")
        for n in (1, 2):
            subprocess.run(
                [*in_ns, "ip", "link", "add", f"eno{n}", "type", "veth", "peer", "name", f"sw{n}"], check=True
            )
            subprocess.run([*in_ns, "ip", "link", "set", f"eno{n}", "up"], check=True)
        for command in (
            "add-br br-host -- set bridge br-host datapath_type=netdev",
            "add-bond br-host bond1 eno1 eno2 bond_mode=balance-slb",
        ):
            subprocess.run([OVS_TOOLS["ovs-vsctl"], "--timeout=20", *command.split()], check=True, env=env)
        out = tmp_path / "kvm.json"
        collect = [*in_ns, *HOSTLINT, "collect", "kvm", "--local", "--name", "kvm-b", "--no-lldp", "--no-libvirt"]

        def collected() -> subprocess.CompletedProcess:
            return subprocess.run(
                [*collect, "--timeout", "10", "-o", str(out)], capture_output=True, text=True, env=env, timeout=120
            )

        done = collected()
        assert done.returncode == 0, done.stderr
        bonds = {b.name: (b.mode, [m.name for m in b.members]) for b in load_snapshot(out).kvm_hosts[0].bonds}
        assert bonds == {"bond1": ("balance-slb", ["eno1", "eno2"])}

        # A bond OVSDB holds over devices that are not there: ovs-vswitchd answers, and shows nothing of it.
        vsctl = [OVS_TOOLS["ovs-vsctl"], "--timeout=20"]
        subprocess.run([*vsctl, "add-bond", "br-host", "ghost", "gh1", "gh2"], capture_output=True, env=env)
        done = collected()
        assert done.returncode == 3, done.stderr
        assert _errors(done) == ["OVS bond ghost not read: OVSDB lists it, ovs-appctl bond/show does not show it"]
        bonds = {b.name: (b.mode, [m.name for m in b.members]) for b in load_snapshot(out).kvm_hosts[0].bonds}
        assert bonds == {"bond1": ("balance-slb", ["eno1", "eno2"]), "ghost": (None, ["gh1", "gh2"])}
        subprocess.run([*vsctl, "del-port", "ghost"], check=True, capture_output=True, env=env)

        _stop(daemons.pop("ovs-vswitchd"))
        started = time.monotonic()
        done = collected()
        assert time.monotonic() - started < 20
        assert done.returncode == 3, done.stderr
        errors = _errors(done)
        assert len(errors) == 1, done.stderr
        assert errors[0].startswith("OVS bonds not read: ovs-vswitchd is not answering (ovs-appctl bond/show: ")
        assert errors[0].endswith("(No such file or directory)) while OVSDB lists bridges br-host"), errors[0]
        bonds = {b.name: (b.mode, [m.name for m in b.members]) for b in load_snapshot(out).kvm_hosts[0].bonds}
        assert bonds == {"bond1": (None, ["eno1", "eno2"])}
        _, result = check_paths([out], load_rules())
        skipped = {s.code: s.reason for s in result.skipped if s.object == "kvm-b/bond1"}
        assert "ovs bond mode unknown (`ovs-appctl bond/show` for bond1 not read)" in skipped["LG101"]

        _stop(daemons.pop("ovsdb-server"))
        done = collected()
        assert done.returncode == 0, done.stderr
        assert load_snapshot(out).kvm_hosts[0].bonds == []
    finally:
        for daemon in daemons.values():
            _stop(daemon)
        subprocess.run(["ip", "netns", "delete", namespace], capture_output=True, check=False)


def test_mute_ssh_host_ends_within_the_timeout_from_cli_and_scan_inventory(tmp_path: Path) -> None:
    """An SSH port that accepts and never sends its banner: the host is unreachable, named, within about
    twice the timeout, from `collect kvm --timeout` and from a scan inventory's `timeout:`."""
    from hostlint.history.inventory import KvmEntry, KvmSource

    with HungPeer() as peer:
        started = time.monotonic()
        done = subprocess.run(
            [
                *HOSTLINT,
                "collect",
                "kvm",
                "--host",
                "root@127.0.0.1",
                "--ssh-option",
                f"Port={peer.port}",
                "--no-libvirt",
                "--no-lldp",
                "--timeout",
                "2",
                "-o",
                str(tmp_path / "kvm.json"),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        took = time.monotonic() - started
        entry = KvmEntry(host="root@127.0.0.1", ssh_options=[f"Port={peer.port}"], no_libvirt=True, timeout=2)
        started = time.monotonic()
        snapshot = KvmSource(entry).snapshot()
        scan_took = time.monotonic() - started
    assert done.returncode == 3, done.stderr
    first = done.stderr.splitlines()[0]
    assert first.startswith("hostlint: 127.0.0.1: ssh: "), first
    assert took < 2 * 2 + 4, took
    assert [e.reason.startswith("ssh: ") for e in snapshot.collection_errors] == [True]
    assert snapshot.kvm_hosts[0].connection_state == "unreachable"
    assert scan_took < 2 * 2 + 2, scan_took


def test_scan_inventory_kvm_entries_are_checked_like_the_options() -> None:
    from pydantic import ValidationError

    from hostlint.history.inventory import KvmEntry

    assert KvmEntry(host="root@kvm01").timeout == 60
    for bad in (
        {"host": ""},
        {"host": "kvm01", "ssh_options": ["Port=abc"]},
        {"host": "kvm01", "ssh_options": ["UserKnownHostsFile=/dev/null"]},
        {"host": "kvm01", "timeout": 0},
    ):
        with pytest.raises(ValidationError):
            KvmEntry.model_validate(bad)
