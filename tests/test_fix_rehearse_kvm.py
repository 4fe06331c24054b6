"""KVM remediation rehearsed: the nmcli and virsh scripts hostlint writes are run, not only read.

- nmcli scripts run step by step with `sh` against tests/nmcli_emulator.py (installed as `nmcli` on
  PATH; its state the host's bond connection profiles and devices, seeded from the snapshot). What
  the bond shows after `connection up` goes back into the snapshot as /proc/net/bonding would show
  it, and the LACP negotiation with the switch is the simulated applier's (hostlint/fixes/apply.py):
  that part is the link's doing, not nmcli's.
- virsh scripts run with `sh` and the real `virt-xml` and `virsh` against libvirt's test driver, its
  state in a node file seeded from the host's domains (tests/libvirt_state.py); after each step the
  domains are collected again by hostlint's own KVM collector (hostlint.collect.kvm.libvirt_facts).
- Switch steps of the same plan are applied to the snapshot through the simulated applier.

After the plan `check` runs again: the targeted findings are gone and nothing new appeared. Then the
rollback scripts run in reverse (switches put back from the original snapshot) and the hosts' facts
equal the original exactly; the domains collected from libvirt equal the first collection exactly.
The iproute2 scripts are rehearsed for real in a network namespace: tests/test_fix_rehearse_netns.py.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hostlint.check import check_snapshot
from hostlint.collect.kvm.libvirt_facts import read_libvirt
from hostlint.fixes import build_plan
from hostlint.fixes.apply import _on_switch, _renegotiate, apply_change
from hostlint.fixes.plan import Plan
from hostlint.fixes.scripts import script_name
from hostlint.fixes.write import write_plan
from hostlint.rules import load_rules
from hostlint.snapshot import Snapshot, load_site
from hostlint.snapshot.kvm import KvmHost, LibvirtDomain

TESTS = Path(__file__).resolve().parent
LAB = TESTS.parent / "fixtures" / "labs" / "kvm-bonds"
NMCLI = TESTS / "nmcli_emulator.py"
LIBVIRT_STATE = TESTS / "libvirt_state.py"
RULES = load_rules()
SH = shutil.which("sh") or "/bin/sh"
REAL_VIRSH = shutil.which("virsh")
REAL_VIRT_XML = shutil.which("virt-xml")
HASHING = ("balance-xor", "802.3ad", "balance-tlb")

needs_virsh = pytest.mark.skipif(
    REAL_VIRSH is None or REAL_VIRT_XML is None or importlib.util.find_spec("libvirt") is None,
    reason="virsh, virt-xml (apt-get install libvirt-clients virtinst) or libvirt-python (the kvm extra) missing",
)


def _install(tmp_path: Path) -> dict[str, str]:
    """`nmcli`, `virsh` and `virt-xml` on a PATH of their own; their state files under tmp_path."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrappers = {
        "nmcli": f'exec "{sys.executable}" "{NMCLI}" "$@"',
        "virsh": f'exec "{sys.executable}" "{LIBVIRT_STATE}" virsh "$@"',
        "virt-xml": f'exec "{sys.executable}" "{LIBVIRT_STATE}" virt-xml "$@"',
    }
    for name, line in wrappers.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{line}\n", encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    return {
        "PATH": f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin",
        "NMCLI_EMULATOR_STATE": str(tmp_path / "nm.json"),
        "LIBVIRT_TEST_STATE": str(tmp_path / "libvirt.xml"),
        "REAL_VIRSH": REAL_VIRSH or "virsh",
        "REAL_VIRT_XML": REAL_VIRT_XML or "virt-xml",
    }


# --- NetworkManager: the host's bond profiles in, what the kernel shows out -------------------------


def nm_state(host: KvmHost) -> dict:
    """A connection profile per bond (id and interface name the bond's) and per NIC, bridge and VLAN
    (MTU `auto`: the device keeps its own), a device per interface at its MTU."""
    connections = []
    for bond in host.bonds:
        options = {"mode": bond.mode}
        if bond.miimon is not None:
            options["miimon"] = str(bond.miimon)
        if bond.xmit_hash_policy is not None:
            options["xmit_hash_policy"] = bond.xmit_hash_policy
        if bond.lacp_rate is not None:
            options["lacp_rate"] = bond.lacp_rate
        connections.append(
            {
                "id": bond.name,
                "uuid": f"00000000-0000-4000-8000-{len(connections):012d}",
                "type": "bond",
                "interface-name": bond.name,
                "bond.options": options,
            }
        )
    kinds = {"physical": "ethernet", "bond": "bond", "bridge": "bridge", "vlan": "vlan", "tap": "tun", "veth": "veth"}
    for interface in host.interfaces:
        if interface.kind in ("physical", "bridge", "vlan"):
            connections.append(
                {
                    "id": interface.name,
                    "uuid": f"00000000-0000-4000-8000-{len(connections):012d}",
                    "type": kinds[interface.kind],
                    "interface-name": interface.name,
                }
            )
    for connection in connections:
        connection["mtu"] = 0
    managed = {c["id"] for c in connections}
    devices = [
        {
            "device": i.name,
            "type": kinds.get(i.kind or "", i.kind or "unknown"),
            "connection": i.name if i.name in managed else None,
            "applied": next(
                (dict(c["bond.options"]) for c in connections if c["id"] == i.name and "bond.options" in c), None
            ),
            "mtu": i.mtu,
        }
        for i in host.interfaces
    ]
    return {"connections": connections, "devices": devices}


def fold_nm_state(snapshot: Snapshot, host_name: str, state: dict) -> None:
    """Each bond as the kernel shows it once NetworkManager applied its profile: the options given,
    the kernel's defaults for the rest (layer2 hash, slow LACP rate), then LACP with the switch; each
    interface at its device's MTU."""
    host = next(h for h in snapshot.kvm_hosts if h.name == host_name)
    mtus = {d["device"]: d["mtu"] for d in state["devices"]}
    for interface in host.interfaces:
        interface.mtu = mtus[interface.name]
    for bond in host.bonds:
        applied = next(d["applied"] for d in state["devices"] if d["device"] == bond.name)
        bond.mode = applied["mode"]
        bond.miimon = int(applied.get("miimon", "0"))
        bond.xmit_hash_policy = applied.get("xmit_hash_policy", "layer2") if bond.mode in HASHING else None
        bond.lacp_rate = applied.get("lacp_rate", "slow") if bond.mode == "802.3ad" else None
    _renegotiate(snapshot, lambda fact: fact.host == host_name)


# --- libvirt: the host's domains in, hostlint's collector out -----------------------------------------


def seed_libvirt(env: dict[str, str], host: KvmHost) -> None:
    sys.path.insert(0, str(TESTS))
    from libvirt_state import node_xml

    Path(env["LIBVIRT_TEST_STATE"]).write_text(node_xml(host.domains), encoding="utf-8")


def collect_domains(env: dict[str, str]) -> list[LibvirtDomain]:
    domains, networks = read_libvirt(f"test://{env['LIBVIRT_TEST_STATE']}")
    assert networks == []
    return domains


def fold_domains(snapshot: Snapshot, host_name: str, collected: list[LibvirtDomain]) -> None:
    """The collected domains into the snapshot. The test driver names every interface `testnetN`
    and the seeded domains are shut off: those two facts keep the snapshot's values, which the
    collection of a running guest on a real host gives; everything else is as collected."""
    host = next(h for h in snapshot.kvm_hosts if h.name == host_name)
    before = {d.name: d for d in host.domains}
    folded = []
    for domain in collected:
        old = before[domain.name]
        targets = {nic.mac: nic.target for nic in old.interfaces}
        interfaces = [nic.model_copy(update={"target": targets[nic.mac]}) for nic in domain.interfaces]
        folded.append(domain.model_copy(update={"state": old.state, "interfaces": interfaces}))
    host.domains = sorted(folded, key=lambda d: [x.name for x in host.domains].index(d.name))


# --- the rehearsal --------------------------------------------------------------------------------


def _keys(findings) -> set[tuple[str, str]]:
    return {(f.code, f.object) for f in findings}


def _run(folder: Path, env: dict[str, str], device: str, platform: str, number: int, rollback: bool) -> str:
    script = folder / script_name(device, platform, rollback)
    ran = subprocess.run([SH, str(script), str(number)], capture_output=True, text=True, timeout=300, env=env)
    assert ran.returncode == 0, f"{script.name} {number}: {ran.stdout}{ran.stderr}"
    return ran.stdout


def _verify_lines(script: Path, number: int) -> tuple[list[str], list[str]]:
    """The `# verify:` commands and `# expect:` lines of step `number`."""
    body = re.search(rf"^step_{number}\(\) \{{\n(.*?)^\}}", script.read_text(encoding="utf-8"), re.M | re.S)
    assert body, f"no step {number} in {script.name}"
    comments = [line.strip()[2:] for line in body.group(1).splitlines() if line.strip().startswith("#")]
    verify = comments[comments.index("verify:") + 1 : comments.index("expect:")]
    expect = comments[comments.index("expect:") + 1 :]
    return [v.strip() for v in verify], [e.strip() for e in expect]


def _answers_verify(folder: Path, env: dict[str, str], device: str, platform: str, number: int, rollback: bool) -> None:
    """The step's first verify command, run against the emulated/real tool, answers what expect says."""
    verify, expect = _verify_lines(folder / script_name(device, platform, rollback), number)
    shown = subprocess.run([SH, "-c", verify[0]], capture_output=True, text=True, timeout=120, env=env)
    assert shown.returncode == 0, f"{verify[0]}: {shown.stderr}"
    if platform == "nmcli":
        # Each line the command prints is the expect line in its place (bond options: one; MTUs: one a hop).
        lines = shown.stdout.strip().splitlines()
        assert lines == expect[: len(lines)], (verify[0], shown.stdout)
    else:
        # `<mac address='M'/> followed by <mtu size='N'/>` (or `with no <mtu> element`): the lines grep keeps.
        lines = [line.strip() for line in shown.stdout.splitlines()]
        assert lines == re.findall(r"<[^>]+/>", expect[0]), (verify[0], shown.stdout)


def rehearse(snapshot: Snapshot, tmp_path: Path) -> tuple[Plan, list[str]]:
    """The full plan: nmcli and virsh steps by their scripts, switch steps simulated; checked; rolled back."""
    result = check_snapshot(snapshot, RULES)
    plan = build_plan(result, snapshot, unsafe=True)
    folder = tmp_path / "fix"
    write_plan(plan, snapshot, folder)
    env = _install(tmp_path)
    working = snapshot.model_copy(deep=True)
    kvm = {h.name for h in snapshot.kvm_hosts}
    ran: list[str] = []
    first: dict[str, list[LibvirtDomain]] = {}

    def seed(device: str) -> None:
        host = next(h for h in working.kvm_hosts if h.name == device)
        Path(env["NMCLI_EMULATOR_STATE"]).write_text(json.dumps(nm_state(host)), encoding="utf-8")
        seed_libvirt(env, host)
        if device not in first:
            first[device] = collect_domains(env)
            original = next(h for h in snapshot.kvm_hosts if h.name == device)
            seen = {d.name: [n.model_copy(update={"target": None}) for n in d.interfaces] for d in first[device]}
            assert seen == {
                d.name: [n.model_copy(update={"target": None}) for n in d.interfaces] for d in original.domains
            }

    def step(s, rollback: bool) -> None:
        platform = "nmcli" if "nmcli" in s.change.platforms else "virsh"
        seed(s.device)
        _run(folder, env, s.device, platform, s.number, rollback)
        _answers_verify(folder, env, s.device, platform, s.number, rollback)
        if platform == "nmcli":
            fold_nm_state(working, s.device, json.loads(Path(env["NMCLI_EMULATOR_STATE"]).read_text(encoding="utf-8")))
        else:
            fold_domains(working, s.device, collect_domains(env))
        ran.append(f"{'undo ' if rollback else ''}{platform} {s.device} {s.number}")

    for s in plan.steps:
        if s.device in kvm:
            step(s, rollback=False)
        else:
            apply_change(working, s.change)
    after = _keys(check_snapshot(working, RULES).findings)
    targeted = {(src.code, src.object) for s in plan.steps for src in s.sources}
    assert not targeted & after, f"still there after the plan: {sorted(targeted & after)}"
    assert not after - _keys(result.findings), f"new after the plan: {sorted(after - _keys(result.findings))}"
    for s in reversed(plan.steps):
        if s.device in kvm:
            step(s, rollback=True)
            if "virsh" in s.change.platforms:
                assert collect_domains(env) == first[s.device]
        else:
            index = next(i for i, sw in enumerate(working.switches) if sw.name == s.device)
            working.switches[index] = next(sw for sw in snapshot.switches if sw.name == s.device).model_copy(deep=True)
            _renegotiate(working, _on_switch(s.device))
    assert [h.model_dump() for h in working.kvm_hosts] == [h.model_dump() for h in snapshot.kvm_hosts]
    assert [sw.model_dump() for sw in working.switches] == [sw.model_dump() for sw in snapshot.switches]
    return plan, ran


@needs_virsh
def test_kvm_lab_plan_runs_clears_its_findings_and_rolls_back(tmp_path: Path) -> None:
    _, ran = rehearse(load_site([LAB]), tmp_path)
    assert ran == [
        "nmcli kvm01.lab.example 2",
        "nmcli kvm01.lab.example 3",
        "undo nmcli kvm01.lab.example 3",
        "undo nmcli kvm01.lab.example 2",
    ]
    log = [json.loads(line) for line in (tmp_path / "nm.json.log").read_text(encoding="utf-8").splitlines()]
    assert ["connection", "modify", "bond0", "bond.options", "mode=802.3ad,miimon=100,xmit_hash_policy=layer2+3"] in log
    # db01's path raised where leaf1 carries 9196: NICs first, then the bond, the bridge last; undone in reverse.
    mtus = [
        (argv[2], argv[4]) for argv in log if argv[:2] == ["connection", "modify"] and argv[3] == "802-3-ethernet.mtu"
    ]
    raised = [("eno1", "9000"), ("eno2", "9000"), ("bond0", "9000"), ("br0", "9000")]
    assert mtus == [*raised, ("br0", "1500"), ("bond0", "1500"), ("eno2", "1500"), ("eno1", "1500")]
    reapplied = [argv[2] for argv in log if argv[:2] == ["device", "reapply"]]
    assert reapplied == ["eno1", "eno2", "bond0", "br0", "br0", "bond0", "eno2", "eno1"]


@needs_virsh
def test_kvm_jumbo_path_lab_raises_one_path_lowers_the_other_guest_and_rolls_back(tmp_path: Path) -> None:
    """Issue #26: nfs01's path (eno1, br-stor) is raised where leaf2's Ethernet9 bridges 9200-byte packets;
    app02 stays lowered in its definition (Ethernet10 carries 1500). Run with the nmcli emulator and the
    real virt-xml/virsh on libvirt's test driver; the iproute2 script runs in a namespace
    (tests/test_fix_rehearse_netns.py)."""
    _, ran = rehearse(load_site([TESTS.parent / "fixtures" / "labs" / "kvm-jumbo-path"]), tmp_path)
    assert ran == [
        "virsh kvm04.lab.example 1",
        "nmcli kvm04.lab.example 2",
        "undo nmcli kvm04.lab.example 2",
        "undo virsh kvm04.lab.example 1",
    ]


@needs_virsh
@pytest.mark.parametrize("platform", ["cisco_ios", "cisco_nxos", "arista_eos", "juniper_junos"])
def test_kvm_synthetic_site_plan_runs_and_rolls_back(platform: str, tmp_path: Path) -> None:
    from support.kvm_sites import kvm_site

    snapshot = kvm_site(platform)
    # /proc/net/bonding names the partner per member too: the hand-built site leaves it out.
    for host in snapshot.kvm_hosts:
        for bond in host.bonds:
            for member in bond.members:
                member.partner_mac = bond.partner_mac
    plan, ran = rehearse(snapshot, tmp_path)
    assert any(s.device == "sw1" for s in plan.steps)
    # MT101: the host path is raised where the switch's figure is read and carries the guest's 9000
    # (Junos media MTU 9216); lowered in the guest where which figure limits the port is unknown.
    [mt101] = [s for s in plan.steps if "MT101" in s.codes]
    raised = platform == "juniper_junos"
    assert mt101.action.action == ("host-path-mtu" if raised else "guest-nic-mtu")
    assert {r.split()[0] for r in ran} == ({"nmcli", "undo"} if raised else {"nmcli", "virsh", "undo"})


def _tool(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(list(argv), capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.parametrize(
    ("argv", "code", "error"),
    [
        (["nmcli", "connection", "modify", "bond0", "bond.mode", "802.3ad"], 2, "invalid property 'bond.mode'"),
        (["nmcli", "connection", "modify", "bond0", "bond.options", "mode=lacp"], 2, "'lacp' is not a valid value"),
        (
            ["nmcli", "connection", "modify", "bond0", "bond.options", "mode=802.3ad,hash=l2"],
            2,
            "'hash' is not a valid",
        ),
        (["nmcli", "connection", "modify", "bond0", "bond.options", "miimon=fast"], 2, "'fast' is not a valid value"),
        (
            ["nmcli", "connection", "modify", "bond0", "bond.options", "mode=balance-xor,lacp_rate=fast"],
            2,
            "only valid",
        ),
        (["nmcli", "connection", "modify", "bond9", "bond.options", "mode=802.3ad"], 10, "unknown connection 'bond9'"),
        (["nmcli", "connection", "modify", "bond0", "bond.options"], 2, "needs a property and a value"),
        (["nmcli", "-g", "GENERAL.CONNECTIONS", "device", "show", "bond0"], 2, "invalid field"),
        (["nmcli", "device", "show", "bond9"], 10, "Device 'bond9' not found"),
        (["nmcli", "conection", "up", "bond0"], 2, "argument 'conection' not understood"),
        (["nmcli", "c", "d", "bond0"], 2, "'nmcli connection down' is not part"),
    ],
)
def test_nmcli_emulator_rejects_what_nmcli_rejects_and_keeps_state(
    argv: list[str], code: int, error: str, tmp_path: Path
) -> None:
    env = _install(tmp_path)
    state = Path(env["NMCLI_EMULATOR_STATE"])
    state.write_text(json.dumps(nm_state(load_site([LAB]).kvm_hosts[0])), encoding="utf-8")
    before = state.read_text(encoding="utf-8")
    refused = _tool(env, *argv)
    assert (refused.returncode, refused.stdout) == (code, "") and refused.stderr.startswith("Error: ")
    assert error in refused.stderr and state.read_text(encoding="utf-8") == before
    # The same object spelled the way nmcli(1) allows: abbreviated, selected by `id`, options renumbered.
    assert _tool(env, "nmcli", "-g", "GENERAL.CONNECTION", "dev", "sh", "bond0").stdout == "bond0\n"
    assert _tool(env, "nmcli", "c", "mod", "id", "bond0", "bond.options", "mode=4,miimon=100").returncode == 0
    assert _tool(env, "nmcli", "-g", "bond.options", "con", "show", "bond0").stdout == "mode=802.3ad,miimon=100\n"
    assert json.loads(state.read_text(encoding="utf-8"))["devices"][2]["applied"]["mode"] == "balance-xor"
    assert _tool(env, "nmcli", "connection", "up", "bond0").returncode == 0
    assert json.loads(state.read_text(encoding="utf-8"))["devices"][2]["applied"] == {
        "mode": "802.3ad",
        "miimon": "100",
    }


@needs_virsh
@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["virt-xml", "db01", "--edit", "mac=52:54:00:1a:00:01", "--network", "mtu.sise=1500"], "mtu.sise"),
        (["virt-xml", "db09", "--edit", "--network", "mtu.size=1500"], "db09"),
        (["virt-xml", "db01", "--edit", "mac=52:54:00:1a:00:99", "--network", "mtu.size=1500"], "No matching objects"),
        (["virsh", "dumpxml", "--inactiv", "db01"], "--inactiv"),
        (["virsh", "domiflist", "db09"], "db09"),
        (["virsh", "shutdown", "db01"], "domain 'db01' not running"),
        (["virsh", "undefine", "db01"], "keeps no state"),
    ],
)
def test_real_virsh_and_virt_xml_reject_and_the_state_is_kept(argv: list[str], error: str, tmp_path: Path) -> None:
    env = _install(tmp_path)
    seed_libvirt(env, load_site([LAB]).kvm_hosts[0])
    state = Path(env["LIBVIRT_TEST_STATE"])
    before = state.read_text(encoding="utf-8")
    refused = _tool(env, *argv)
    assert refused.returncode != 0 and error in refused.stdout + refused.stderr, refused
    assert state.read_text(encoding="utf-8") == before
    edit = ["virt-xml", "db01", "--edit", "mac=52:54:00:1a:00:01", "--network", "mtu.size=1500"]
    assert _tool(env, *edit).returncode == 0
    # A second connection (the collector's) sees what virt-xml defined.
    db01 = next(d for d in collect_domains(env) if d.name == "db01")
    assert [n.mtu for n in db01.interfaces] == [1500]


@pytest.mark.parametrize("platform", ["cisco_ios", "cisco_nxos", "arista_eos", "juniper_junos"])
def test_every_kvm_script_of_the_synthetic_sites_parses(platform: str, tmp_path: Path) -> None:
    """`sh -n` on the synthetic sites' nmcli, iproute2 and virsh scripts and their rollbacks (the labs'
    are parsed in tests/test_fix_rehearse.py)."""
    from support.kvm_sites import kvm_site

    snapshot = kvm_site(platform)
    write_plan(build_plan(check_snapshot(snapshot, RULES), snapshot, unsafe=True), snapshot, tmp_path)
    scripts = sorted(tmp_path.glob("*.sh"))
    # Junos's MT101 raises the host path (nmcli, iproute2); the others lower the guest (virsh).
    host_only = platform == "juniper_junos"
    assert {p.name.split(".")[-2] for p in scripts} == {"nmcli", "iproute2"} | (set() if host_only else {"virsh"})
    for script in scripts:
        parsed = subprocess.run([SH, "-n", str(script)], capture_output=True, text=True, timeout=30)
        assert parsed.returncode == 0, f"{script.name}: {parsed.stderr}"


def test_nmcli_step_stops_with_a_reason_when_networkmanager_does_not_run_the_bond(tmp_path: Path) -> None:
    """A bond NetworkManager has no active connection for (unmanaged, or managed by ifupdown): the
    step stops before changing anything and names the other script, instead of `nmcli connection
    modify ''` failing with "unknown connection"."""
    snapshot = load_site([LAB])
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot, unsafe=True)
    write_plan(plan, snapshot, tmp_path / "fix")
    env = _install(tmp_path)
    state = nm_state(snapshot.kvm_hosts[0])
    next(d for d in state["devices"] if d["device"] == "bond0")["connection"] = None
    Path(env["NMCLI_EMULATOR_STATE"]).write_text(json.dumps(state), encoding="utf-8")
    script = tmp_path / "fix" / script_name("kvm01.lab.example", "nmcli")
    # Step 2 changes the bond's mode, step 3 the MTU of db01's path (eno1, eno2, bond0, br0): each stops
    # before its first change, the MTU step too although its first two interfaces have connections.
    for number in ("2", "3"):
        ran = subprocess.run([SH, str(script), number], capture_output=True, text=True, timeout=60, env=env)
        assert ran.returncode == 1
        assert ran.stderr.strip() == "bond0 has no active NetworkManager connection: use the iproute2 script"
        assert json.loads(Path(env["NMCLI_EMULATOR_STATE"]).read_text(encoding="utf-8")) == state


def _advice_commands(plan_md: str, domain: str) -> str:
    """The command block PLAN.md's advice gives for `domain` (the display-only NIC model change)."""
    advice = plan_md.split("## Advice (not scripted)", 1)[1].split("\n## ", 1)[0]
    block = re.search(rf"{domain} interface .*?```\n(.*?)\n *```", advice, re.S)
    assert block, f"no commands for {domain} in the advice"
    return textwrap.dedent(block.group(1))


@needs_virsh
def test_guest_nic_model_advice_runs_with_the_real_virsh_and_clears_its_finding(tmp_path: Path) -> None:
    """VN101's advice, pasted as PLAN.md gives it, on a running guest: the definition saved, the model
    changed, the guest shut down and started again; collected again, VN101 is gone and nothing new."""
    from libvirt_state import node_xml

    snapshot = load_site([LAB])
    result = check_snapshot(snapshot, RULES)
    write_plan(build_plan(result, snapshot, unsafe=True), snapshot, tmp_path / "fix")
    env = _install(tmp_path)
    host = snapshot.kvm_hosts[0]
    Path(env["LIBVIRT_TEST_STATE"]).write_text(node_xml(host.domains, runstate="1"), encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    commands = _advice_commands((tmp_path / "fix" / "PLAN.md").read_text(encoding="utf-8"), "legacy01")
    ran = subprocess.run(
        [SH, "-c", "set -eu\n" + commands], capture_output=True, text=True, timeout=300, env=env, cwd=work
    )
    assert ran.returncode == 0, ran.stderr
    assert "<model type='rtl8139'/>" in (work / "legacy01.before-hostlint.xml").read_text(encoding="utf-8")
    log = [json.loads(line)[:2] for line in Path(env["LIBVIRT_TEST_STATE"] + ".log").read_text().splitlines()]
    assert ["virsh", "shutdown"] in log and log[-1] == ["virsh", "start"]
    collected = collect_domains(env)
    assert [(d.name, d.state, [n.model for n in d.interfaces]) for d in collected] == [
        ("db01", "running", ["virtio"]),
        ("legacy01", "running", ["virtio"]),
    ]
    working = snapshot.model_copy(deep=True)
    fold_domains(working, host.name, collected)
    after = _keys(check_snapshot(working, RULES).findings)
    assert ("VN101", "kvm01.lab.example/legacy01/52:54:00:1a:00:02") not in after
    assert after < _keys(result.findings)


def test_guest_shutdown_wait_is_bounded(tmp_path: Path) -> None:
    """A guest that ignores the ACPI shutdown (which libvirt's test driver cannot be made to do): a
    `virsh` that always answers `running` and a `sleep` that returns at once. The advice gives up
    after its 90 tries with a reason, fails, and never starts the guest."""
    snapshot = load_site([LAB])
    write_plan(build_plan(check_snapshot(snapshot, RULES), snapshot, unsafe=True), snapshot, tmp_path / "fix")
    bin_dir = tmp_path / "stubs"
    bin_dir.mkdir()
    calls = tmp_path / "calls"
    stubs = {
        "virsh": f'echo "$*" >> "{calls}"; [ "$1" = domstate ] && echo running; exit 0',
        "virt-xml": "exit 0",
        "sleep": "exit 0",
    }
    for name, body in stubs.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    commands = _advice_commands((tmp_path / "fix" / "PLAN.md").read_text(encoding="utf-8"), "legacy01")
    ran = subprocess.run(
        [SH, "-c", "set -eu\n" + commands],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin"},
        cwd=tmp_path,
    )
    assert ran.returncode == 1
    assert ran.stderr.startswith("legacy01 did not shut down in 3 minutes")
    made = calls.read_text(encoding="utf-8").splitlines()
    assert made.count("domstate legacy01") == 92 and "start legacy01" not in made
