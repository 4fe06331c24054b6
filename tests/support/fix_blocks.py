"""A switch fix file hostlint wrote, cut into its steps' blocks for netmiko's `send_config_set`."""

from __future__ import annotations

import re

# `send_config_set` enters and leaves configuration mode itself (netmiko's `config_mode` / `exit_config_mode`).
SENT_BY_NETMIKO = ("system-view", "return")


def blocks(text: str, sent: tuple[str, ...] = SENT_BY_NETMIKO) -> dict[int, list[str]]:
    """Step number -> the configuration lines of its block (forward or undo) in a fix file, without the
    lines `sent` that netmiko sends itself. Other lines, a VRP 8 `commit` among them, stay in the block."""
    found: dict[int, list[str]] = {}
    number = None
    for line in text.splitlines():
        title = re.match(r"# (?:Undo step|Step) (\d+) of \d+ ", line)
        if title:
            number = int(title.group(1))
            found[number] = []
        elif number is not None and line.strip() and not line.startswith("#"):
            found[number].append(line)
    return {n: [line for line in lines if line not in sent] for n, lines in found.items()}
