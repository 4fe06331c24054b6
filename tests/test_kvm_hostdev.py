"""SR-IOV and other hostdev guest NICs (`<interface type='hostdev'>`): their own kind, never an emulated model.

The domain XML is libvirt's own form for a PCI function given to a guest (libvirt.org/formatdomain.html,
"PCI Passthrough"), read through libvirt's test driver.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from hostlint.check import check_paths
from hostlint.rules import load_rules
from hostlint.snapshot import load_snapshot

HOSTLINT = [sys.executable, "-c", "from hostlint.cli.main import main; main()"]

NODE = """<node>
  <cpu><nodes>1</nodes><sockets>1</sockets><cores>2</cores><threads>1</threads><active>2</active>
       <mhz>2400</mhz><model>x86_64</model></cpu>
  <memory>8388608</memory>
  <domain type='test'>
    <name>nfv01</name>
    <memory>2097152</memory>
    <vcpu>2</vcpu>
    <os><type>hvm</type></os>
    <devices>
      <interface type='hostdev' managed='yes'>
        <mac address='52:54:00:6d:90:02'/>
        <source>
          <address type='pci' domain='0x0000' bus='0x3b' slot='0x10' function='0x2'/>
        </source>
        <vlan><tag id='42'/></vlan>
      </interface>
      <interface type='bridge'>
        <mac address='52:54:00:6d:90:03'/>
        <source bridge='br0'/>
        <model type='e1000'/>
      </interface>
    </devices>
  </domain>
</node>
"""


@pytest.mark.skipif(importlib.util.find_spec("libvirt") is None, reason="libvirt-python")
def test_hostdev_nic_is_its_own_kind_and_not_called_emulated(tmp_path: Path) -> None:
    node = tmp_path / "node.xml"
    node.write_text(NODE)
    out = tmp_path / "kvm.json"
    collect = [*HOSTLINT, "collect", "kvm", "--local", "--name", "kvm-h", "--no-lldp"]
    done = subprocess.run(
        [*collect, "--libvirt-uri", f"test://{node}", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode in (0, 3), done.stderr  # 3 only for what this machine lacks (no libvirt here)
    assert "libvirt" not in done.stderr, done.stderr
    domain = load_snapshot(out).kvm_hosts[0].domains[0]
    assert [(i.source_type, i.source, i.model) for i in domain.interfaces] == [
        ("hostdev", "0000:3b:10.2", None),
        ("bridge", "br0", "e1000"),
    ]
    _, result = check_paths([out], load_rules())
    vn101 = {f.object for f in result.findings if f.code == "VN101"}
    assert vn101 == {"kvm-h/nfv01/52:54:00:6d:90:03"}  # the e1000 is emulated; the VF is not
    hostdev = "kvm-h/nfv01/52:54:00:6d:90:02"
    assert not [s for s in result.skipped if s.object == hostdev and "model" in s.reason]
