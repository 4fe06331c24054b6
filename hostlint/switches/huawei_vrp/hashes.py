"""The Eth-Trunk hash, once for reading and writing.

VRP 5 sets it per Eth-Trunk, `load-balance {src-dst-ip | src-dst-mac | src-ip | dst-ip | src-mac |
dst-mac}` in the Eth-Trunk view (S300, S500, S2700, S5700 and S6700 Series Command Reference,
"load-balance (Eth-Trunk interface view)"), and `display eth-trunk` prints it as `Hash arithmetic:
According to SIP-XOR-DIP`. CloudEngine (VRP 8) hashes by a global profile, `load-balance profile NAME`
then `ipv4 field sip dip ...` (CloudEngine 6800/5800 Command Reference, "ipv4 field"). A syntax this table
does not hold is a named unknown (`read` returns None and the caller says what it saw), never another
platform's default.
"""

from __future__ import annotations

from hostlint.switches.base import HashTable

# (what the configuration says, hostlint's name: hostlint.vocab.HASH_FIELDS). Read left to right,
# written right to left.
PAIRS: tuple[tuple[str, str], ...] = (
    ("src-dst-ip", "src-dst-ip"),
    ("src-dst-mac", "src-dst-mac"),
    ("src-ip", "src-ip"),
    ("dst-ip", "dst-ip"),
    ("src-mac", "src-mac"),
    ("dst-mac", "dst-mac"),
)
# What `display eth-trunk` prints for each (read only: hostlint writes the configuration form).
SHOWN: tuple[tuple[str, str], ...] = (
    ("According to SIP-XOR-DIP", "src-dst-ip"),
    ("According to SA-XOR-DA", "src-dst-mac"),
    ("According to SIP", "src-ip"),
    ("According to DIP", "dst-ip"),
    ("According to SA", "src-mac"),
    ("According to DA", "dst-mac"),
)
# CloudEngine profile fields (`ipv4 field sip dip`), as a set of words.
PROFILE_FIELDS: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"sip", "dip"}), "src-dst-ip"),
    (frozenset({"sip", "dip", "sport", "dport"}), "src-dst-ip-port"),
    (frozenset({"sip", "dip", "protocol", "sport", "dport"}), "src-dst-ip-port"),
    (frozenset({"sip"}), "src-ip"),
    (frozenset({"dip"}), "dst-ip"),
)
# hostlint's switch-hash action sets one global hash; VRP 5 has none (per Eth-Trunk) and VRP 8 a profile:
# fixes.yaml leaves it to a person, so the registry's table says it is not written.
WRITES = False


def read(text: str | None) -> str | None:
    """hostlint's name for a configured or shown hash; None for a syntax this table does not hold."""
    if text is None:
        return None
    said = " ".join(text.split())
    for shown, name in (*PAIRS, *SHOWN):
        if said.lower() == shown.lower():
            return name
    return None


def read_profile(fields: str) -> str | None:
    words = frozenset(fields.lower().split())
    return next((name for shown, name in PROFILE_FIELDS if shown == words), None)


def write(name: str) -> str | None:
    """The `load-balance` argument for hostlint's hash name; None where VRP has no such hash."""
    return next((said for said, known in PAIRS if known == name), None)


def written() -> tuple[str, ...]:
    return tuple(name for _, name in PAIRS)


# The registry's view (hostlint.switches.base.HashTable): configuration and `display eth-trunk` spellings
# read; nothing written globally (WRITES). No `default`: silence is unknown, never a default taken.
HASHES = HashTable(pairs=(*PAIRS, *SHOWN), command="load-balance {}", writes=WRITES)
