"""`hostlint probe --plan DIR --step N`: a fix plan's vmk MTU verify step run as probes through the simulated
vCenter (real SOAP, real `ping -M do` in tests/test_probe.py's namespaces), pass and fail, and exit 2 naming
a step that is not an MTU verify step.

The plans come from `hostlint plan --set HOST/vmk1.mtu=9000` on the fabric's snapshot with that vmk at
1500: esx01's step probes esx02 across a 9000 path (pass); esx03's probes esx01 through esx03's 1500
port on the fabric, a hop no snapshot shows (fail).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_probe import SITE, fabric, needs_namespaces  # noqa: F401 (fixture)
from test_vsphere_collect import PASSWORD, launcher, vcsim_binary  # noqa: F401 (fixture)

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.fixes.write import MANIFEST


def _invoke(*args: str):
    return CliRunner().invoke(cli, list(args), env={"HOSTLINT_VSPHERE_PASSWORD": PASSWORD}, standalone_mode=False)


def _plan(tmp_path: Path, change: str) -> Path:
    """The fix folder `hostlint plan --set change` writes for the site with that host's vmk1 at 1500."""
    host = change.split("/", 1)[0]
    site = SITE.model_copy(deep=True)
    for esxi in site.esxi_hosts:
        if esxi.name == host:
            esxi.vmks[0].mtu = 1500
    snapshot = tmp_path / f"{host}.json"
    snapshot.write_text(site.model_dump_json())
    folder = tmp_path / f"fix-{host}"
    outcome = _invoke("plan", str(snapshot), "--set", change, "--fix-script", str(folder))
    assert outcome.return_value == Exit.CLEAN, outcome.output
    return folder


@pytest.fixture
def scenario(tmp_path) -> Path:
    path = tmp_path / "hosts.json"
    path.write_text(SITE.model_dump_json())
    return path


def _probe_plan(sim, folder: Path, *extra: str):
    args = ["probe", "--plan", str(folder), "--step", "1", "--count", "2", *extra]
    if sim is not None:
        args += ["--vsphere", sim.url, "--user", sim.user, "--ca-bundle", sim.cert]
    return _invoke(*args)


def test_the_manifest_holds_the_plan_steps(tmp_path):
    folder = _plan(tmp_path, "esx01/vmk1.mtu=9000")
    [step] = json.loads((folder / MANIFEST).read_text())["steps"]
    assert (step["number"], step["action"], step["device"], step["target"], step["after"]) == (
        1, "vmk-mtu", "esx01", "vmk1", 9000
    )  # fmt: skip
    assert step["values"]["peer"] == "10.77.0.2" and step["values"]["netstack"] == "defaultTcpipStack"
    assert "vmkping -S defaultTcpipStack -d -s 8972 -I vmk1 10.77.0.2" in (folder / "PLAN.md").read_text()


@needs_namespaces
def test_an_mtu_step_that_passes_and_one_that_fails(vcsim_binary, scenario, fabric, tmp_path):  # noqa: F811
    passing = _plan(tmp_path, "esx01/vmk1.mtu=9000")
    failing = _plan(tmp_path, "esx03/vmk1.mtu=9000")
    extra = ("-diag-ping", str(fabric))
    with launcher.Simulator(vcsim_binary, scenario, password=PASSWORD, extra_args=extra) as sim:
        passed = _probe_plan(sim, passing)
        failed = _probe_plan(sim, failing)
    assert passed.return_value == Exit.CLEAN, passed.output
    assert (
        "step 1: esx01 vmk1 (defaultTcpipStack) -> 10.77.0.2: 8972 bytes df (jumbo, MTU 9000): PASS (delivered 2/2"
        in passed.stdout
    )
    assert "1472 bytes df (control, MTU 1500): PASS" in passed.stdout
    assert failed.return_value == Exit.FINDINGS, failed.output
    assert "step 1: esx03 vmk1 (defaultTcpipStack) -> 10.77.0.1: 8972 bytes df (jumbo, MTU 9000): FAIL (lost 2/2)" in (
        failed.stdout
    )
    assert "1472 bytes df (control, MTU 1500): PASS" in failed.stdout


def test_dry_run_sends_nothing(vcsim_binary, scenario, tmp_path):  # noqa: F811
    folder = _plan(tmp_path, "esx01/vmk1.mtu=9000")
    with launcher.Simulator(vcsim_binary, scenario, password=PASSWORD) as sim:
        outcome = _probe_plan(sim, folder, "--dry-run")
        calls = sim.stats()["methods"]
    assert outcome.return_value == Exit.CLEAN, outcome.output
    assert "step 1: esx01 vmk1 (defaultTcpipStack) -> 10.77.0.2: 8972 bytes df (jumbo, MTU 9000)" in outcome.stdout
    assert "nothing sent (--dry-run)" in outcome.stderr
    assert "Login" not in calls and "ExecuteSoap" not in calls


def test_a_step_that_is_not_an_mtu_verify_step_is_named(tmp_path):
    folder = _plan(tmp_path, "esx01/vSwitch1.mtu=1500")
    outcome = _probe_plan(None, folder, "--vsphere", "127.0.0.1:9")
    assert outcome.return_value == Exit.USAGE, outcome.output
    assert "step 1 (host-vswitch-mtu on esx01 vSwitch1: 9000 -> 1500) is not an MTU verify step" in outcome.stderr
    outcome = _invoke("probe", "--plan", str(folder), "--step", "7", "--dry-run")
    assert outcome.return_value == Exit.USAGE and "its plan has steps 1-1, no step 7" in outcome.stderr
    outcome = _invoke("probe", "--plan", str(tmp_path), "--step", "1", "--dry-run")
    assert outcome.return_value == Exit.USAGE and f"no {MANIFEST}" in outcome.stderr
