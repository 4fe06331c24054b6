"""`-o` into a folder that does not exist: one line, exit 2, before anything is collected."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

HOSTLINT = [sys.executable, "-c", "from hostlint.cli.main import main; main()"]
ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "command",
    [
        # an unreachable server: had it been tried, the error would say "cannot connect" and exit 3
        ["collect", "vsphere", "--server", "127.0.0.1:1", "--insecure"],
        ["collect", "kvm", "--host", "nobody@127.0.0.1", "--no-libvirt"],
        ["collect", "switches", "-i", str(ROOT / "no-such-inventory.yaml")],
    ],
    ids=["vsphere", "kvm", "switches"],
)
def test_output_into_a_missing_folder_is_refused_before_collecting(command: list[str], tmp_path: Path) -> None:
    target = tmp_path / "missing" / "snap.json"
    done = subprocess.run(
        [*HOSTLINT, *command, "-o", str(target)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PATH": "/usr/bin:/bin", "HOSTLINT_VSPHERE_PASSWORD": "x", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [f"Error: -o {target}: {target.parent} does not exist"]
    assert not target.parent.exists()


def test_output_under_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    target = tmp_path / "file" / "snap.json"
    done = subprocess.run(
        [*HOSTLINT, "collect", "kvm", "--local", "--no-libvirt", "-o", str(target)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 2
    assert done.stderr.strip() == f"Error: -o {target}: {target.parent} is not a folder"
