"""Process exit codes, a contract for scripts and schedulers."""

from enum import IntEnum


class Exit(IntEnum):
    CLEAN = 0
    FINDINGS = 1
    USAGE = 2
    PARTIAL = 3
    # A bug in hostlint, not a problem with the input: see `hostlint --debug`.
    INTERNAL = 4
