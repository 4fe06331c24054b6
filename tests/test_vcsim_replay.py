"""The simulator's record and replay (sim/vcsim record.go, replay.go; bench/scan_sources.py's replayed vCenters).

A simulator run with `-record FILE` writes down every exchange; `vcsim -replay FILE` serves them again with
no inventory behind them. The replay answers a recorded request with the recorded bytes and anything else
with a fault it counts, and a collection from it (real SOAP, real pyVmomi, both parsers) is the collection
from the simulator.
"""

from __future__ import annotations

import base64
import json
import ssl
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from support.vcsim import PASSWORD, SITE, launcher, needs_simulator

from hostlint.collect.vsphere import collect, connect, disconnect, parse_server, tls_context
from hostlint.snapshot import Snapshot

pytestmark = needs_simulator


def _collect(server: Any, parser: str = "lxml") -> Snapshot:
    endpoint = parse_server(server.url)
    si = connect(endpoint, server.user, PASSWORD, tls_context(ca_bundle=Path(server.cert)))
    try:
        # One name for the source whatever the port: the snapshots are compared whole.
        return collect(si, "vcenter.test", parser=parser).snapshot  # type: ignore[arg-type]
    finally:
        disconnect(si)


def _comparable(snapshot: Snapshot) -> dict[str, Any]:
    return snapshot.model_dump(mode="json", exclude={"collected_at"})


def _post(server: Any, body: bytes) -> tuple[int, bytes]:
    request = urllib.request.Request(
        server.url, data=body, method="POST", headers={"Content-Type": "text/xml; charset=utf-8"}
    )
    context = ssl.create_default_context(cafile=server.cert)
    try:
        with urllib.request.urlopen(request, context=context, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.fixture(scope="module")
def recorded(vcsim_binary: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Snapshot]:
    """The site scenario collected once from the simulator, its exchange recorded."""
    recording = tmp_path_factory.mktemp("replay") / "site.jsonl"
    with launcher.Simulator(vcsim_binary, SITE, password=PASSWORD, extra_args=("-record", str(recording))) as sim:
        snapshot = _collect(sim)
    return recording, snapshot


def test_the_replay_answers_each_recorded_request_with_the_recorded_bytes(
    vcsim_binary: Path, recorded: tuple[Path, Snapshot]
) -> None:
    recording, _ = recorded
    exchanges = [json.loads(line) for line in recording.read_text(encoding="utf-8").splitlines()]
    posts = [ex for ex in exchanges if ex["method"] == "POST"]
    methods = {base64.b64decode(ex["request"]).split(b"<soapenv:Body>", 1)[1][:60] for ex in posts}
    assert any(b"RetrievePropertiesEx" in m for m in methods) and any(b"QueryNetworkHint" in m for m in methods)
    with launcher.Simulator(vcsim_binary, None, replay=recording) as replay:
        for ex in posts:
            status, body = _post(replay, base64.b64decode(ex["request"]))
            assert (status, body) == (ex["status"], base64.b64decode(ex["body"]))
        assert replay.stats()["unmatched"] == 0
        # A request nobody recorded: a SOAP fault, counted.
        altered = base64.b64decode(posts[-1]["request"]).replace(b"</soapenv:Body>", b"<!-- x --></soapenv:Body>")
        status, body = _post(replay, altered)
        assert status == 500 and b"no recorded answer" in body
        assert replay.stats()["unmatched"] == 1


def test_a_collection_from_the_replay_is_the_collection_from_the_simulator(
    vcsim_binary: Path, recorded: tuple[Path, Snapshot]
) -> None:
    recording, from_simulator = recorded
    assert len(from_simulator.esxi_hosts) == 3 and from_simulator.distributed_switches
    with launcher.Simulator(vcsim_binary, None, replay=recording) as replay:
        # Twice (a recorded login answers every later one) and through pyVmomi's own parser too.
        for parser in ("lxml", "lxml", "pyvmomi"):
            assert _comparable(_collect(replay, parser)) == _comparable(from_simulator)
        assert replay.stats()["unmatched"] == 0
        # The wrong password is no recorded request: the login fails.
        with pytest.raises(Exception, match="no recorded answer"):
            connect(parse_server(replay.url), replay.user, "wrong", tls_context(ca_bundle=Path(replay.cert)))


def test_the_replay_answers_late_by_the_delay_asked(vcsim_binary: Path, recorded: tuple[Path, Snapshot]) -> None:
    recording, _ = recorded
    exchanges = (json.loads(line) for line in recording.read_text(encoding="utf-8").splitlines())
    first = next(ex for ex in exchanges if ex["method"] == "POST")
    request = base64.b64decode(first["request"])
    with launcher.Simulator(vcsim_binary, None, replay=recording, extra_args=("-delay-ms", "300")) as replay:
        started = time.monotonic()
        status, _ = _post(replay, request)
        assert status == first["status"] and time.monotonic() - started >= 0.3
