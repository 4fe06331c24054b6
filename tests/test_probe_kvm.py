"""`hostlint probe` on KVM hosts: real `ping -M do` over real OpenSSH, each host a network namespace with
its own sshd on a management network and a data interface on a 9000-byte fabric.

kvm1 and kvm2 carry 9000 end to end; kvm3's port on the fabric is 1500 (a hop no snapshot shows); kvm4's
eth1 really runs at 1500 although its snapshot says 9000 (its own stack refuses the probe). hostlint
runs in the management namespace and reaches each host by its name in the snapshot (its address).
"""

from __future__ import annotations

import json
import os
import subprocess

from support import moved, probe_kvm_estate
from support.probe_kvm_estate import HOSTLINT, SITE, needs_ssh_namespaces

from hostlint.cli.exit import Exit
from hostlint.snapshot import load_snapshot

pytestmark = needs_ssh_namespaces

# `kvm_estate` is a fixture (tests/conftest.py). Moved to tests/support: see support/moved.py.
__getattr__ = moved.forward(probe_kvm_estate, "FABRIC", "kvm_estate", renamed={"_ip": "ip", "_name": "kvm_name"})


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
