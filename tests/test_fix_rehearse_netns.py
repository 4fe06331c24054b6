"""KVM remediation rehearsed for real: the iproute2 scripts run inside a network namespace.

Each test builds a namespace (unique name, removed in teardown) seeded with a KVM host of the plan as
the snapshot has it: a veth pair per physical NIC, its bonds, bridges, VLAN interfaces and taps, each
at the snapshot's MTU and under the snapshot's master. hostlint's KVM collector (`collect kvm --local`
inside the namespace) reads it; each iproute2 step runs with `sh` inside the namespace
(`ip netns exec`); the collection after it goes back into the snapshot and `check` runs again: the
targeted findings are gone and nothing new appeared. The rollbacks run in reverse and the collection
equals the first one exactly. The other steps of the plan (switch, virsh) go through the simulated
applier; LACP with the switch is the simulated applier's too (a veth peer sends no LACPDU).

A device the kernel cannot make (no bonding or 802.1Q support: "Unknown device type") skips the
rehearsal of that host with the kernel's refusal and the steps that needed it.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hostlint.check import check_snapshot
from hostlint.fixes import build_plan
from hostlint.fixes.apply import _renegotiate, apply_change
from hostlint.fixes.scripts import script_name
from hostlint.fixes.write import write_plan
from hostlint.rules import load_rules
from hostlint.snapshot import Snapshot, load_site, load_snapshot
from hostlint.snapshot.kvm import KvmHost

ROOT = Path(__file__).resolve().parent.parent
LAB = ROOT / "fixtures" / "labs" / "kvm-bonds"
# No bond: rehearsed for real on a kernel without the bonding driver too (the host path's MTU raised).
JUMBO_LAB = ROOT / "fixtures" / "labs" / "kvm-jumbo-path"
RULES = load_rules()
HOSTLINT = [sys.executable, "-c", "from hostlint.cli.main import main; main()"]

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("ip") is None, reason="network namespaces need root and iproute2"
)


class Refused(Exception):
    """The kernel cannot make a device the host has."""


class HostNamespace:
    """A network namespace holding one KVM host's links."""

    def __init__(self) -> None:
        self.name = f"hlfix-{os.getpid()}-{secrets.token_hex(3)}"
        subprocess.run(["ip", "netns", "add", self.name], check=True, capture_output=True)

    def ip(self, *args: str) -> None:
        done = subprocess.run(["ip", "-n", self.name, *args], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise Refused(f"`ip {' '.join(args)}`: {done.stderr.strip()}")

    def seed(self, host: KvmHost, stand_in: bool = False) -> list[str]:
        """The host's links: veth per NIC (peer `hlpN`), bonds, bridges, VLANs, taps; MTU, master, up.

        With `stand_in`, a bond the kernel cannot make is a bridge of the same name holding the
        bond's ports (a bridge cannot sit in another bridge: the bond's own master is left out);
        returns what stands in, with the kernel's refusal."""
        standing: list[str] = []
        for number, nic in enumerate(i for i in host.interfaces if i.kind in ("physical", "veth")):
            self.ip("link", "add", nic.name, "type", "veth", "peer", "name", f"hlp{number}")
            self.ip("link", "set", f"hlp{number}", "mtu", str(nic.mtu or 1500), "up")
        for bond in host.bonds:
            options = {"mode": bond.mode, "miimon": bond.miimon, "xmit_hash_policy": bond.xmit_hash_policy}
            if bond.mode == "802.3ad":
                options["lacp_rate"] = bond.lacp_rate
            words = [w for key, value in options.items() if value is not None for w in (key, str(value))]
            try:
                self.ip("link", "add", bond.name, "type", "bond", *words)
            except Refused as refused:
                if not stand_in:
                    raise
                self.ip("link", "add", bond.name, "type", "bridge")
                standing.append(f"{bond.name}: a bridge stands in ({refused})")
        for bridge in host.bridges:
            self.ip("link", "add", bridge.name, "type", "bridge")
        for vlan in host.vlans:
            self.ip("link", "add", "link", vlan.parent, "name", vlan.name, "type", "vlan", "id", str(vlan.vlan_id))
        for tap in (i for i in host.interfaces if i.kind == "tap"):
            self.ip("tuntap", "add", "dev", tap.name, "mode", "tap")
        # Members first (a bond takes only ports that are down), then MTUs from the bottom up.
        stand_ins = {line.split(":")[0] for line in standing}
        for interface in host.interfaces:
            if interface.master and interface.name not in stand_ins:
                self.ip("link", "set", "dev", interface.name, "down")
                self.ip("link", "set", "dev", interface.name, "master", interface.master)
        for interface in host.interfaces:
            if interface.mtu:
                self.ip("link", "set", "dev", interface.name, "mtu", str(interface.mtu))
        for interface in host.interfaces:
            if interface.operstate == "up":
                self.ip("link", "set", "dev", interface.name, "up")
        return standing

    def collect(self, host: str, out: Path) -> KvmHost:
        argv = [*HOSTLINT, "collect", "kvm", "--local", "--name", host, "--no-lldp", "--no-libvirt", "-o", str(out)]
        done = subprocess.run(
            ["ip", "netns", "exec", self.name, *argv],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            env=os.environ | {"PYTHONPATH": str(ROOT)},
        )
        assert done.returncode == 0, done.stderr
        return load_snapshot(out).kvm_hosts[0]

    def run(self, script: Path, number: int) -> None:
        done = subprocess.run(
            ["ip", "netns", "exec", self.name, "sh", str(script), str(number)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, f"{script.name} {number}: {done.stdout}{done.stderr}"

    def answers_verify(self, script: Path, number: int) -> None:
        """The step's first verify command, run in the namespace, shows its first expect line."""
        text = script.read_text(encoding="utf-8")
        body = re.search(rf"^step_{number}\(\) \{{\n(.*?)^\}}", text, re.M | re.S)
        assert body, f"no step {number} in {script.name}"
        comments = [line.strip()[2:] for line in body.group(1).splitlines() if line.strip().startswith("#")]
        verify, expect = comments[comments.index("verify:") + 1].strip(), comments[comments.index("expect:") + 1]
        shown = subprocess.run(
            ["ip", "netns", "exec", self.name, "sh", "-c", verify], capture_output=True, text=True, timeout=60
        )
        assert shown.returncode == 0 and expect.strip() in shown.stdout, (verify, shown.stdout, shown.stderr)

    def delete(self) -> None:
        subprocess.run(["ip", "netns", "delete", self.name], capture_output=True, check=False)


@pytest.fixture
def namespace() -> Iterator[HostNamespace]:
    made = HostNamespace()
    try:
        yield made
    finally:
        made.delete()


def _links(host: KvmHost) -> dict[str, tuple]:
    """What seeding sets and the collector reads back: each link's kind (a veth stands for a NIC), MTU,
    master and state."""
    return {i.name: ("physical" if i.kind == "veth" else i.kind, i.mtu, i.master, i.operstate) for i in host.interfaces}


def _seeded(host: KvmHost, collected: KvmHost) -> tuple[dict, dict]:
    """(what the collection shows of the host's links, what the snapshot says); a tap with no reader
    has no carrier, which is the kernel's to say, not the snapshot's."""
    links = _links(collected)
    expected = {
        name: (kind, mtu, master, links.get(name, (None,) * 4)[3] if kind == "tap" else state)
        for name, (kind, mtu, master, state) in _links(host).items()
    }
    return {name: links.get(name) for name in expected}, expected


def _collect_seeded(namespace: HostNamespace, host: KvmHost, out: Path) -> KvmHost:
    """The collection once the seeded links show as the snapshot has them, within 10 s.

    The kernel reports a link's operational state through linkwatch, which batches non-urgent
    events for up to a second (net/core/link_watch.c): a bridge read right after its ports came
    up may still say down."""
    for attempt in range(10):
        collected = namespace.collect(host.name, out)
        shown, expected = _seeded(host, collected)
        if shown == expected or attempt == 9:
            break
        time.sleep(1)
    assert shown == expected
    return collected


def _fold(snapshot: Snapshot, collected: KvmHost, name: str) -> None:
    """The collected bonds' settings and links' MTUs into the snapshot's host; LACP simulated."""
    host = next(h for h in snapshot.kvm_hosts if h.name == name)
    for bond in host.bonds:
        seen = next(b for b in collected.bonds if b.name == bond.name)
        bond.mode, bond.miimon = seen.mode, seen.miimon
        bond.xmit_hash_policy, bond.lacp_rate = seen.xmit_hash_policy, seen.lacp_rate
    mtus = {i.name: i.mtu for i in collected.interfaces}
    for interface in host.interfaces:
        interface.mtu = mtus[interface.name]
    _renegotiate(snapshot, lambda fact: fact.host == name)


def _keys(findings) -> set[tuple[str, str]]:
    return {(f.code, f.object) for f in findings}


def _sites() -> list:
    from support.kvm_sites import kvm_site

    return [
        pytest.param(lambda: load_site([LAB]), id="kvm-bonds"),
        pytest.param(lambda: load_site([JUMBO_LAB]), id="kvm-jumbo-path"),
        *(pytest.param(lambda p=p: kvm_site(p), id=f"synthetic-{p}") for p in ("cisco_ios", "arista_eos")),
    ]


@pytest.mark.parametrize("make", _sites())
def test_iproute2_plan_runs_in_a_namespace_and_rolls_back(make, namespace: HostNamespace, tmp_path: Path) -> None:
    snapshot = make()
    result = check_snapshot(snapshot, RULES)
    plan = build_plan(result, snapshot, unsafe=True)
    steps = [s for s in plan.steps if "iproute2" in s.change.platforms]
    [device] = {s.device for s in steps}
    host = next(h for h in snapshot.kvm_hosts if h.name == device)
    try:
        namespace.seed(host)
    except Refused as refused:
        needed = ", ".join(f"{s.action.action} (step {s.number})" for s in steps)
        reason = f"{device}: this kernel cannot make the host's links ({refused}); not run: {needed}"
        print(reason)
        pytest.skip(reason)
    folder = tmp_path / "fix"
    write_plan(plan, snapshot, folder)
    first = _collect_seeded(namespace, host, tmp_path / "first.json")
    working = snapshot.model_copy(deep=True)
    for s in plan.steps:
        if s in steps:
            namespace.run(folder / script_name(device, "iproute2"), s.number)
            namespace.answers_verify(folder / script_name(device, "iproute2"), s.number)
            _fold(working, namespace.collect(device, tmp_path / f"after-{s.number}.json"), device)
        else:
            apply_change(working, s.change)
    after = _keys(check_snapshot(working, RULES).findings)
    targeted = {(src.code, src.object) for s in steps for src in s.sources}
    assert targeted and not targeted & after, f"still there after the plan: {sorted(targeted & after)}"
    assert not after - _keys(result.findings), f"new after the plan: {sorted(after - _keys(result.findings))}"
    for s in reversed(steps):
        namespace.run(folder / script_name(device, "iproute2", rollback=True), s.number)
        namespace.answers_verify(folder / script_name(device, "iproute2", rollback=True), s.number)
    # The bond's carrier comes back within a few miimon periods: bounded wait for the links to settle.
    for attempt in range(10):
        last = namespace.collect(device, tmp_path / f"last-{attempt}.json")
        if _links(last) == _links(first):
            break
        time.sleep(1)
    assert json.dumps(last.model_dump(), sort_keys=True) == json.dumps(first.model_dump(), sort_keys=True)


def test_namespace_holds_what_the_kernel_can_make_of_the_lab_host(namespace: HostNamespace, tmp_path: Path) -> None:
    """The seeding itself, on any kernel: the lab's kvm01 without its bond (which needs the bonding
    driver) is made link by link and the real collector reads back each link's kind, MTU, master
    and state; one MTU changed with `ip` shows in the next collection."""
    host = load_site([LAB]).kvm_hosts[0].model_copy(deep=True)
    host.bonds = []
    host.interfaces = [i for i in host.interfaces if i.kind != "bond"]
    for interface in host.interfaces:
        if interface.master == "bond0":
            interface.master = "br0"
    host.bridges[0].members = ["eno1", "eno2", "vnet0", "vnet1"]
    host.interfaces[0].mtu = 9000
    namespace.seed(host)
    collected = _collect_seeded(namespace, host, tmp_path / "seeded.json")
    assert sorted(collected.bridges[0].members) == ["eno1", "eno2", "vnet0", "vnet1"]
    # The kernel's largest MTU per driver (`ip -d -j link show`: max_mtu), which bounds a host-path raise:
    # a veth's is 65535 (drivers/net/veth.c), a tap's 65521 (drivers/net/tun.c, MAX_MTU).
    maxima = {i.name: i.max_mtu for i in collected.interfaces}
    assert (maxima["eno1"], maxima["vnet0"]) == (65535, 65521)
    namespace.ip("link", "set", "dev", "eno1", "mtu", "1500")
    again = namespace.collect(host.name, tmp_path / "again.json")
    assert _links(again)["eno1"][1] == 1500


def _command_lines(script: Path, number: int) -> list[str]:
    text = script.read_text(encoding="utf-8")
    body = re.search(rf"^step_{number}\(\) \{{\n(.*?)^\}}", text, re.M | re.S)
    assert body, f"no step {number} in {script.name}"
    return [line.strip() for line in body.group(1).splitlines() if line.strip() and not line.strip().startswith("#")]


# The kernel's answer to `ip link set dev X type bond ...` when X is a bridge standing in for a bond:
# iproute2 has parsed every bond option by then (a wrong one is `Error: argument "..." is wrong`).
STAND_IN_REFUSAL = "RTNETLINK answers: Operation not supported"


@pytest.mark.parametrize("make", _sites())
def test_every_iproute2_command_is_accepted_by_the_real_ip(make, namespace: HostNamespace, tmp_path: Path) -> None:
    """On any kernel: each command line of each iproute2 step and rollback runs, in order, inside a
    namespace seeded with the host (a bridge standing in for a bond the kernel cannot make). Each
    line succeeds, or is a `type bond` line the stand-in refuses after `ip` parsed its options."""
    snapshot = make()
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot, unsafe=True)
    steps = [s for s in plan.steps if "iproute2" in s.change.platforms]
    [device] = {s.device for s in steps}
    host = next(h for h in snapshot.kvm_hosts if h.name == device)
    folder = tmp_path / "fix"
    write_plan(plan, snapshot, folder)
    standing = namespace.seed(host, stand_in=True)
    ran, refused, rebonds = 0, [], 0
    for rollback in (False, True):
        for s in steps if not rollback else reversed(steps):
            lines = _command_lines(folder / script_name(device, "iproute2", rollback), s.number)
            rebonds += any(" type bond " in line for line in lines)
            for line in lines:
                done = subprocess.run(
                    ["ip", "netns", "exec", namespace.name, "sh", "-c", line],
                    capture_output=True,
                    text=True,
                    timeout=60,
                    check=False,
                )
                ran += 1
                if done.returncode != 0:
                    assert standing and " type bond " in line and done.stderr.strip() == STAND_IN_REFUSAL, (
                        f"{line}: {done.stderr.strip()}"
                    )
                    refused.append(line)
    print(f"{device}: {ran} command lines run; {standing}; refused by the stand-in: {refused}")
    # The stand-in refuses exactly one line of each bond-mode step and of its rollback.
    assert ran >= 2 * len(steps) and len(refused) == (rebonds if standing else 0)
