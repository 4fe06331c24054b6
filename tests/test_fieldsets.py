"""Facts, snapshot models and skips share one fields-set per class (hostlint.fieldsets): less memory, same values."""

from __future__ import annotations

from pathlib import Path

from hostlint.check import check_paths
from hostlint.fieldsets import every_field
from hostlint.join.facts import UplinkFact
from hostlint.rules import load_rules
from hostlint.snapshot.esxi import EsxiHost

LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"


def test_instances_of_a_class_share_one_set_that_assignment_does_not_change() -> None:
    snapshot, result = check_paths([LABS / "mixed-speed-link-down"], load_rules())
    assert result.facts is not None and result.skipped
    uplinks = result.facts.uplinks
    shared = every_field(UplinkFact)
    assert len(uplinks) > 1 and all(u.__pydantic_fields_set__ is shared for u in uplinks)
    # Teams hold copies of their uplinks (model_copy): the copies share it too.
    copies = [u for team in result.facts.teams for u in team.uplinks]
    assert copies and all(u.__pydantic_fields_set__ is shared for u in copies)
    before = set(shared)
    uplinks[0].role = "standby"
    assert shared == before == set(UplinkFact.model_fields)
    hosts: list[EsxiHost] = snapshot.esxi_hosts
    assert len({id(h.__pydantic_fields_set__) for h in hosts}) == 1
    assert len({id(s.__pydantic_fields_set__) for s in result.skipped}) == 1


def test_a_dump_is_what_a_fresh_model_with_the_same_values_dumps() -> None:
    _, result = check_paths([LABS / "demo"], load_rules())
    assert result.facts is not None
    for uplink in result.facts.uplinks:
        fresh = UplinkFact.model_validate(uplink.model_dump())
        assert fresh.model_dump() == uplink.model_dump()
        assert fresh.model_dump_json() == uplink.model_dump_json()
