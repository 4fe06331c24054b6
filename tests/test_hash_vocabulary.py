"""The hash vocabulary is written twice today, read in hostlint/collect/switches/normalise.py and
written in hostlint/fixes/spelling.py (issue 29; docs/design/platform-folders.md moves both into one
table per platform). Until then this compares them: every hash hostlint writes for a switch reads
back, on that switch's platform, as the hash it meant."""

from __future__ import annotations

import pytest

from hostlint import platforms as registry
from hostlint.collect.switches import normalise
from hostlint.fixes.spelling import hash_command
from hostlint.vocab import HASH_FIELDS

# The reader of each `hash_source` whose global hash hostlint writes (SwitchPlatform.writes_hash).
READERS = {"ios": normalise.ios_hash, "nxos": normalise.nxos_hash}
# A platform that came as a folder reads and writes with one table (its hashes.py): the contract test
# checks its round trip (hostlint.switches.contract).
WRITERS = [s.name for s in registry.SWITCHES if s.writes_hash and s.hash_source != "folder"]


def test_every_platform_that_writes_a_hash_has_a_reader_here() -> None:
    assert WRITERS and {registry.switch(name).hash_source for name in WRITERS} <= set(READERS)


@pytest.mark.parametrize("platform", WRITERS)
def test_what_is_written_reads_back_as_the_same_hash(platform: str) -> None:
    read = READERS[registry.switch(platform).hash_source]
    written = {name: hash_command(name, platform) for name in HASH_FIELDS}
    assert any(written.values())
    assert {name: read(text) for name, text in written.items() if text is not None} == {
        name: name for name, text in written.items() if text is not None
    }


@pytest.mark.parametrize("platform", [s.name for s in registry.SWITCHES if not s.writes_hash])
def test_a_platform_whose_hash_is_set_by_hand_gets_no_hash_command(platform: str) -> None:
    assert all(hash_command(name, platform) is None for name in HASH_FIELDS)
