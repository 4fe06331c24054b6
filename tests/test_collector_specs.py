"""Collector specs (`hostlint/switches/<platform>/spec.yaml`) are read strictly, like rule and action files."""

from __future__ import annotations

from pathlib import Path

import pytest

from hostlint import switches
from hostlint.collect.switches.parse import parse_output
from hostlint.collect.switches.platforms import load_folder, load_platform
from hostlint.collect.switches.specfile import SpecFile
from hostlint.platforms import UnsupportedPlatform
from hostlint.yamlfile import load_model

GOOD = """\
platform: cisco_ios
device_type: cisco_ios
commands:
  - command: show interfaces
    section: interfaces
{extra}
"""


def _load(tmp_path: Path, extra: str) -> SpecFile:
    path = tmp_path / "spec.yaml"
    path.write_text(GOOD.format(extra=extra))
    return load_model(path, SpecFile, "collector spec", UnsupportedPlatform)


@pytest.mark.parametrize("platform", switches.SWITCH_NAMES)
def test_every_shipped_spec_loads(platform: str) -> None:
    spec = load_platform(platform)
    assert spec.commands and all(command.template.exists() for command in spec.commands)


# The registered platforms with a spec in their folder (every one).
FOLDER_SPECS = [name for name in switches.SWITCH_NAMES if (switches.folder(name) / "spec.yaml").is_file()]


@pytest.mark.parametrize("platform", FOLDER_SPECS)
def test_a_folder_spec_loads_strictly_and_names_its_platform(platform: str) -> None:
    spec = load_folder(switches.folder(platform))
    assert spec.platform == platform and spec.commands
    assert all(command.template.exists() for command in spec.commands)
    with pytest.raises(UnsupportedPlatform, match="is not 'not-this-platform'"):
        load_folder(switches.folder(platform), "not-this-platform")


@pytest.mark.parametrize("platform", FOLDER_SPECS)
def test_every_command_has_a_template_and_a_sample_that_parses_without_a_warning(platform: str) -> None:
    """Each command of a folder's spec has the project's own sample beside its template, counted
    independently (`records`), and the template reads it with no warning."""
    for command in load_folder(switches.folder(platform)).commands:
        sample = command.template.parent / f"{command.slug}.txt"
        assert sample.is_file(), command.command
        assert command.records, f"{command.command}: no independent count"
        parsed = parse_output(command, sample.read_text(encoding="utf-8"), "sw1")
        assert parsed.records and parsed.warnings == [] and parsed.notes == [], command.command


def test_a_valid_spec_loads(tmp_path: Path) -> None:
    spec = _load(
        tmp_path, "    optional: true\n    records: [{group: interfaces, what: interfaces, start: '^(\\\\S+) is '}]"
    )
    assert spec.commands[0].optional is True and spec.commands[0].records[0].key_field == "name"


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        ("    optinal: true", "optinal"),  # a typo is not `optional: false`
        ("    optional: yes please", "optional"),
        ("    records: [{group: g, what: w, start: '(unclosed'}]", "not a regular expression"),
        ("    records: [{group: g, what: w, start: x, only: svis}]", "only"),
        ("    records: [{group: g, what: w, start: x, feilds: {mtu: y}}]", "feilds"),
    ],
)
def test_a_mistake_names_the_file_and_the_key(tmp_path: Path, extra: str, named: str) -> None:
    with pytest.raises(UnsupportedPlatform) as error:
        _load(tmp_path, extra)
    message = str(error.value)
    assert "spec.yaml" in message and named in message and "\n" not in message


def test_an_unknown_section_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text("platform: cisco_ios\ndevice_type: cisco_ios\ncommands: [{command: show x, section: vlans}]\n")
    with pytest.raises(UnsupportedPlatform, match="section"):
        load_model(path, SpecFile, "collector spec", UnsupportedPlatform)
