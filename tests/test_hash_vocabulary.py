"""The hash vocabulary is one table per platform folder (hostlint/switches/<platform>/hashes.py `HASHES`),
read when a switch is collected and written by the fix (issue 29: it was written twice, read in
normalise.py and written in spelling.py, with nothing comparing them). Over every folder: what
hostlint writes for a switch (hostlint.fixes.spelling.hash_command) reads back, through the same
platform's table, as the hash it meant; the contract checks each table's own round trip too
(hostlint.switches.contract)."""

from __future__ import annotations

import pytest

from hostlint import platforms as registry
from hostlint import switches
from hostlint.fixes.spelling import hash_command
from hostlint.vocab import HASH_FIELDS

WRITERS = [s.name for s in registry.SWITCHES if s.writes_hash]


def test_every_platform_that_writes_a_hash_has_its_table() -> None:
    assert {"cisco_ios", "cisco_nxos"} <= set(WRITERS)
    assert [name for name in WRITERS if switches.hashes(name) is None] == []


@pytest.mark.parametrize("platform", WRITERS)
def test_what_is_written_reads_back_as_the_same_hash(platform: str) -> None:
    table = switches.hashes(platform)
    assert table is not None
    written = {name: hash_command(name, platform) for name in HASH_FIELDS}
    assert any(written.values())
    assert {name: table.read(text) for name, text in written.items() if text is not None} == {
        name: name for name, text in written.items() if text is not None
    }


@pytest.mark.parametrize("platform", switches.SWITCH_NAMES)
def test_every_folder_holds_its_hash_table(platform: str) -> None:
    """Every platform reads its hash through its folder's table; none falls back to another's."""
    table = switches.hashes(platform)
    assert table is not None, f"hostlint/switches/{platform}/hashes.py holds no HASHES"
    assert all(table.read(words) == name for words, name in table.pairs if name in table.written())


@pytest.mark.parametrize("platform", [s.name for s in registry.SWITCHES if not s.writes_hash])
def test_a_platform_whose_hash_is_set_by_hand_gets_no_hash_command(platform: str) -> None:
    assert all(hash_command(name, platform) is None for name in HASH_FIELDS)
