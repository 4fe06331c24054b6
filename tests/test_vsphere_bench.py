"""bench/vsphere.py keeps working: a tiny inventory through all three clients, same facts."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("go") is None and not os.environ.get("CI"), reason="Go builds the simulator"),
]


def test_bench_runs_all_three_clients_on_a_small_inventory(capsys):
    spec = importlib.util.spec_from_file_location("bench_vsphere", ROOT / "bench" / "vsphere.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)

    assert bench.main(["--hosts", "6", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert results["naive_same_facts"] is True
    methods = results["hostlint"]["methods"]
    # the hosts' names, then their facts in two slices, the switches, the VMs; a hint and an iSCSI query per host
    assert (methods["RetrievePropertiesEx"], methods["QueryNetworkHint"], methods["QueryBoundVnics"]) == (5, 6, 6)
    # + the names query, its view, and pyvmomi's fetch of the service content
    assert results["hostlint"]["calls"] <= results["go"]["calls"] + 4
    assert results["naive"]["calls"] > 2 * results["hostlint"]["calls"]
