"""The channel-summary member states IOS, NX-OS and EOS share (the `members` piece, MemberFlags).

Words first (IOS-XE `show etherchannel detail`/`summary` words `bndl`, `hot-sby`, `susp`, `indep`,
`stand-alone`), then the letter flags of the summary legends (IOS `show etherchannel summary`, NX-OS and
EOS `show port-channel summary`): `P` bundled, `H` hot-standby, `s` suspended, `I` stand-alone
(individual; EOS `^` individual by LACP fallback), `D` down, the first present winning. Flags that say
none of these (IOS `w` waiting to be aggregated, `u` unsuitable for bundling, EOS `G` aggregable but not
in sync with `-`) leave the state unknown.
"""

from __future__ import annotations

from hostlint.switches.base import MemberFlags

__all__ = ["MEMBER_FLAGS"]

MEMBER_FLAGS = MemberFlags(
    words={
        "bndl": "bundled",
        "bundled": "bundled",
        "hot-sby": "hot-standby",
        "hot-standby": "hot-standby",
        "susp": "suspended",
        "suspended": "suspended",
        "indep": "individual",
        "individual": "individual",
        "stand-alone": "individual",
        "standalone": "individual",
        "down": "down",
    },
    flags=(
        ("P", "bundled"),
        ("H", "hot-standby"),
        ("s", "suspended"),
        ("I", "individual"),
        ("^", "individual"),
        ("D", "down"),
    ),
    unknown=("w", "u", "G-"),
)
