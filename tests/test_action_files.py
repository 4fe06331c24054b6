"""Fix action files load through the one YAML loader (hostlint.yamlfile): one line naming file and field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_fixes import findings_for, site

from hostlint.fixes import build_plan
from hostlint.fixes.actions import ActionError, load_action, load_actions
from hostlint.fixes.render import render

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "hostlint" / "fixes" / "actions" / "switch_hash" / "action.yaml"


def _write(tmp_path: Path, text: str, name: str = "switch_hash") -> Path:
    path = tmp_path / name / "action.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_an_unknown_platform_names_the_registrys(tmp_path: Path) -> None:
    path = _write(tmp_path, SOURCE.read_text(encoding="utf-8").replace("  cisco_ios:", "  cisco_iso:", 1))
    with pytest.raises(ActionError) as error:
        load_action(path)
    message = str(error.value)
    assert message.startswith(f"{path}: field platforms.cisco_iso.[key]: Value error, unknown platform 'cisco_iso'")
    assert "known: esxcli, powercli" in message and "\n" not in message


def test_a_misspelt_field_and_a_duplicate_key_are_errors(tmp_path: Path) -> None:
    text = SOURCE.read_text(encoding="utf-8")
    path = _write(tmp_path, text.replace("summary:", "sumary:", 1))
    with pytest.raises(ActionError, match=r"field sumary: Extra inputs are not permitted"):
        load_action(path)
    path = _write(tmp_path, text + "summary: again\n")
    with pytest.raises(ActionError, match="summary"):
        load_action(path)


def test_the_folder_is_named_after_the_action(tmp_path: Path) -> None:
    path = _write(tmp_path, SOURCE.read_text(encoding="utf-8"), name="other")
    with pytest.raises(ActionError, match=r"the folder must be named after the action \(switch_hash\)"):
        load_action(path)


def _swapped(template: str) -> str:
    return re.sub(r"\b(before|after)\b", lambda m: "after" if m.group(1) == "before" else "before", template)


def test_no_written_rollback_is_the_changes_mirror_image() -> None:
    """A rollback that is the change with before and after swapped is left out (derived), not written."""
    for action in load_actions().values():
        for platform, text in action.platforms.items():
            if text.rollback is not None:
                assert text.rollback != _swapped(text.change), f"{action.action} {platform}: leave `rollback` out"
            if text.mirrored and text.rollback_expect is not None:
                assert text.rollback_expect != _swapped(text.expect), f"{action.action} {platform}: leave it out"


def test_a_mirrored_rollback_sets_the_value_from_before() -> None:
    snapshot = site("cisco_nxos")
    plan = build_plan(findings_for(snapshot), snapshot)
    steps = [s for s in plan.steps if s.action.action in ("host-vswitch-mtu", "vmk-mtu")]
    assert steps
    for step in steps:
        before, after = str(step.change.before), str(step.change.after)
        assert before != after
        for platform in step.change.platforms:
            assert step.action.platforms[platform].mirrored
            change = render(step, platform, "change")
            assert after in change
            assert render(step, platform, "rollback") == change.replace(after, before)
        expect = render(step, "vsphere-api", "rollback_expect")
        assert expect == render(step, "vsphere-api", "expect").replace(after, before)
