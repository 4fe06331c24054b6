"""JSON Schemas published by `hostlint schema NAME` (and kept in docs/schemas/): the files match the
models, and real snapshots and outputs validate against them while broken ones do not."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from hostlint.cli.main import cli
from hostlint.schemas import SCHEMAS

ROOT = Path(__file__).resolve().parent.parent
PUBLISHED = ROOT / "docs" / "schemas"
LABS = sorted(p for p in (ROOT / "fixtures" / "labs").iterdir() if p.is_dir())


def invoke(*args: str) -> str:
    outcome = CliRunner().invoke(cli, list(args), standalone_mode=False)
    assert outcome.exception is None, outcome.output
    return outcome.stdout


def validator(name: str) -> jsonschema.protocols.Validator:
    schema = json.loads((PUBLISHED / f"{name}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_the_published_schema_is_what_the_command_prints(name):
    printed = invoke("schema", name)
    assert json.loads(printed) == json.loads((PUBLISHED / f"{name}.schema.json").read_text(encoding="utf-8")), (
        f"regenerate: hostlint schema {name} > docs/schemas/{name}.schema.json"
    )


def test_every_snapshot_in_the_labs_validates():
    check = validator("snapshot")
    files = [f for lab in LABS for f in sorted(lab.glob("*.json"))]
    assert len(files) > 10
    for path in files:
        errors = [e.message for e in check.iter_errors(json.loads(path.read_text(encoding="utf-8")))]
        assert errors == [], path


def test_a_broken_snapshot_does_not_validate():
    document = json.loads((ROOT / "fixtures" / "labs" / "clean" / "hosts.json").read_text(encoding="utf-8"))
    document["esxi_hosts"][0]["vswitches"][0]["mtu"] = "jumbo"
    assert not validator("snapshot").is_valid(document)


@pytest.mark.parametrize("lab", ["demo", "clean", "kvm-bonds"])
def test_check_outputs_validate(lab):
    path = str(ROOT / "fixtures" / "labs" / lab)
    report = json.loads(invoke("check", "--isolated", path, "--format", "json"))
    validator("report").validate(report)
    validator("gitlab").validate(json.loads(invoke("check", "--isolated", path, "--format", "gitlab")))
    report["summary"]["surprise"] = 1
    assert not validator("report").is_valid(report)


def test_rules_listing_validates():
    listing = json.loads(invoke("rules", "--isolated", "--format", "json"))
    validator("rules").validate(listing)
    listing[0]["severity"] = "fatal"
    assert not validator("rules").is_valid(listing)
