"""Every class of malformed input through every loader that reads it, through the real entry point.

Each case runs `hostlint.cli.main.main()` (what the `hostlint` console script runs) with a file
that is hostile or broken in one way, and asserts exit 2, exactly one line on stderr naming the
file, and no traceback. A few cases run again in a fresh `python -m hostlint` process.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from hostlint.cli.exit import Exit
from hostlint.cli.main import main
from hostlint.collect.switches.inventory import PASSWORD_ENV
from hostlint.rules import RuleError, load_rules

ROOT = Path(__file__).resolve().parent.parent
LAB = ROOT / "fixtures" / "labs" / "clean"
TEN_MB = 10 * 1024 * 1024


def _snapshot(**changes: object) -> dict:
    host = {"name": "esx01", "vswitches": [{"name": "vSwitch0", "mtu": 1500}]}
    document = {"schema_version": 1, "esxi_hosts": [host]}
    for where, value in changes.items():
        if where == "schema_version":
            document["schema_version"] = value
        elif where == "host_name":
            host["name"] = value
        elif where == "mtu":
            host["vswitches"][0]["mtu"] = value
    return document


# Broken in a way any text file can be: name -> (bytes, what the one line must say).
ENCODINGS: dict[str, tuple[bytes, str]] = {
    "binary": (bytes(range(256)) * 4, "not text (NUL byte at offset 0)"),
    "utf-16": ('{"a": "b"}\n'.encode("utf-16"), "UTF-16 text"),
    "utf-16-no-bom": ("a: b\n".encode("utf-16-le"), "UTF-16 text"),
    "invalid-utf-8": (b'{"a": "caf\xe9"}\n', "not UTF-8 text (byte 0xe9 at offset 10)"),
}

JSON_CASES: dict[str, tuple[bytes, str]] = {
    **ENCODINGS,
    "deep-json": (b"[" * 3000 + b"]" * 3000, "nested deeper than 64 levels"),
    "lone-surrogate": (b'{"schema_version": 1, "source": "a\\ud800b"}', "lone surrogate U+D800"),
    "duplicate-key": (b'{"schema_version": 1, "schema_version": 1}', "duplicate key 'schema_version'"),
    "schema-version-string": (json.dumps(_snapshot(schema_version="1")).encode(), "field schema_version"),
    "mtu-negative": (json.dumps(_snapshot(mtu=-5)).encode(), "vswitches.0.mtu: Input should be greater"),
    "mtu-huge": (json.dumps(_snapshot(mtu=10**30)).encode(), "vswitches.0.mtu"),
    "nul-in-name": (json.dumps(_snapshot(host_name="esx\x0001")).encode(), "control character U+0000"),
    "line-separator-in-name": (json.dumps(_snapshot(host_name="esx\u2028rm")).encode(), "U+2028"),
    "ten-mb-name": (json.dumps(_snapshot(host_name="x" * TEN_MB)).encode(), "a string of 10,485,760 characters"),
}

YAML_CASES: dict[str, tuple[bytes, str]] = {
    **ENCODINGS,
    "deep-yaml": (b"[" * 20000 + b"]" * 20000, "nested deeper than 64 levels"),
    "deep-yaml-block": ("".join(f"{'  ' * i}k{i}:\n" for i in range(200)).encode(), "nested deeper than 64"),
    "lone-surrogate": (b'ignore: "\\ud800"\n', "lone surrogate U+D800"),
    "duplicate-key": (b"ignore: []\nignore: []\n", "duplicate key 'ignore' (line 2)"),
    "long-string": (b"ignore: " + b"a" * 100_000 + b"\n", "line 1 is 100,008 characters long"),
    "alias-bomb": (
        "".join(
            f"{name}: &{name} [{', '.join([f'*{prev}'] * 9) if prev else '1, 2, 3, 4, 5, 6, 7, 8, 9'}]\n"
            for prev, name in zip(["", "a", "b", "c", "d", "e", "f"], "abcdefg", strict=True)
        ).encode(),
        "more than 500,000 values",
    ),
}


@pytest.fixture
def hostlint(monkeypatch, capsys) -> Callable[..., tuple[int, list[str]]]:
    """Run the console script's `main()` in this process: (exit code, stderr lines)."""
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    monkeypatch.delenv("HOSTLINT_DEBUG", raising=False)
    monkeypatch.setitem(sys.modules, "keyring", None)

    def run(*args: str | Path) -> tuple[int, list[str]]:
        capsys.readouterr()
        monkeypatch.setattr(sys, "argv", ["hostlint", *map(str, args)])
        with pytest.raises(SystemExit) as exited:
            main()
        return exited.value.code, capsys.readouterr().err.splitlines()

    return run


def assert_one_line(code: int, err: list[str], path: Path | str, expected: str) -> None:
    assert code == Exit.USAGE, err
    assert len(err) == 1, err
    assert "Traceback" not in err[0]
    assert str(path) in err[0]
    assert expected in err[0], err[0]


# Snapshot JSON -------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", list(JSON_CASES))
@pytest.mark.parametrize("command", ["check", "scan", "plan"])
def test_snapshot_json(hostlint, tmp_path, case, command):
    content, expected = JSON_CASES[case]
    snapshot = tmp_path / "snap.json"
    snapshot.write_bytes(content)
    args = {
        "check": ["check", snapshot],
        "scan": ["scan", snapshot, "--db", tmp_path / "h.sqlite"],
        "plan": ["plan", snapshot, "--set", "esx01/vmk0.mtu=9000"],
    }[command]
    assert_one_line(*hostlint(*args), snapshot, expected)


# YAML files: cabling, baseline, site parameters, change files, scan and switch inventories --------

YAML_LOADERS: dict[str, Callable[[Path, Path], list[str | Path]]] = {
    "cabling": lambda f, tmp: ["check", LAB, f],
    "baseline": lambda f, tmp: ["check", LAB, "--baseline", f],
    "site": lambda f, tmp: ["check", LAB, "--site", f],
    "change-file": lambda f, tmp: ["plan", LAB, "--change-file", f],
    "scan-inventory": lambda f, tmp: ["scan", "--inventory", f, "--db", tmp / "h.sqlite"],
    "switch-inventory": lambda f, tmp: ["collect", "switches", "-i", f, "-o", tmp / "out.json"],
    "nornir-groups": lambda f, tmp: ["collect", "switches", "-i", f.parent / "hosts.yaml", "-o", tmp / "out.json"],
}


@pytest.mark.parametrize("case", list(YAML_CASES))
@pytest.mark.parametrize("loader", list(YAML_LOADERS))
def test_yaml_files(hostlint, tmp_path, loader, case):
    content, expected = YAML_CASES[case]
    name = {"cabling": "cabling.yaml", "nornir-groups": "groups.yaml"}.get(loader, "input.yaml")
    target = tmp_path / name
    target.write_bytes(content)
    if loader == "nornir-groups":
        (tmp_path / "hosts.yaml").write_text("sw1:\n  platform: eos\n  groups: [campus]\n", encoding="utf-8")
    code, err = hostlint(*YAML_LOADERS[loader](target, tmp_path))
    assert_one_line(code, err, target, expected)
    assert not (tmp_path / "out.json").exists()


def test_rule_files(tmp_path):
    """Rule files have no CLI flag of their own yet; their loader is the same YAML reader."""
    for case, (content, expected) in YAML_CASES.items():
        folder = tmp_path / case
        folder.mkdir()
        (folder / "XX001.yaml").write_bytes(content)
        with pytest.raises(RuleError) as raised:
            load_rules(folder)
        assert expected in str(raised.value) and len(str(raised.value).splitlines()) == 1


# Inventories ---------------------------------------------------------------------------------------

INVENTORIES: dict[str, tuple[dict[str, str], str]] = {
    "nornir-data-not-a-mapping": (
        {"hosts.yaml": "sw1:\n  platform: eos\n  groups: [campus]\n", "groups.yaml": "campus:\n  data: [1, 2]\n"},
        "groups.yaml: group campus: data must be a mapping, found list",
    ),
    "nornir-host-data-not-a-mapping": ({"hosts.yaml": "sw1:\n  platform: eos\n  data: 7\n"}, "sw1: data must be"),
    "nornir-cycle": (
        {"hosts.yaml": "sw1:\n  platform: eos\n  groups: [a]\n", "groups.yaml": "a: {groups: [b]}\nb: {groups: [a]}\n"},
        "group cycle: a -> b -> a",
    ),
    "nornir-unknown-key": (
        {"hosts.yaml": "sw1:\n  platform: eos\n  hostnme: 192.0.2.1\n"},
        "hosts.yaml: sw1: unknown key 'hostnme' (did you mean 'hostname'?)",
    ),
    "ansible-yaml-cycle": (
        {"hosts.yaml": "all:\n  children:\n    a:\n      children: {b: }\n    b:\n      children: {a: }\n"},
        "group cycle: a -> b -> a",
    ),
    "ansible-yaml-unknown-key": (
        {"hosts.yaml": "all:\n  hosts:\n    sw1: {ansible_network_os: eos, ansible_hots: 192.0.2.1}\n"},
        "hosts.yaml: sw1: unknown key 'ansible_hots' (did you mean 'ansible_host'?)",
    ),
    "ansible-yaml-nested-children": (
        {
            "hosts.yaml": "all:\n  children:\n"
            + "".join(f"{'    ' * (i + 1)}g{i}:\n{'    ' * (i + 1)}  children:\n" for i in range(40))
        },
        "nested deeper than 64 levels",
    ),
    "ini-cycle": ({"hosts.ini": "[a:children]\nb\n[b:children]\na\n"}, "group cycle: a -> b -> a"),
    "ini-unknown-key": (
        {"hosts.ini": "sw1 ansible_network_os=eos ansible_hots=192.0.2.1\n"},
        "unknown key 'ansible_hots'",
    ),
    "ini-bad-line": ({"hosts.ini": "[campus]\nsw1 ansible_network_os\n"}, "line 2: expected key=value"),
    "ini-no-password": (
        {"hosts.ini": "[campus]\nsw1 ansible_host=192.0.2.1 ansible_network_os=eos\n"},
        "no password for sw1: set HOSTLINT_SWITCH_PASSWORD",
    ),
    "ini-binary": ({"hosts.ini": "\x00\x01\x02"}, "not text (NUL byte at offset 0)"),
    "nornir-fan-out-no-password": (
        {
            "hosts.yaml": "sw1:\n  platform: eos\n  groups: [g0]\n",
            "groups.yaml": "".join(f"g{i}:\n  groups: [{', '.join([f'g{i + 1}'] * 10)}]\n" for i in range(10))
            + "g10:\n  hostname: 192.0.2.1\n",
        },
        "no password for sw1",
    ),
}


@pytest.mark.parametrize("case", list(INVENTORIES))
def test_switch_inventories(hostlint, tmp_path, case):
    files, expected = INVENTORIES[case]
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    inventory = tmp_path / next(iter(files))
    started = time.monotonic()
    code, err = hostlint("collect", "switches", "-i", inventory, "-o", tmp_path / "out.json")
    assert time.monotonic() - started < 10  # bounded: a fan-out or a cycle never runs on
    assert_one_line(code, err, tmp_path, expected)
    assert not (tmp_path / "out.json").exists()


# History -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scan_ids", [["99999999999999999999"], ["1", "99999999999999999999"], ["0"]])
def test_scan_id_out_of_range(hostlint, tmp_path, scan_ids):
    db = tmp_path / "h.sqlite"
    code, err = hostlint("diff", *scan_ids, "--db", db)
    assert code == Exit.USAGE and len(err) == 1 and "out of range (1 to 9223372036854775807)" in err[0]


# The entry point -----------------------------------------------------------------------------------


def test_an_unexpected_error_is_one_line_with_its_own_exit_code(hostlint, monkeypatch, capsys):
    """A bug cannot be made on purpose without planting one: the one mock here."""

    def broken(*_args, **_kwargs):
        raise RuntimeError("planted\nbug")

    monkeypatch.setattr("hostlint.cli.check_cmd.load_site", broken)
    code, err = hostlint("check", LAB)
    assert code == Exit.INTERNAL != Exit.FINDINGS
    assert err == ["hostlint: internal error: RuntimeError: planted bug; rerun with --debug for the traceback"]
    code, err = hostlint("--debug", "check", LAB)
    assert code == Exit.INTERNAL
    assert err[0] == "Traceback (most recent call last):" and err[-2:] == ["RuntimeError: planted", "bug"]


def _process(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in (PASSWORD_ENV, "HOSTLINT_DEBUG")}
    return subprocess.run(
        [sys.executable, "-m", "hostlint", *map(str, args)],
        capture_output=True,
        text=True,
        env={**env, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )


def test_in_a_fresh_process(tmp_path):
    """The same refusals through `python -m hostlint`, as a user's shell runs them."""
    deep = tmp_path / "deep.json"
    deep.write_bytes(JSON_CASES["deep-json"][0])
    baseline = tmp_path / "baseline.yaml"
    baseline.write_bytes(YAML_CASES["deep-yaml"][0])
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[a:children]\nb\n[b:children]\na\n", encoding="utf-8")
    lab = tmp_path / "lab"
    shutil.copytree(LAB, lab)
    for args, path in [
        (["check", deep], deep),
        (["check", lab, "--baseline", baseline], baseline),
        (["collect", "switches", "-i", inventory, "-o", tmp_path / "out.json"], inventory),
        (["diff", "99999999999999999999", "--db", tmp_path / "h.sqlite"], "99999999999999999999"),
    ]:
        done = _process(*args)
        assert_one_line(done.returncode, done.stderr.splitlines(), path, "")


def test_every_lab_still_loads(hostlint):
    """The real ranges refuse nothing that the shipped labs hold."""
    for lab in sorted((ROOT / "fixtures" / "labs").iterdir()):
        code, err = hostlint("check", lab, "--format", "json")
        assert code in (Exit.CLEAN, Exit.FINDINGS), (lab.name, err)
