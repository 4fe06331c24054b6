"""The headless Chromium the report tests render pages with."""

from __future__ import annotations

import shutil

import pytest


def chromium() -> str:
    """The browser's path; the test is skipped where none is installed."""
    for name in ("chromium", "chromium-browser"):
        if path := shutil.which(name):
            return path
    pytest.skip("no headless Chromium (Debian package chromium)")
