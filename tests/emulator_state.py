"""What the command-line emulators (esxcli_emulator.py, nmcli_emulator.py) do after a command is
accepted: the new state replaces the old atomically, the command line is logged, the output printed."""

from __future__ import annotations

import json
import os
import sys
from typing import Any


def commit(path: str, state: Any, out: list[str]) -> int:
    with open(path + ".new", "w", encoding="utf-8") as handle:
        json.dump(state, handle, indent=1)
    os.replace(path + ".new", path)
    with open(path + ".log", "a", encoding="utf-8") as handle:
        handle.write(json.dumps(sys.argv[1:]) + "\n")
    for line in out:
        print(line)
    return 0
