"""bench/vsphere.py keeps working: a tiny inventory through all three clients, same facts."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path

import pytest

from hostlint.collect.vsphere.retrieve import HOST_SLICE

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("go") is None and not os.environ.get("CI"), reason="Go builds the simulator"),
]


def test_bench_runs_every_contender_on_both_inventories(capsys):
    spec = importlib.util.spec_from_file_location("bench_vsphere", ROOT / "bench" / "vsphere.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)

    assert bench.main(["--hosts", "6", "--repeat", "1", "--naive-sample", "4", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    scenario, stock = results["inventories"]["scenario"], results["inventories"]["stock"]
    for found in (scenario, stock):
        assert found["parsers_same_facts"] is True
        assert found["naive_same_facts"] is True
        assert set(found["contenders"]) == {"go", "hostlint", "hostlint-pyvmomi", "cli", "naive"}
        assert found["contenders"]["naive"]["sample_hosts"] == 4
        assert found["contenders"]["cli"]["rss_mib"] > 0
    methods = scenario["contenders"]["hostlint"]["methods"]
    # the hosts' names, then their facts a slice at a time, the switches, the VMs; a hint and an iSCSI query per host
    slices = -(-6 // HOST_SLICE)
    expected = (3 + slices, 6, 6)
    assert (methods["RetrievePropertiesEx"], methods["QueryNetworkHint"], methods["QueryBoundVnics"]) == expected
    # + the names query, its view, and pyvmomi's fetch of the service content
    assert scenario["contenders"]["hostlint"]["calls"] <= scenario["contenders"]["go"]["calls"] + 4
    # the naive client walked 4 hosts of 6 and still made more calls than hostlint for all of them
    assert scenario["contenders"]["naive"]["calls"] > scenario["contenders"]["hostlint"]["calls"]
    # the stock hosts have no iSCSI manager: nothing to ask there
    assert "QueryBoundVnics" not in stock["contenders"]["hostlint"]["methods"]
