"""Settings files found as ruff finds its own, flags over the file, and typos in them refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.config import ConfigError, discover, load_config

LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"
LAB = LABS / "ip-hash-no-port-channel"


def run(*args: str) -> tuple[int, str, str]:
    outcome = CliRunner().invoke(cli, list(args), standalone_mode=False)
    assert outcome.exception is None, outcome.output
    return int(outcome.return_value), outcome.stdout, outcome.stderr


def codes(sarif_text: str) -> set[str]:
    return {r["ruleId"] for r in json.loads(sarif_text)["runs"][0]["results"]}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with a sub-folder to run from, and no settings file above it that counts."""
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "sub" / "deeper")
    return tmp_path


def test_without_settings_every_recommended_rule_runs(project):
    code, out, _ = run("check", str(LAB), "--format", "sarif")
    assert code == Exit.FINDINGS
    assert "LG001" in codes(out)


def test_pyproject_table_above_the_cwd_is_found_and_used(project):
    (project / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.hostlint]\nselect = ["MT"]\nformat = "sarif"\n'
    )
    assert discover(Path.cwd()) == project / "pyproject.toml"
    code, out, _ = run("check", str(LAB))
    assert json.loads(out)["version"] == "2.1.0"
    assert "LG001" not in codes(out)
    assert code == (Exit.FINDINGS if codes(out) else Exit.CLEAN)


def test_a_pyproject_without_the_table_is_passed_over(project):
    (project / "sub" / "pyproject.toml").write_text('[project]\nname = "x"\n')
    (project / "hostlint.toml").write_text('select = ["MT"]\n')
    assert discover(Path.cwd()) == project / "hostlint.toml"


def test_the_nearest_file_wins_and_hostlint_toml_before_pyproject(project):
    (project / "hostlint.toml").write_text('select = ["MT"]\n')
    (project / "sub" / "pyproject.toml").write_text('[tool.hostlint]\nselect = ["LG"]\n')
    (project / "sub" / "hostlint.toml").write_text('select = ["LG001"]\n')
    assert load_config(None, False).select == ["LG001"]


def test_flags_win_over_the_file_and_ignore_adds_to_it(project):
    (project / "hostlint.toml").write_text('select = ["MT"]\nignore = ["LG002"]\n')
    _, out, _ = run("check", str(LAB), "--format", "sarif", "--select", "LG")
    assert "LG001" in codes(out)
    assert "LG002" not in codes(out)
    _, out, _ = run("check", str(LAB), "--format", "sarif", "--select", "LG", "--ignore", "LG001")
    assert not {"LG001", "LG002"} & codes(out)


def test_isolated_ignores_the_file_and_config_names_another(project, tmp_path_factory):
    (project / "hostlint.toml").write_text('select = ["MT"]\n')
    _, out, _ = run("check", str(LAB), "--format", "sarif", "--isolated")
    assert "LG001" in codes(out)
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "team.toml"
    elsewhere.write_text('select = ["LG001"]\n')
    _, out, _ = run("check", str(LAB), "--format", "sarif", "--config", str(elsewhere))
    assert codes(out) == {"LG001"}
    code, _, err = run("check", str(LAB), "--config", str(elsewhere), "--isolated")
    assert code == Exit.USAGE and "exclude each other" in err


def test_paths_in_the_file_are_relative_to_it(project):
    (project / "baseline.yaml").write_text("ignore: []\n")
    (project / "hostlint.toml").write_text('baseline = "baseline.yaml"\nrules_dirs = ["site-rules"]\n')
    config = load_config(None, False)
    assert config.baseline == project.resolve() / "baseline.yaml"
    assert config.rules_dirs == [project.resolve() / "site-rules"]
    # The rules folder named there does not exist: that is an error, not an empty folder.
    code, _, err = run("check", str(LAB))
    assert code == Exit.USAGE
    assert err == f"hostlint: {project.resolve() / 'site-rules'}: rules directory does not exist\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('selcet = ["LG"]\n', "unknown key 'selcet'; did you mean 'select'?"),
        ("[timeouts]\nconect = 3\n", "unknown key 'timeouts.conect'; did you mean 'connect'?"),
        ('profile = "strcit"\n', "profile: Input should be 'minimal', 'recommended' or 'strict'"),
        ('format = "sarf"\n', "format: Input should be"),
        ('select = ["LGX01"]\n', "select: 'LGX01' is no rule code, prefix or name; did you mean"),
        ("select = [\n", "cannot read settings"),
    ],
)
def test_a_typo_in_the_file_is_exit_2_on_one_line(project, text, message):
    (project / "hostlint.toml").write_text(text)
    code, out, err = run("check", str(LAB))
    assert code == Exit.USAGE
    assert out == ""
    assert len(err.splitlines()) == 1
    assert str(project / "hostlint.toml") in err
    assert message in err


def test_pyproject_errors_name_the_table(project):
    (project / "pyproject.toml").write_text("[tool.hostlint]\nignroe = []\n")
    with pytest.raises(ConfigError, match=r"pyproject.toml: \[tool.hostlint\] unknown key 'ignroe'; did you mean"):
        load_config(None, False)


def test_collection_timeouts_come_from_the_file(project):
    (project / "hostlint.toml").write_text("[timeouts]\nconnect = 2.5\ncommand = 7\n")
    timeouts = load_config(None, False).timeouts
    assert (timeouts.connect, timeouts.command) == (2.5, 7)


def test_collect_switches_reads_its_timeouts_from_the_file(project):
    (project / "hostlint.toml").write_text("[timeouts]\nconect = 3\n")
    inventory = project / "switches.yaml"
    inventory.write_text("devices: []\n")
    code, _, err = run("collect", "switches", "-i", str(inventory), "-o", str(project / "out.json"))
    assert code == Exit.USAGE
    assert "unknown key 'timeouts.conect'; did you mean 'connect'?" in err


def test_scan_reads_the_settings_file_too(project):
    (project / "hostlint.toml").write_text('select = ["LGX01"]\n')
    code, _, err = run("scan", str(LAB), "--db", str(project / "history.sqlite"))
    assert code == Exit.USAGE
    assert "select: 'LGX01' is no rule code, prefix or name; did you mean" in err


def test_the_settings_file_knows_every_report_format():
    from typing import get_args

    from hostlint.config import FormatName
    from hostlint.report import FORMATS

    assert set(get_args(FormatName)) == set(FORMATS)
