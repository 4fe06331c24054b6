"""`hostlint scan --inventory FILE --probe` with KVM sources: each host collected over SSH (no libvirt),
then probed with `ping -M do` over its own SSH session, in tests/test_probe_kvm.py's namespaces. There the
fabric interface is a veth, which a host does not send from as such; here it is made a port of a bridge
`br1` holding the address, as a KVM host's fabric usually is."""

from __future__ import annotations

import os
import subprocess

import yaml
from test_probe_kvm import FABRIC, HOSTLINT, _ip, _name, kvm_estate, pytestmark  # noqa: F401 (fixture, skip)

from hostlint.history.store import open_store


def _bridge_the_fabric_port() -> None:
    tag = f"hlk{os.getpid() % 100000}"  # as kvm_estate names its namespaces
    for index, (eth_mtu, _) in FABRIC.items():
        host = f"{tag}h{index}"
        _ip("-n", host, "addr", "flush", "dev", "eth1")
        _ip("-n", host, "link", "add", "br1", "type", "bridge")
        _ip("-n", host, "link", "set", "eth1", "master", "br1")
        _ip("-n", host, "link", "set", "br1", "mtu", str(eth_mtu), "up")
        _ip("-n", host, "addr", "add", f"10.66.0.{index}/24", "dev", "br1")


def test_a_scan_collects_kvm_hosts_and_probes_them_over_ssh(kvm_estate, tmp_path):  # noqa: F811
    mgmt, ssh = kvm_estate
    _bridge_the_fabric_port()
    options = [ssh[i + 1] for i, arg in enumerate(ssh) if arg == "--ssh-option"]
    known_hosts = ssh[ssh.index("--known-hosts") + 1]
    entry = {"ssh_options": options, "no_libvirt": True, "no_lldp": True, "timeout": 30}
    kvm = [{"host": f"root@{_name(index)}", **entry} for index in FABRIC]
    kvm[2]["probe"] = False  # kvm3 sends nothing (the others still probe it)
    inventory = tmp_path / "scan.yaml"
    inventory.write_text(yaml.safe_dump({"kvm": kvm, "known_hosts": known_hosts, "probe": {"count": 2}}))
    db = f"sqlite:///{tmp_path / 'history.sqlite'}"
    env = {k: v for k, v in os.environ.items() if k != "HOSTLINT_SSH_PASSWORD"}
    done = subprocess.run(
        ["ip", "netns", "exec", mgmt, *HOSTLINT, "scan", "--inventory", str(inventory), "--db", db, "--isolated",
         "--probe", "--probe-budget", "60"],
        capture_output=True, text=True, env=env, timeout=180,
    )  # fmt: skip
    assert done.stdout.startswith("scan 1 stored in "), done.stdout + done.stderr
    store = open_store(db)
    try:
        [scan] = store.scans()
        probes = {(p.source_host, p.target_host, p.purpose): p for p in store.probes(scan.id)}
    finally:
        store.close()
    assert probes, done.stderr
    assert all(p.via == "ssh" and p.source_vmk == "br1" for p in probes.values())
    assert probes["10.99.0.1", "10.99.0.2", "jumbo"].outcome == "delivered"
    assert probes["10.99.0.1", "10.99.0.3", "jumbo"].outcome == "lost"
    assert probes["10.99.0.1", "10.99.0.3", "control"].outcome == "delivered"
    # probe: false on kvm3: its probes are kept as not sent, with why
    kvm3 = [p for (source, _, _), p in probes.items() if source == "10.99.0.3"]
    assert kvm3 and all(p.error_kind == "not-sent" and "probe: false" in (p.error or "") for p in kvm3)
    # kvm4's fabric really runs at 1500 (collected so): it sends no jumbo probe, only receives them
    assert not any(source == "10.99.0.4" and purpose == "jumbo" for source, _, purpose in probes)
    assert scan.counts.probes == len(probes)
    assert "--probe: " in done.stderr and "probes: " in done.stderr
