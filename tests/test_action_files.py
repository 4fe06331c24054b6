"""Fix action files load through the one YAML loader (hostlint.yamlfile): one line naming file and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from hostlint.fixes.actions import ActionError, load_action

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "rules" / "fixes" / "switch-hash.yaml"


def _write(tmp_path: Path, text: str, name: str = "switch-hash") -> Path:
    path = tmp_path / f"{name}.yaml"
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


def test_the_file_is_named_after_the_action(tmp_path: Path) -> None:
    path = _write(tmp_path, SOURCE.read_text(encoding="utf-8"), name="other")
    with pytest.raises(ActionError, match=r"file name must be the action name \(switch-hash.yaml\)"):
        load_action(path)
