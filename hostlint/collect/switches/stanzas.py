"""Each interface's own running-configuration lines, verbatim, from `show running-config` (IOS, NX-OS,
EOS) or `show configuration | display set` (Junos).

A dedicated splitter rather than a ttp template: ttp's `_line_` catch-all takes only the lines no other
regex of the group matched, so a template cannot give an interface's lines whole and in order, which is
what a rollback re-applies (issue 26, invariant 4).

    interface Port-Channel11                  set interfaces ae0 description "esx-01 vSwitch0"
       switchport mode trunk                  set interfaces ae0 aggregated-ether-options lacp active
       port-channel lacp fallback individual  set interfaces xe-0/0/1 ether-options 802.3ad ae0
    !

gives {"Port-Channel11": ["switchport mode trunk", "port-channel lacp fallback individual"]} on the left,
{"ae0": [both ae0 lines], "xe-0/0/1": [its line]} on the right (names in hostlint.names' canonical form).
"""

from __future__ import annotations

import re

from hostlint import names

_HEADER = re.compile(r"^interface\s+(\S+)\s*$")
_SET = re.compile(r"^set interfaces (\S+)(?:\s|$)")


def interface_lines(output: str) -> dict[str, list[str]]:
    """Interface name -> its own configuration lines (without indent), in the order shown."""
    lines = output.splitlines()
    if any(line.startswith("set ") for line in lines):
        return _set_lines(lines)
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines:
        header = _HEADER.match(line)
        if header:
            current = found.setdefault(names.interface(header.group(1)), [])
        elif current is not None and line[:1] in (" ", "\t"):
            text = line.strip()
            # A comment inside a stanza is no configuration (each of the three CLIs ignores `!` lines).
            if text and not text.startswith("!"):
                current.append(text)
        else:
            current = None
    return found


def _set_lines(lines: list[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in lines:
        matched = _SET.match(line.strip())
        if matched and matched.group(1) != "interface-range":
            found.setdefault(names.interface(matched.group(1)), []).append(line.strip())
    return found
