"""Collector specs (`collectors/<platform>/spec.yaml`) are read strictly, like rule and action files."""

from __future__ import annotations

from pathlib import Path

import pytest

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


@pytest.mark.parametrize("platform", ["cisco_ios", "cisco_nxos", "arista_eos", "juniper_junos"])
def test_every_shipped_spec_loads(platform: str) -> None:
    spec = load_platform(platform)
    assert spec.commands and all(command.template.exists() for command in spec.commands)


ROOT = Path(__file__).resolve().parent.parent


def _folder(platform: str) -> Path:
    """A platform's collector: its folder under hostlint/switches/ once moved there, else under collectors/."""
    moved = ROOT / "hostlint" / "switches" / platform
    return moved if moved.is_dir() else ROOT / "collectors" / platform


@pytest.mark.parametrize("platform", ["hp_comware", "huawei_vrp"])
def test_a_folder_not_registered_yet_loads_as_strictly(platform: str) -> None:
    """Comware and VRP are not collected yet (issue 29's folder design registers them): their specs
    are read by the same strict schema, and each names its own platform."""
    spec = load_folder(_folder(platform))
    assert spec.platform == platform and spec.commands
    assert all(command.template.exists() for command in spec.commands)
    with pytest.raises(UnsupportedPlatform, match="is not 'cisco_ios'"):
        load_folder(_folder(platform), "cisco_ios")


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


def test_an_unknown_hash_syntax_is_a_named_unknown_never_another_vendors_default(monkeypatch) -> None:
    """A platform whose load-balance syntax hostlint has no reader for gets no hash, and a warning
    naming it, even where its records look like another vendor's (here EOS's, whose reader would
    invent EOS's default hash for a configuration that says nothing)."""
    import dataclasses

    from hostlint import platforms as registry
    from hostlint.collect.switches import assemble
    from hostlint.collect.switches.inventory import Device
    from hostlint.collect.switches.parse import Parsed

    eos = registry.switch("arista_eos")
    unknown = dataclasses.replace(eos, hash_source="comware")  # type: ignore[arg-type]
    monkeypatch.setattr(assemble.registry, "switch", lambda name: unknown)
    context = assemble._Context(
        device=Device(name="sw-x", hostname="192.0.2.1", platform="arista_eos"),
        platform="arista_eos",
        sections={"config": Parsed(records={"load_balance": []})},
        commands={"config": "display current-configuration"},
    )
    assert assemble._load_balance(context) is None
    assert context.warnings == [
        "sw-x: display current-configuration: hash: hostlint reads no 'comware' load-balance syntax: "
        "the switch's hash is unknown"
    ]
    # The reader for a known syntax still reads it (EOS's documented default, where the configuration is silent).
    monkeypatch.setattr(assemble.registry, "switch", lambda name: eos)
    assert assemble._load_balance(context) is not None
