"""What each platform's CLI says to the session commands netmiko sends, and to a command it does not know."""

from __future__ import annotations

import yaml

from hostlint import switches
from hostlint.switches import SWITCH_NAMES

# What each platform says to the commands netmiko sends before the first show command.
TERMINAL = {
    "cisco_ios": {"terminal length 0": "", "terminal width 511": ""},
    "cisco_nxos": {"terminal length 0": "", "terminal width 511": ""},
    "arista_eos": {"terminal length 0": "Pagination disabled.", "terminal width 511": "Width set to 511 columns."},
}
_INVALID = {
    "cisco_ios": "{caret}\n% Invalid input detected at '^' marker.\n",
    "cisco_nxos": "{caret}\n% Invalid command at '^' marker.\n",
    "arista_eos": "% Invalid input (at token 1: '{word}')\n",
}
# A platform folder's `emulator.yaml` (hostlint/switches/<platform>/) says the same: `terminal` and `invalid`.
for _name in SWITCH_NAMES:
    _path = switches.folder(_name) / "emulator.yaml"
    if _path.is_file():
        _text = yaml.safe_load(_path.read_text(encoding="utf-8"))
        TERMINAL[_name] = dict(_text["terminal"])
        _INVALID[_name] = str(_text["invalid"])


def terminal(platform: str, command: str) -> str | None:
    """The answer to a terminal/paging command (newline-terminated unless empty); None: not one."""
    text = TERMINAL[platform].get(command)
    if text is None:
        return None
    return text + "\n" if text else ""


def invalid(platform: str, prompt: str, command: str) -> str:
    """The rejection of a show command: real CLIs point at the first word they do not know; here
    that is the one after `show`."""
    words = command.split()
    bad = 1 if len(words) > 1 else 0
    caret = " " * (len(prompt) + len(" ".join(words[:bad])) + (1 if bad else 0)) + "^"
    return _INVALID[platform].format(caret=caret, word=words[bad])
