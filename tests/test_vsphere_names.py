"""Names with control characters in vCenter (a VM called "web<LF>01", a port group with a bidirectional
override) against govmomi's simulator over real SOAP: the collection names what it could not record,
keeps everything else, and exits 3; it never crashes or writes the name into the snapshot."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner
from support.vcsim import launcher, needs_simulator

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "fixtures" / "vsphere" / "site.yaml"
PASSWORD = "s3cret-for-tests"


pytestmark = needs_simulator

BAD_VM = "web\n01"
# XML 1.0 cannot carry C0 controls other than TAB, LF and CR (the server sends U+FFFD instead), so
# the port group carries a bidirectional override, which it can.
BAD_PORTGROUP = "VM-Prod\u202egnp.exe"


def test_control_characters_in_vcenter_names_are_named_errors_not_crashes(vcsim_binary, tmp_path):
    scenario = yaml.safe_load(SITE.read_text())
    first, second = scenario["esxi_hosts"][0], scenario["esxi_hosts"][1]
    first["vms"][0]["name"] = BAD_VM
    second["portgroups"].append({"name": BAD_PORTGROUP, "vswitch": "vSwitch0", "vlan": 30, "members": []})
    path = tmp_path / "names.yaml"
    path.write_text(yaml.safe_dump(scenario))
    binary = vcsim_binary
    out = tmp_path / "snap.json"
    with launcher.Simulator(binary, path, password=PASSWORD) as sim:
        args = ["collect", "vsphere", "--server", sim.url, "--user", sim.user, "--ca-bundle", sim.cert, "-o", str(out)]
        outcome = CliRunner().invoke(cli, args, env={"HOSTLINT_VSPHERE_PASSWORD": PASSWORD}, standalone_mode=False)

    assert outcome.exception is None or isinstance(outcome.exception, SystemExit), outcome.exception
    assert outcome.return_value == Exit.PARTIAL, outcome.output
    written = out.read_text()
    assert "\u202e" not in written and "web\\n01" not in written.replace("web\\\\n01", "")
    snapshot = json.loads(written)
    errors = {(e["target"], e["reason"].split(":")[0]) for e in snapshot["collection_errors"]}
    # Each refused object is named (escaped, so a reader sees it) with what was not recorded.
    assert ("web\\n01", "virtual machine not recorded") in errors
    # A port group name is an identifier (it reaches fix scripts): the port group is left out, named with
    # its name escaped; one bad name never loses the host.
    assert (second["name"], "port group VM-Prod\\u202egnp.exe not recorded") in errors
    reasons = " ".join(e["reason"] for e in snapshot["collection_errors"])
    assert "control character U+000A" in reasons and "control character U+202E" in reasons
    # The rest is kept: every host, the first without only the refused VM, the second without only the
    # refused port group.
    names = [h["name"] for h in snapshot["esxi_hosts"]]
    assert [h["name"] for h in scenario["esxi_hosts"]] == names
    kept_second = next(h for h in snapshot["esxi_hosts"] if h["name"] == second["name"])
    assert [pg["name"] for pg in kept_second["portgroups"]] == [pg["name"] for pg in second["portgroups"][:-1]]
    kept = next(h for h in snapshot["esxi_hosts"] if h["name"] == first["name"])
    assert [vm["name"] for vm in kept["vms"]] == [vm["name"] for vm in first["vms"][1:]]
    # One line per error on the terminal, never a traceback.
    assert "Traceback" not in outcome.output
