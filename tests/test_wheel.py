"""The built wheel, installed in a clean venv, works on its own.

An editable install reads `rules/` and the platform folders' templates from the checkout, so it
cannot show that the wheel ships them. These tests build the wheel, install it
(with its dependencies from the package index) into a fresh venv, and run the
venv's `hostlint` from a folder outside the repository.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CLEAN_LAB = REPO / "fixtures" / "labs" / "clean"

pytestmark = pytest.mark.slow


@dataclass
class Installed:
    wheel: Path
    venv: Path
    outside: Path

    @property
    def hostlint(self) -> Path:
        return self.venv / "bin" / "hostlint"

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"


def _clean_env() -> dict[str, str]:
    # PYTHONPATH (or a user site) pointing at the checkout would let the source tree stand in for the wheel.
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON") and k != "VIRTUAL_ENV"}
    env["PYTHONNOUSERSITE"] = "1"
    return env


def _run(command: list[str | Path], cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _ok(done: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert done.returncode == 0, f"{done.args} exited {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """One wheel and one venv for every test here: building and installing is the slow part."""
    root = tmp_path_factory.mktemp("wheel")
    dist = root / "dist"
    _ok(_run([sys.executable, "-m", "build", "--wheel", "--outdir", dist], cwd=REPO))
    wheels = sorted(dist.glob("hostlint-*.whl"))
    assert len(wheels) == 1, f"expected one wheel in {dist}, found {wheels}"
    venv = root / "venv"
    _ok(_run([sys.executable, "-m", "venv", venv], cwd=root))
    _ok(_run([venv / "bin" / "python", "-m", "pip", "install", "--disable-pip-version-check", "-q", wheels[0]], root))
    outside = root / "elsewhere"
    outside.mkdir()
    return Installed(wheel=wheels[0], venv=venv, outside=outside)


def test_wheel_ships_rules_and_collectors(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    assert "hostlint/_data/rules/LG001.yaml" in names
    # Each platform folder's collector: its spec and, per command, its template (hostlint/switches/<platform>/).
    folders = sorted(p.parent for p in (REPO / "hostlint" / "switches").glob("*/spec.yaml"))
    assert folders
    for folder in folders:
        shipped = {f"hostlint/switches/{folder.name}/{p.name}" for p in folder.glob("*.ttp")} | {
            f"hostlint/switches/{folder.name}/spec.yaml"
        }
        assert shipped <= names, sorted(shipped - names)


def test_wheel_ships_every_fix_action_folder(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    folders = sorted(p.parent.name for p in (REPO / "hostlint" / "fixes" / "actions").glob("*/action.yaml"))
    assert folders
    for folder in folders:
        assert f"hostlint/fixes/actions/{folder}/action.yaml" in names
        assert f"hostlint/fixes/actions/{folder}/__init__.py" in names


def test_wheel_ships_every_switch_platform_folder(installed: Installed) -> None:
    """A platform folder's templates, samples, spec and fix text are package data (hostlint/switches/)."""
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    folders = sorted(p.parent for p in (REPO / "hostlint" / "switches").glob("*/platform.py"))
    assert folders
    for folder in folders:
        for file in sorted(f for f in folder.iterdir() if f.is_file() and f.suffix != ".pyc"):
            assert f"hostlint/switches/{folder.name}/{file.name}" in names


def test_venv_uses_the_installed_wheel(installed: Installed) -> None:
    probe = (
        "import json, sysconfig, hostlint, hostlint.data; "
        "print(json.dumps({'package': hostlint.__file__, 'rules': str(hostlint.data.data_dir('rules')), "
        "'site': sysconfig.get_paths()['purelib']}))"
    )
    where = json.loads(_ok(_run([installed.python, "-c", probe], cwd=installed.outside)).stdout)
    site_packages = Path(where["site"]).resolve()
    assert site_packages.is_relative_to(installed.venv.resolve())
    assert Path(where["package"]).resolve().is_relative_to(site_packages / "hostlint")
    assert Path(where["rules"]).resolve() == site_packages / "hostlint" / "_data" / "rules"


def test_rules_lists_the_shipped_rules(installed: Installed) -> None:
    listed = json.loads(_ok(_run([installed.hostlint, "rules", "--format", "json"], cwd=installed.outside)).stdout)
    assert "LG001" in {rule["code"] for rule in listed}
    shipped = {path.stem for path in (REPO / "rules").glob("*.yaml")}
    assert {rule["code"] for rule in listed} == shipped


def test_check_clean_lab_exits_0(installed: Installed) -> None:
    done = _run([installed.hostlint, "check", CLEAN_LAB], cwd=installed.outside)
    assert done.returncode == 0, done.stdout + done.stderr


def test_check_finds_a_port_out_of_its_port_channel(installed: Installed, tmp_path: Path) -> None:
    lab = tmp_path / "lab"
    shutil.copytree(CLEAN_LAB, lab)
    switches_file = lab / "switches.json"
    snapshot = json.loads(switches_file.read_text(encoding="utf-8"))
    # esx01's vmnic3 lands on nx2 Ethernet1/11, one half of the vPC port-channel behind its IP-hash vSwitch1.
    nx2 = next(switch for switch in snapshot["switches"] if switch["name"] == "nx2")
    port = next(port for port in nx2["ports"] if port["name"] == "Ethernet1/11")
    channel = next(channel for channel in nx2["port_channels"] if channel["name"] == port["port_channel"])
    port["port_channel"] = None
    channel["members"].remove("Ethernet1/11")
    switches_file.write_text(json.dumps(snapshot, indent=1), encoding="utf-8")

    done = _run([installed.hostlint, "check", lab, "--format", "json"], cwd=installed.outside)
    assert done.returncode == 1, done.stdout + done.stderr
    findings = json.loads(done.stdout)["findings"]
    assert ("LG001", "esx01.lab.example.net/vSwitch1") in {(f["code"], f["object"]) for f in findings}

    # The fix actions load from the installed package (and check hostlint's rules) and write the scripts.
    out = tmp_path / "fixes"
    done = _run([installed.hostlint, "check", lab, "--fix-script", out, "--unsafe-fixes"], cwd=installed.outside)
    assert done.returncode == 1, done.stdout + done.stderr
    plan = (out / "PLAN.md").read_text(encoding="utf-8")
    assert "switch-static-port-channel" in plan
    assert any(path.name.startswith("nx2") for path in out.iterdir())
