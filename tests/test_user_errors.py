"""Every mistake in what the user gives is exit 2 with one line naming it; reading never writes.

Each case runs the real command in a process, as a user or a scheduler does: the exit code and the stderr
line are what they see (hostlint.cli.main turns some errors into exit 2 only there).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hostlint.cli.exit import Exit

ROOT = Path(__file__).resolve().parent.parent
LABS = ROOT / "fixtures" / "labs"


def hostlint(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "hostlint", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )
    return done.returncode, done.stdout, done.stderr


def one_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("hostlint: ") and "internal error" not in lines[0], err
    return lines[0]


# --- files that are not files ------------------------------------------------------------------------------------


@pytest.mark.parametrize("option", [None, "--baseline", "--site"])
def test_a_fifo_is_refused_before_it_is_read(tmp_path, option):
    fifo = tmp_path / "snap.json"
    os.mkfifo(fifo)
    args = [str(fifo)] if option is None else [str(LABS / "clean"), option, str(fifo)]
    started = time.monotonic()
    code, _, err = hostlint("check", "--isolated", *args, timeout=30)  # it used to block on open forever
    assert time.monotonic() - started < 30
    assert code == Exit.USAGE and "a FIFO, not a regular file" in one_line(err) and str(fifo) in err


def test_dev_zero_as_a_snapshot_is_refused_without_reading_it():
    started = time.monotonic()
    code, _, err = hostlint("check", "--isolated", "/dev/zero", timeout=30)
    # It read 1 GiB before refusing; now nothing (a read of even the cap would take seconds and 1 GiB).
    assert code == Exit.USAGE and "/dev/zero: a character device" in one_line(err)
    assert time.monotonic() - started < 15


def test_a_fifo_as_known_hosts_is_refused(tmp_path):
    fifo = tmp_path / "known_hosts"
    os.mkfifo(fifo)
    inventory = tmp_path / "scan.yaml"
    inventory.write_text(f"kvm:\n  - host: root@127.0.0.1\nknown_hosts: {fifo}\n", encoding="utf-8")
    code, _, err = hostlint("scan", "--inventory", str(inventory), "--db", str(tmp_path / "h.db"), timeout=60)
    assert "not a regular file" in err and code in (Exit.USAGE, Exit.PARTIAL), err


# --- values Python cannot hold ---------------------------------------------------------------------------------------


def test_an_integer_over_4300_digits_in_a_snapshot(tmp_path):
    text = (LABS / "clean" / "hosts.json").read_text(encoding="utf-8")
    bad = tmp_path / "hosts.json"
    bad.write_text(text.replace('"mtu": 1500', '"mtu": ' + "9" * 5000, 1), encoding="utf-8")
    code, _, err = hostlint("check", "--isolated", str(bad))
    assert code == Exit.USAGE and "4300 digits" in one_line(err) and str(bad) in err


def test_an_integer_over_4300_digits_in_yaml(tmp_path):
    baseline = tmp_path / "baseline.yaml"
    baseline.write_text(f"ignore:\n  - code: LG001\n    object: x\n    reason: {'9' * 5000}\n", encoding="utf-8")
    code, _, err = hostlint("check", "--isolated", str(LABS / "clean"), "--baseline", str(baseline))
    assert code == Exit.USAGE and "4300 digits" in one_line(err)


@pytest.mark.parametrize("value", ["[" * 5000 + "]" * 5000, "{a=" * 5000 + "1" + "}" * 5000, "9" * 5000])
def test_settings_toml_nested_5000_deep_or_a_huge_integer(tmp_path, value):
    settings = tmp_path / "hostlint.toml"
    settings.write_text(f"x = {value}\n", encoding="utf-8")
    code, _, err = hostlint("check", str(LABS / "clean"), "--config", str(settings))
    assert code == Exit.USAGE and str(settings) in one_line(err)


@pytest.mark.parametrize("key", ["yes", "on", "off", "no", "true", "~"])
def test_inventory_keys_yaml_reads_as_booleans(tmp_path, key):
    switches = tmp_path / "hosts.yaml"
    switches.write_text(f"{key}:\n  hostname: 192.0.2.1\n  platform: cisco_ios\n", encoding="utf-8")
    code, _, err = hostlint("collect", "switches", "--inventory", str(switches), "-o", str(tmp_path / "s.json"))
    line = one_line(err)
    assert code == Exit.USAGE and f"key '{key}' (line 1)" in line and "quote it" in line
    scan = tmp_path / "scan.yaml"
    scan.write_text(f"{key}: 1\nvsphere: []\n", encoding="utf-8")
    code, _, err = hostlint("scan", "--inventory", str(scan), "--db", str(tmp_path / "h.db"))
    assert code == Exit.USAGE and f"key '{key}'" in one_line(err)
    assert not (tmp_path / "h.db").exists() and not (tmp_path / "s.json").exists()


# --- rules that fail as they run ---------------------------------------------------------------------------------

SITE_RULE = """\
code: ACME001
name: acme-check
severity: warning
profile: recommended
summary: A site rule.
why: Our standard.
examples:
  bad: x
  good: y
references:
  - title: "ACME standard"
    url: https://wiki.acme.example/net-7
iterate: vmks
when: 'true'
violation: '{violation}'
message: "port group {{actual}}"
expected: '"x"'
actual: vmk.portgroup
"""


def _site_rule(tmp_path: Path, violation: str) -> Path:
    folder = tmp_path / "site-rules"
    folder.mkdir(exist_ok=True)
    (folder / "ACME001.yaml").write_text(SITE_RULE.format(violation=violation), encoding="utf-8")
    return folder


def test_a_site_rules_runtime_error_names_the_rule(tmp_path):
    rules = _site_rule(tmp_path, "1 / (size(vmk.services) - size(vmk.services)) == 1")
    code, _, err = hostlint("check", "--isolated", str(LABS / "demo"), "--rules-dir", str(rules), "-q")
    line = one_line(err)
    assert code == Exit.USAGE and line.startswith("hostlint: rule ACME001 on esx01.corp.example/vmk0: violation:")
    assert "division by zero" in line


def test_four_nested_comprehensions_are_refused_when_the_rule_loads(tmp_path):
    """Four nested `exists` over a list ran 70 s; the rule is refused before anything runs."""
    nested = "vmk.services.exists(a, vmk.services.exists(b, vmk.services.exists(c, vmk.services.exists(d, a == d))))"
    rules = _site_rule(tmp_path, nested)
    started = time.monotonic()
    code, _, err = hostlint("check", "--isolated", str(LABS / "demo"), "--rules-dir", str(rules))
    assert code == Exit.USAGE and "ACME001.yaml:15:" in one_line(err) and "4 nested comprehensions" in err
    assert time.monotonic() - started < 30


def test_a_rule_over_its_time_budget_stops_the_check_naming_it(tmp_path):
    # Three nested comprehensions (allowed) over 100 elements: a million steps, far over a 0.05 s budget.
    numbers = "[" + ", ".join(str(n) for n in range(100)) + "]"
    slow = f"{numbers}.exists(a, {numbers}.exists(b, {numbers}.exists(c, a + b + c < 0)))"
    rules = _site_rule(tmp_path, slow)
    env = {"HOSTLINT_RULE_BUDGET_S": "0.05"}
    code, _, err = hostlint("check", "--isolated", str(LABS / "demo"), "--rules-dir", str(rules), env=env)
    line = one_line(err)
    assert code == Exit.USAGE and line.startswith("hostlint: rule ACME001 on ") and "budget 0.05 s" in line
    # With the default budget the same rule runs (and passes: no sum is negative).
    assert hostlint("check", "--isolated", str(LABS / "clean"), "--rules-dir", str(rules), "-q")[0] == Exit.CLEAN


# --- outputs that cannot be written ----------------------------------------------------------------------------------


@pytest.mark.parametrize("option", ["-o", "--write-baseline"])
def test_an_output_in_a_missing_folder_is_refused_before_checking(tmp_path, option):
    target = tmp_path / "no" / "such" / "report.txt"
    code, _, err = hostlint("check", "--isolated", str(LABS / "demo"), option, str(target))
    assert code == Exit.USAGE and f"{option} {target}: {target.parent} does not exist" in one_line(err)


@pytest.mark.parametrize("option", ["-o", "--write-baseline"])
def test_an_output_that_fails_as_it_is_written(tmp_path, option):
    # /dev/full: a real device whose every write fails with ENOSPC, the full disk of a nightly job.
    code, _, err = hostlint("check", "--isolated", str(LABS / "demo"), option, "/dev/full")
    assert code == Exit.USAGE and f"{option} /dev/full: cannot write: No space left on device" in one_line(err)


def test_scan_html_refused_before_storing_or_after_saying_the_scan_is_stored(tmp_path):
    db = tmp_path / "h.sqlite"
    code, _, err = hostlint("scan", str(LABS / "demo"), "--db", str(db), "--html", str(tmp_path / "no" / "r.html"))
    assert code == Exit.USAGE and "--html" in one_line(err) and not db.exists()
    code, _, err = hostlint("scan", str(LABS / "demo"), "--db", str(db), "--html", "/dev/full")
    line = one_line(err)
    assert code == Exit.USAGE and "--html /dev/full: cannot write: No space left on device" in line
    assert f"(scan 1 is stored in sqlite:///{db})" in line
    assert hostlint("history", "--db", str(db), "--format", "json")[0] == Exit.CLEAN


def test_history_and_diff_never_create_a_database(tmp_path):
    for command in ("history", "diff"):
        code, _, err = hostlint(command, "--db", str(tmp_path / "nonexistent" / "dir" / "h.db"))
        assert code == Exit.USAGE and "no history database here" in one_line(err)
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "HOSTLINT_DB": ""}
    code, _, err = hostlint("history", env=env)
    assert code == Exit.USAGE and "no history database here" in one_line(err)
    assert list(tmp_path.iterdir()) == []
    shutil.rmtree(tmp_path, ignore_errors=True)
