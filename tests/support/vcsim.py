"""The vCenter simulator (sim/vcsim) for tests: its launcher, the mark that skips without Go, and the
session-wide build of the binary (`vcsim_binary`, registered for every test module in tests/conftest.py)."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The vSphere collector's scenario (tests/test_vsphere_collect.py collects it back) and its password.
SITE = ROOT / "fixtures" / "vsphere" / "site.yaml"
PASSWORD = "s3cret-for-tests"

# sim/ is no package (bench/vsphere.py loads the launcher the same way): loaded once here, by path.
_spec = importlib.util.spec_from_file_location("vcsim_launcher", ROOT / "sim" / "vcsim" / "launcher.py")
assert _spec is not None and _spec.loader is not None
launcher = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(launcher)

# CI must run these: there a missing Go toolchain fails the build instead of skipping it.
needs_go = pytest.mark.skipif(
    not launcher.go_available() and not os.environ.get("CI"), reason="Go builds the simulator"
)
# A module of tests that start the simulator: slow, and skipped without Go outside CI.
needs_simulator = [pytest.mark.slow, needs_go]


@pytest.fixture(scope="session")
def vcsim_binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The simulator built once per session (Go caches the work across sessions)."""
    return launcher.build(tmp_path_factory.mktemp("vcsim"))
