"""Fix folders are owned: `--fix-script DIR` writes a manifest, replaces its own earlier run wholesale
and refuses a folder it did not write (exit 2, one line) unless `--force`. Driven through the CLI."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from click.testing import CliRunner

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.fixes.write import MANIFEST

DEMO = str(Path(__file__).parent.parent / "fixtures" / "labs" / "demo")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), standalone_mode=False, catch_exceptions=False)
    return result.return_value, result.stderr


def listed(directory: Path) -> dict[str, str]:
    data = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    assert data["generator"] == "hostlint"
    return {name: entry["sha256"] for name, entry in data["files"].items()}


def names(directory: Path) -> set[str]:
    return {p.name for p in directory.iterdir()}


def test_manifest_lists_every_file_written_with_its_hash(tmp_path: Path) -> None:
    out = tmp_path / "fix"
    code, err = run("check", DEMO, "--fix-script", str(out), "--unsafe-fixes", "--format", "json")
    assert code == Exit.FINDINGS
    files = listed(out)
    assert names(out) == set(files) | {MANIFEST}
    assert "PLAN.md" in files and any(n.endswith(".esxcli.sh") for n in files)
    for name, digest in files.items():
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest
    assert f"wrote {len(files)} files" in err


def test_rerun_replaces_its_own_earlier_output_wholesale(tmp_path: Path) -> None:
    out = tmp_path / "fix"
    run("check", DEMO, "--fix-script", str(out), "--unsafe-fixes", "--format", "json")
    first = listed(out)
    code, _ = run("check", DEMO, "--fix-script", str(out), "--format", "json")
    assert code == Exit.FINDINGS
    second = listed(out)
    # The safe plan writes fewer files: the unsafe run's switch scripts are gone, not left beside it.
    assert set(first) - set(second), "the two plans should differ for this test to mean anything"
    assert names(out) == set(second) | {MANIFEST}


def test_a_folder_hostlint_did_not_write_is_refused_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "fix"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n", encoding="utf-8")
    code, err = run("check", DEMO, "--fix-script", str(out), "--format", "json")
    assert code == Exit.USAGE
    assert len(err.strip().splitlines()) == 1 and "not written by hostlint" in err and "--force" in err
    assert names(out) == {"notes.txt"}
    code, _ = run("check", DEMO, "--fix-script", str(out), "--format", "json", "--force")
    assert code == Exit.FINDINGS
    # Forced: hostlint writes its files and manifest and keeps what it did not write.
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine\n"
    assert names(out) == set(listed(out)) | {MANIFEST, "notes.txt"}


def test_an_edited_script_is_not_replaced_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "fix"
    run("check", DEMO, "--fix-script", str(out), "--format", "json", "--unsafe-fixes")
    script = next(out.glob("*.esxcli.sh"))
    script.write_text(script.read_text(encoding="utf-8") + "# engineer's note\n", encoding="utf-8")
    code, err = run("check", DEMO, "--fix-script", str(out), "--format", "json", "--unsafe-fixes")
    assert code == Exit.USAGE and script.name in err and "changed" in err
    assert script.read_text(encoding="utf-8").endswith("# engineer's note\n")
    forced = ("--force", "--unsafe-fixes")
    assert run("check", DEMO, "--fix-script", str(out), "--format", "json", *forced)[0] == Exit.FINDINGS
    assert "engineer's note" not in script.read_text(encoding="utf-8")


def test_someone_elses_file_where_hostlint_would_write_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "fix"
    run("check", DEMO, "--fix-script", str(out), "--format", "json")
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    del manifest["files"]["PLAN.md"]
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    code, err = run("check", DEMO, "--fix-script", str(out), "--format", "json")
    assert code == Exit.USAGE and "PLAN.md was not written by hostlint" in err


def test_a_manifest_naming_a_path_outside_the_folder_removes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "fix"
    run("check", DEMO, "--fix-script", str(out), "--format", "json")
    victim = tmp_path / "victim.txt"
    victim.write_text("keep\n", encoding="utf-8")
    digest = hashlib.sha256(victim.read_bytes()).hexdigest()
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    manifest["files"]["../victim.txt"] = {"sha256": digest}
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    code, err = run("check", DEMO, "--fix-script", str(out), "--format", "json")
    assert code == Exit.USAGE and "not a hostlint fix manifest" in err
    assert victim.read_text(encoding="utf-8") == "keep\n"
    (out / MANIFEST).write_text("{not json", encoding="utf-8")
    assert run("check", DEMO, "--fix-script", str(out), "--format", "json")[0] == Exit.USAGE


def test_a_file_in_place_of_the_folder_is_a_usage_error(tmp_path: Path) -> None:
    out = tmp_path / "fix"
    out.write_text("x", encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", DEMO, "--fix-script", str(out), "--force"])
    assert result.exit_code == Exit.USAGE and "is a file" in result.stderr
    assert out.read_text(encoding="utf-8") == "x"


def test_plan_command_owns_its_folder_too(tmp_path: Path) -> None:
    out = tmp_path / "fix"
    out.mkdir()
    (out / "old.sh").write_text("echo\n", encoding="utf-8")
    change = "esx01.corp.example/vSwitch1.mtu=9000"
    code, err = run("plan", DEMO, "--set", change, "--fix-script", str(out))
    assert code == Exit.USAGE and "not written by hostlint" in err
    code, _ = run("plan", DEMO, "--set", change, "--fix-script", str(out), "--force")
    assert code in (Exit.CLEAN, Exit.FINDINGS)
    assert "PLAN.md" in listed(out)
