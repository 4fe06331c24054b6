"""Issue 29's measure: a new switch platform's commit touches only its own paths. No file of the repository
outside them names a platform that came as a folder, except the ones listed below with why; files a
command writes (the rule pages, the snapshot schema, docs/mtu.md's table) change by regenerating them, not
by hand."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from hostlint import switches
from hostlint.rules import load_rules
from hostlint.rules.docs import EVERY_SWITCH, platforms_text
from hostlint.switches import mtu_table

ROOT = Path(__file__).resolve().parent.parent

# The platforms that predate folders: central modules still name them while their pieces move
# (docs/design/platform-folders.md; tests/test_architecture.py counts what is left in hostlint/).
ORIGINAL = frozenset({"cisco_ios", "cisco_nxos", "arista_eos", "juniper_junos"})
FOLDER_PLATFORMS = sorted(set(switches.SWITCH_NAMES) - ORIGINAL)


def own_paths(platform: str) -> tuple[str, ...]:
    """What a platform's commit may add or edit by hand: its folder, its emulator module, its own tests
    and their goldens, and the changelog."""
    return (
        f"hostlint/switches/{platform}/",
        f"tests/switch_emulator/platforms/{platform}.py",
        f"tests/test_{platform}",
        f"tests/golden/fixes/{platform}/",
        f"tests/golden/fixes/kvm/{platform}/",
        "CHANGELOG.md",
    )


# Written by a command from the registry: a new platform regenerates them, it does not edit them. (The
# rule pages say "every switch platform" instead of naming them: test_rule_pages_name_no_switch_platform.)
GENERATED = {
    "docs/schemas/snapshot.schema.json": "hostlint schema snapshot (the platform enum)",
}

# Files outside a platform's own paths that name a folder platform on purpose. A new platform edits
# none of them; each says why it names one.
EXPLAINED = {
    "docs/architecture.md": "the worked example of a platform folder",
    "docs/design/platform-folders.md": "the design and its migration record",
    "hostlint/switches/contract.py": "an example of the contract's message in its docstring",
    "fixtures/labs/comware-ip-hash-lacp/switches.json": "Comware's lab, read by tests/test_hp_comware_lab.py",
    "fixtures/labs/vrp-ip-hash-lacp/switches.json": "VRP's lab, read by tests/test_huawei_vrp_lab.py",
    "tests/switch_emulator/stateful/comware.py": "Comware's stateful emulator, the second half of its module",
    "tests/test_comware_vrp_templates.py": "Comware's and VRP's template tests (per platform, in one file)",
    "tests/test_parser_score.py": "the bench's test, on a Comware capture as its example",
    "tests/test_platform_footprint.py": "this measure: its reasons name the files they explain",
}


def _tracked() -> list[str]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, text=True, timeout=60
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the measure reads the tracked files")
    return [path for path in listed.split("\0") if path and (ROOT / path).is_file()]


def _text(path: str) -> str:
    text = (ROOT / path).read_text(encoding="utf-8", errors="replace")
    if path == "docs/mtu.md":  # its table is written from the folders (hostlint.switches.mtu_table)
        start, end = text.find(mtu_table.BEGIN), text.find(mtu_table.END)
        text = text[:start] + text[end:] if 0 <= start < end else text
    return text


def naming(platforms: list[str]) -> dict[str, set[str]]:
    """Tracked file -> the folder platforms it names, outside each platform's own and generated paths."""
    found: dict[str, set[str]] = {}
    pattern = re.compile("|".join(re.escape(name) for name in platforms))
    for path in _tracked():
        if path.startswith(tuple(GENERATED)):
            continue
        named = {
            name
            for name in set(pattern.findall(_text(path)) if platforms else ())
            if not path.startswith(own_paths(name))
        }
        if named:
            found[path] = named
    return found


def test_no_file_outside_a_platforms_own_paths_names_it() -> None:
    found = naming(FOLDER_PLATFORMS)
    unexplained = {path: sorted(names) for path, names in found.items() if path not in EXPLAINED}
    assert unexplained == {}, "a new platform would edit these: read it from the platform's folder instead"
    # An explanation whose file no longer names a folder platform leaves the list.
    assert sorted(set(EXPLAINED) - set(found)) == []


def test_the_measure_sees_a_file_that_names_a_platform() -> None:
    """The check is real: the platforms' own files name them, and a name outside them is found."""
    assert FOLDER_PLATFORMS, "no platform came as a folder"
    found = naming(FOLDER_PLATFORMS)
    assert any(path.startswith("tests/test_parser_score") for path in found)
    for platform in FOLDER_PLATFORMS:
        assert not any(path.startswith(own_paths(platform)[0]) and platform in names for path, names in found.items())


def test_rule_pages_name_no_switch_platform() -> None:
    """A rule reading switch data applies to every switch platform and its page says so without naming
    them, so a new platform changes no rule page; a rule limited to some would name them."""
    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, switches.SWITCH_NAMES)) + r")\b")
    pages = sorted((ROOT / "docs" / "rules").glob("*.md"))
    assert pages and not [p.name for p in pages if pattern.search(p.read_text(encoding="utf-8"))]
    said = {platforms_text(rule.platforms) for rule in load_rules()}
    assert {"esxi", "esxi and kvm", f"esxi, kvm and {EVERY_SWITCH}"} <= said
    limited = ["esxi", *switches.SWITCH_NAMES[:2]]
    assert platforms_text(limited) == f"esxi, {switches.SWITCH_NAMES[0]} and {switches.SWITCH_NAMES[1]}"
