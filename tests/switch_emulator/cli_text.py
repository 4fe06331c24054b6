"""What each platform's CLI says to the session commands netmiko sends, and to a command it does not know."""

from __future__ import annotations

import yaml

from hostlint import switches
from hostlint.switches import SWITCH_NAMES

# What each platform says to the commands netmiko sends before the first show command, and its refusal of
# a command it does not know: its folder's `emulator.yaml` (hostlint/switches/<platform>/), `terminal` and
# `invalid`.
TERMINAL: dict[str, dict[str, str]] = {}
_INVALID: dict[str, str] = {}
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
