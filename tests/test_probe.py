"""`hostlint probe` end to end: real don't-fragment pings, sent through the simulated vCenter's esxcli
executer (sim/vcsim diagping.go), between VMkernel ports that are veths in network namespaces, so the
kernel enforces every MTU on the path.

The fabric: four "hosts" on one bridge. esx01 and esx02 carry 9000 end to end; esx03's port on the
fabric is 1500 (a transit hop no snapshot shows); esx04's vmk really runs at 1500 although its
snapshot says 9000 (so its own stack refuses a jumbo probe: "Message too long").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import moved, probe_fabric
from support.probe_fabric import SITE, ip, needs_namespaces, vmotion_host
from support.vcsim import PASSWORD, launcher

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.collect.probe.pairs import choose
from hostlint.snapshot import Snapshot, load_snapshot
from hostlint.snapshot.esxi import EsxiHost, Vmk

# `fabric` and `scenario` are fixtures (tests/conftest.py). Moved to tests/support: see support/moved.py.
__getattr__ = moved.forward(probe_fabric, "fabric", "scenario")


def _probe(sim, scenario: Path, *extra: str):
    args = ["probe", str(scenario), "--vsphere", sim.url, "--user", sim.user, "--ca-bundle", sim.cert, *extra]
    return CliRunner().invoke(cli, args, env={"HOSTLINT_VSPHERE_PASSWORD": PASSWORD}, standalone_mode=False)


def test_pairs_are_chosen_from_the_snapshot():
    pairs, skipped = choose(SITE, peers=3)
    assert not skipped
    jumbo = {(p.source.host, p.target.host) for p in pairs if p.purpose == "jumbo"}
    assert ("esx01", "esx02") in jumbo and ("esx01", "esx04") in jumbo and ("esx01", "esx01") not in jumbo
    assert {p.size for p in pairs} == {8972, 1472}
    # every jumbo probe has its control probe to the same peer
    assert {(p.source.vmk, p.target.host) for p in pairs if p.purpose == "control"} == {
        (p.source.vmk, p.target.host) for p in pairs if p.purpose == "jumbo"
    }


def test_dry_run_lists_the_probes_and_sends_nothing(vcsim_binary, scenario):
    with launcher.Simulator(vcsim_binary, scenario, password=PASSWORD) as sim:
        outcome = _probe(sim, scenario, "--dry-run", "--peers", "1")
        calls = sim.stats()["methods"]
    assert outcome.return_value == Exit.CLEAN, outcome.output
    assert "esx01 vmk1 (defaultTcpipStack) -> esx02 vmk1 (10.77.0.2): 8972 bytes df (jumbo, MTU 9000)" in outcome.stdout
    assert "nothing sent" in outcome.stderr
    assert "ExecuteSoap" not in calls and "Login" not in calls


@needs_namespaces
def test_broken_working_and_locally_refused_paths_give_their_evidence(vcsim_binary, scenario, fabric, tmp_path):
    out = tmp_path / "probed.json"
    with launcher.Simulator(vcsim_binary, scenario, password=PASSWORD, extra_args=("-diag-ping", str(fabric))) as sim:
        outcome = _probe(sim, scenario, "--peers", "3", "--count", "2", "--wait", "1", "-o", str(out))
    assert outcome.return_value == Exit.FINDINGS, outcome.output
    probes = {(p.source_host, p.target_host, p.purpose): p for p in load_snapshot(out).probes}
    assert len(probes) == 4 * 3 * 2
    # 9000 end to end
    assert probes["esx01", "esx02", "jumbo"].delivered is True
    assert probes["esx01", "esx02", "jumbo"].received == 2
    # the uncollected 1500 hop drops the jumbo probe; the control probe gets through
    assert probes["esx01", "esx03", "jumbo"].delivered is False
    assert probes["esx01", "esx03", "jumbo"].sent == 2
    assert probes["esx01", "esx03", "control"].delivered is True
    # esx04's own stack refuses to send 8972 bytes with don't-fragment
    refused = probes["esx04", "esx01", "jumbo"]
    assert refused.error_kind == "too-big-locally" and "Message too long" in (refused.error or "")
    assert probes["esx04", "esx01", "control"].delivered is True
    assert "REFUSED LOCALLY" in outcome.stdout and "LOST 2/2" in outcome.stdout

    # The evidence is checked like any fact: the lost jumbo path names where the fault is.
    checked = CliRunner().invoke(
        cli, ["check", str(out), "--select", "MT020", "--format", "json"], standalone_mode=False
    )
    findings = {f["object"]: f["message"] for f in json.loads(checked.stdout)["findings"]}
    assert checked.return_value == Exit.FINDINGS, checked.output
    uncollected = findings["esx01/vmk1 -> esx03/vmk1 at 9000"]
    assert "every collected hop carries 9000: the fault is in a hop hostlint did not collect" in uncollected
    assert "the source host refused to send it (Message too long)" in findings["esx04/vmk1 -> esx01/vmk1 at 9000"]
    assert "esx01/vmk1 -> esx02/vmk1 at 9000" not in findings


def test_a_refused_executer_is_named_per_host_and_the_run_goes_on(vcsim_binary, scenario, tmp_path):
    out = tmp_path / "probed.json"
    extra = ("-deny", "RetrieveManagedMethodExecuter=Host.Config.Settings")
    with launcher.Simulator(vcsim_binary, scenario, password=PASSWORD, extra_args=extra) as sim:
        outcome = _probe(sim, scenario, "--peers", "1", "-o", str(out))
    assert outcome.return_value == Exit.PARTIAL, outcome.output
    probes = load_snapshot(out).probes
    assert len(probes) == 8
    assert all(p.error_kind == "refused" and "Host.Config.Settings" in (p.error or "") for p in probes)
    assert "NOT PROVEN (refused)" in outcome.stdout


def _estate_host(index: int) -> EsxiHost:
    host = vmotion_host(f"esx{index:03d}", index)
    host.vmks = [
        Vmk(name="vmk1", portgroup="vMotion", vswitch="vSwitch1", mtu=9000, ip=f"10.88.0.{index}", prefix=16,
            services=["vmotion"]),
        Vmk(name="vmk2", portgroup="vMotion", vswitch="vSwitch1", mtu=9000, ip=f"10.89.0.{index}", prefix=16,
            services=["vsan"]),
    ]  # fmt: skip
    return host


ESTATE = Snapshot(esxi_hosts=[_estate_host(i) for i in range(1, 101)])


@pytest.fixture
def estate(tmp_path) -> Iterator[tuple[Path, Path]]:
    """200 vmks, every one an address on one bridge in one namespace: each ping is real and quick."""
    namespace = f"hlp{os.getpid() % 100000}e"
    scenario = tmp_path / "estate.json"
    scenario.write_text(ESTATE.model_dump_json())
    targets = {
        host.name: {vmk.name: {"netns": namespace, "dev": "d0"} for vmk in host.vmks} for host in ESTATE.esxi_hosts
    }
    path = tmp_path / "diag-ping.json"
    path.write_text(json.dumps(targets))
    batch = tmp_path / "addresses"
    batch.write_text("".join(f"addr add {vmk.ip}/16 dev d0\n" for host in ESTATE.esxi_hosts for vmk in host.vmks))
    try:
        ip("netns", "add", namespace)
        ip("-n", namespace, "link", "set", "lo", "up")
        ip("-n", namespace, "link", "add", "d0", "type", "bridge")
        ip("-n", namespace, "link", "set", "d0", "mtu", "9000", "up")
        ip("-n", namespace, "-batch", str(batch))
        yield scenario, path
    finally:
        subprocess.run(["ip", "netns", "delete", namespace], capture_output=True, check=False)


def _diag_stats(sim) -> dict[str, int]:
    import ssl
    import urllib.request

    context = ssl.create_default_context(cafile=sim.cert)
    url = sim.url.replace("/sdk", "/hostlint/diag-stats")
    with urllib.request.urlopen(url, context=context, timeout=10) as answer:
        return json.loads(answer.read())


@needs_namespaces
def test_a_200_vmk_site_is_probed_with_bounded_concurrency(vcsim_binary, estate, tmp_path):
    scenario, targets = estate
    out = tmp_path / "probed.json"
    with launcher.Simulator(vcsim_binary, scenario, password=PASSWORD, extra_args=("-diag-ping", str(targets))) as sim:
        outcome = _probe(sim, scenario, "--peers", "1", "--count", "1", "--concurrency", "4", "-o", str(out))
        stats = _diag_stats(sim)
    assert outcome.return_value == Exit.CLEAN, outcome.output[-2000:]
    probes = load_snapshot(out).probes
    assert len(probes) == 200 * 2 and all(p.delivered for p in probes)
    assert stats["pings"] == 400
    assert 1 < stats["max_in_flight"] <= 4


@needs_namespaces
def test_a_spent_budget_leaves_the_rest_not_sent(vcsim_binary, estate, tmp_path):
    scenario, targets = estate
    out = tmp_path / "probed.json"
    with launcher.Simulator(vcsim_binary, scenario, password=PASSWORD, extra_args=("-diag-ping", str(targets))) as sim:
        started = time.monotonic()
        outcome = _probe(
            sim, scenario, "--peers", "1", "--count", "3", "--concurrency", "2", "--budget", "1", "-o", str(out)
        )
        elapsed = time.monotonic() - started
        stats = _diag_stats(sim)
    assert outcome.return_value == Exit.PARTIAL, outcome.output[-2000:]
    probes = load_snapshot(out).probes
    not_sent = [p for p in probes if p.error_kind == "not-sent"]
    sent = [p for p in probes if p.delivered]
    assert len(probes) == 400 and sent and not_sent
    assert len(sent) + len(not_sent) == 400 and stats["pings"] == len(sent)
    assert "budget of 1 s was spent" in (not_sent[0].error or "")
    # The probes in flight when the budget ran out finish (a few seconds); nothing new starts.
    assert elapsed < 20


def test_an_output_file_in_a_missing_folder_is_refused_before_anything_is_read(tmp_path):
    missing = tmp_path / "no-such-folder" / "probed.json"
    done = subprocess.run(
        [sys.executable, "-c", "from hostlint.cli.main import main; main()", "probe", str(tmp_path / "x.json"),
         "--dry-run", "-o", str(missing)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == Exit.USAGE
    assert done.stderr.strip().splitlines() == [f"Error: -o {missing}: {missing.parent} does not exist"]
