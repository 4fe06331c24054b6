"""Collector specs (`collectors/<platform>/spec.yaml`) are read strictly, like rule and action files."""

from __future__ import annotations

from pathlib import Path

import pytest

from hostlint.collect.switches.platforms import load_platform
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


@pytest.mark.parametrize("platform", ["cisco_ios", "cisco_nxos", "arista_eos", "juniper_junos"])
def test_every_shipped_spec_loads(platform: str) -> None:
    spec = load_platform(platform)
    assert spec.commands and all(command.template.exists() for command in spec.commands)


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
