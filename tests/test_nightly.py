"""Nightly operations: notifications after a scan (Apprise, to a real SMTP server and a real webhook receiver
on loopback), retention (`history --prune`), sources collected concurrently, the scan inventory documented."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from email import message_from_bytes
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import click
import pytest
import yaml
from aiosmtpd.controller import Controller
from click.testing import CliRunner
from support.cli import run
from support.vcsim import launcher, needs_go

from hostlint.check import check_paths
from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.history.inventory import ScanInventory
from hostlint.history.sources import FileSource, gather
from hostlint.history.store import open_store
from hostlint.rules import load_rules
from hostlint.snapshot import Snapshot

ROOT = Path(__file__).resolve().parent.parent
LABS = ROOT / "fixtures" / "labs"


# --- a real SMTP server and a real webhook receiver on loopback ----------------------------------------------------


class Mailbox:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # aiosmtpd's handler hook
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def smtp() -> Iterator[tuple[Mailbox, int]]:
    mailbox = Mailbox()
    port = _free_port()
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield mailbox, port
    finally:
        controller.stop()


@pytest.fixture
def webhook() -> Iterator[tuple[list[dict[str, Any]], int]]:
    received: list[dict[str, Any]] = []

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers["Content-Length"])
            received.append(json.loads(self.rfile.read(length)))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield received, server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def _body(mail: Message) -> str:
    part = next(p for p in mail.walk() if p.get_content_type() == "text/plain")
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode("utf-8").replace("\r\n", "\n")


def test_a_scan_tells_mail_and_a_webhook_of_new_resolved_and_expiring_findings(tmp_path, smtp, webhook):
    mailbox, smtp_port = smtp
    hooks, hook_port = webhook
    db = str(tmp_path / "h.sqlite")
    mail_url = f"mailto://127.0.0.1:{smtp_port}?from=hostlint@example.com&to=netops@example.com"
    notify = ["--notify", mail_url, "--notify", f"json://127.0.0.1:{hook_port}/hostlint"]
    # First scan of the site, clean: nothing to tell.
    code, out, _ = run("scan", str(LABS / "clean"), "--isolated", "--db", db, "--site-name", "lon1", *notify)
    assert code == Exit.CLEAN and "notified" not in out
    assert (mailbox.messages, hooks) == ([], [])
    # The demo lab, with LG003 (a warning) accepted by the baseline until ten days from now.
    until = date.today() + timedelta(days=10)
    baseline = tmp_path / "baseline.yaml"
    baseline.write_text(
        yaml.safe_dump({"ignore": [{"code": "LG003", "object": "*", "reason": "change 42", "until": until}]}),
        encoding="utf-8",
    )
    args = ["scan", str(LABS / "demo"), "--isolated", "--db", db, "--site-name", "lon1", "--baseline", str(baseline)]
    code, out, err = run(*args, *notify)
    assert code == Exit.FINDINGS, err
    # The demo's 7 findings, the 2 LG003 among them baselined.
    assert "notified 2 targets: 5 new, 0 resolved, 2 expiring" in out
    (mail,) = mailbox.messages
    assert mail["Subject"] == "hostlint: site lon1, scan 2: 5 new, 0 resolved, 2 expiring"
    assert mail["To"] == "netops@example.com"
    body = _body(mail)
    assert "Scan 2 of site lon1 (since scan 1)." in body and "New findings (5):" in body
    assert re.search(r"^  error LG001 esx\S+: ", body, re.MULTILINE)
    assert len(re.findall(rf"^  LG003 \S+: accepted until {until}$", body, re.MULTILINE)) == 2
    assert "Baseline entries expiring within 14 days (2):" in body
    assert "hostlint diff 1 2" in body
    (hook,) = hooks
    assert hook["title"] == mail["Subject"] and hook["message"].strip() == body.strip()
    # Back to the clean lab: everything resolved.
    code, out, _ = run("scan", str(LABS / "clean"), "--isolated", "--db", db, "--site-name", "lon1", *notify)
    assert code == Exit.CLEAN and "0 new, 5 resolved, 0 expiring" in out
    assert len(mailbox.messages) == 2 and "Resolved (5):" in _body(mailbox.messages[1])
    # The same again: nothing changed, nobody is told.
    run("scan", str(LABS / "clean"), "--isolated", "--db", db, "--site-name", "lon1", *notify)
    assert len(mailbox.messages) == 2 and len(hooks) == 2


def test_notify_urls_come_from_the_scan_inventory_too(tmp_path, webhook):
    hooks, hook_port = webhook
    inventory = tmp_path / "scan.yaml"
    inventory.write_text(
        yaml.safe_dump(
            {
                "site_name": "par1",
                "snapshots": [str(p) for p in sorted((LABS / "ip-hash-no-port-channel").glob("*.json"))],
                "notify": [f"json://127.0.0.1:{hook_port}/x"],
            }
        ),
        encoding="utf-8",
    )
    code, out, _ = run("scan", "--inventory", str(inventory), "--isolated", "--db", str(tmp_path / "h.sqlite"))
    assert code == Exit.FINDINGS and "notified 1 target" in out
    (hook,) = hooks
    assert hook["title"].startswith("hostlint: site par1, scan 1:") and "first scan of the site" in hook["message"]


def test_a_failed_notification_names_the_target_without_its_password(tmp_path):
    # A port nothing listens on: the SMTP connection is refused. The URL carries a password.
    url = f"mailto://netops:s3cret-pw@127.0.0.1:{_free_port()}?from=hostlint@example.com&to=netops@example.com"
    code, out, err = run("scan", str(LABS / "demo"), "--isolated", "--db", str(tmp_path / "h.sqlite"), "--notify", url)
    assert code == Exit.FINDINGS and "scan 1 stored" in out
    (line,) = err.splitlines()
    assert line.startswith("hostlint: notification to mailto://netops:****@127.0.0.1:") and "(scan 1 is stored)" in line
    assert "s3cret-pw" not in out + err


def test_an_unknown_notification_url_is_exit_2_before_scanning(tmp_path):
    code, _, err = run("scan", str(LABS / "demo"), "--db", str(tmp_path / "h.sqlite"), "--notify", "nope://x:pw@h")
    assert (
        code == Exit.USAGE
        and err == "hostlint: --notify nope://h: not a notification URL Apprise knows (see its wiki)\n"
    )
    assert not (tmp_path / "h.sqlite").exists()


# --- retention -------------------------------------------------------------------------------------------------


def _store_scans(db: str, site: str, ages_days: list[int]) -> None:
    snapshot, result = check_paths([LABS / "clean"], load_rules())
    store = open_store(db)
    try:
        for age in ages_days:
            started = datetime.now(UTC) - timedelta(days=age)
            store.record(snapshot, result, started_at=started, exit_code=0, site=site)
    finally:
        store.close()


def _ids(db: str, site: str) -> list[int]:
    out = run("history", "--db", db, "--site-name", site, "--format", "json")[1]
    return [scan["id"] for scan in json.loads(out)["scans"]]


def test_history_prune_by_count_keeps_the_newest_per_site(tmp_path):
    db = str(tmp_path / "h.sqlite")
    _store_scans(db, "lon1", [5, 4, 3, 2, 1])  # ids 1-5
    _store_scans(db, "par1", [9, 8])  # ids 6-7
    code, out, _ = run("history", "--db", db, "--prune", "--keep-scans", "2")
    assert code == Exit.CLEAN and out.startswith("pruned 3 scans (1, 2, 3) from sqlite:///") and "4 scans left" in out
    assert _ids(db, "lon1") == [4, 5] and _ids(db, "par1") == [6, 7]
    # The pruned scans' findings, skips and snapshots went with them.
    store = open_store(db)
    try:
        assert store.count() == 4 and len(store.skipped(4)) == len(store.skipped(5))
    finally:
        store.close()


def test_history_prune_by_age_of_one_site_keeps_its_newest(tmp_path):
    db = str(tmp_path / "h.sqlite")
    _store_scans(db, "lon1", [400, 200, 100, 10])  # ids 1-4
    _store_scans(db, "par1", [500, 300])  # ids 5-6: all old, but the newest stays
    assert run("history", "--db", db, "--prune", "--keep-days", "90", "--site-name", "lon1")[0] == Exit.CLEAN
    assert _ids(db, "lon1") == [4] and _ids(db, "par1") == [5, 6]
    assert run("history", "--db", db, "--prune", "--keep-days", "90")[0] == Exit.CLEAN
    assert _ids(db, "par1") == [6]


def test_history_prune_needs_a_rule_and_an_existing_database(tmp_path):
    with pytest.raises(click.UsageError, match="--prune needs --keep-days DAYS or --keep-scans N"):
        run("history", "--db", str(tmp_path / "h.sqlite"), "--keep-days", "3")
    code, _, err = run("history", "--db", str(tmp_path / "h.sqlite"), "--prune", "--keep-days", "3")
    assert code == Exit.USAGE and "no history database here" in err and not (tmp_path / "h.sqlite").exists()


# --- sources collected concurrently, within a bound ----------------------------------------------------------------


class _Waiting(FileSource):
    """A file source that answers after `delay`, like a vCenter across a WAN, counting who runs at once."""

    running = 0
    most = 0
    lock = threading.Lock()

    def __init__(self, paths: tuple[Path, ...], delay: float) -> None:
        super().__init__(paths)
        object.__setattr__(self, "delay", delay)

    def snapshot(self, progress: Any = None) -> Snapshot:
        with _Waiting.lock:
            _Waiting.running += 1
            _Waiting.most = max(_Waiting.most, _Waiting.running)
        try:
            time.sleep(self.delay)  # type: ignore[attr-defined]
            return super().snapshot(progress)
        finally:
            with _Waiting.lock:
                _Waiting.running -= 1


def test_gather_collects_sources_at_once_within_the_bound_and_merges_in_order(tmp_path):
    labs = ["clean", "demo", "jumbo-mismatch", "duplex-mismatch"]
    sources = []
    for n, lab in enumerate(labs):
        copy = tmp_path / lab
        shutil.copytree(LABS / lab, copy, ignore=shutil.ignore_patterns("expected.yaml", "cabling.yaml"))
        for file in copy.glob("*.json"):  # distinct names, so the four sites merge
            file.write_text(file.read_text().replace('"name": "', f'"name": "s{n}-'), encoding="utf-8")
        sources.append(_Waiting((copy,), delay=0.6))
    _Waiting.most = 0
    started = time.monotonic()
    merged = gather(sources, concurrency=2)
    elapsed = time.monotonic() - started
    assert _Waiting.most == 2  # the bound held, and was used
    assert 1.2 <= elapsed < 2.3  # two rounds of 0.6 s, not four
    serial = gather(sources, concurrency=1)
    assert merged == serial  # the same site, in the sources' order, whichever finished first


def test_the_scan_inventory_in_the_readme_is_valid_complete_and_its_schema_published():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"```yaml\n(# scan\.yaml\n.*?)```", readme, re.DOTALL)
    assert match, "README.md: no scan inventory example (```yaml starting with '# scan.yaml')"
    document = yaml.safe_load(match.group(1))
    inventory = ScanInventory.model_validate(document)
    assert inventory.vsphere and inventory.switches and inventory.kvm and inventory.notify
    missing = set(ScanInventory.model_fields) - set(document)
    assert not missing, f"README.md's scan inventory does not show {sorted(missing)}"
    code, out, _ = run("schema", "scan-inventory")
    assert code == Exit.CLEAN and json.loads(out)["properties"]["concurrency"]["default"] == 16


@pytest.mark.slow
@needs_go
def test_scan_collects_three_vcenters_at_once(vcsim_binary, tmp_path):
    """Three simulated vCenters (sim/vcsim, real SOAP and TLS), each answering every call 250 ms late as one
    across a slow WAN: collected at once they take about as long as one, one after another three times that.

    The latency is what collecting at once overlaps, so it is made to dominate: at 40 ms a call the CPU of
    three small collections on a loaded two-core machine weighed as much as the latency, and the two walls
    came out equal (1.81 and 1.78 s) though the three did run at once."""
    binary = vcsim_binary
    hosts = json.loads((LABS / "clean" / "hosts.json").read_text(encoding="utf-8"))
    password = "nightly-secret"
    with contextlib.ExitStack() as stack:
        sims = []
        for n in range(3):
            for host in hosts["esxi_hosts"]:
                host["name"] = re.sub(r"^(vc\d-)?", f"vc{n}-", host["name"])
            scenario = tmp_path / f"vc{n}.json"
            scenario.write_text(json.dumps(hosts), encoding="utf-8")
            sim = launcher.Simulator(binary, scenario, password=password, extra_args=("-delay-ms", "250"))
            sims.append(stack.enter_context(sim))
        entries = [{"server": sim.url, "user": sim.user, "ca_bundle": str(sim.cert)} for sim in sims]
        walls = {}
        for concurrency in (1, 3):
            inventory = tmp_path / f"scan-{concurrency}.yaml"
            inventory.write_text(yaml.safe_dump({"vsphere": entries, "concurrency": concurrency}), encoding="utf-8")
            env = {"HOSTLINT_VSPHERE_PASSWORD": password}
            started = time.monotonic()
            outcome = CliRunner().invoke(
                cli,
                ["scan", "--inventory", str(inventory), "--isolated", "--db", str(tmp_path / f"h{concurrency}.db")],
                env=env,
                standalone_mode=False,
            )
            walls[concurrency] = time.monotonic() - started
            assert outcome.exception is None and outcome.return_value == Exit.CLEAN, outcome.output
            history = run("history", "--db", str(tmp_path / f"h{concurrency}.db"), "--format", "json")[1]
            (scan,) = json.loads(history)["scans"]
            assert scan["inputs"] == [f"vsphere:127.0.0.1:{sim.port}" for sim in sims]
    assert walls[3] < 0.7 * walls[1], walls
