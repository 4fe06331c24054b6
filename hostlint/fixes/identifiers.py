"""Which names are legal, per kind of object and platform, before any of them reaches a script.

Names come from devices (a port description, a port group, a vSwitch, a host name): they are data,
never code. A value a fix would carry is checked here against the grammar of what it names on its
platform; a value that does not fit is not rendered, and the step's fix is withheld (see
hostlint.fixes.withhold). Names that legitimately hold spaces and punctuation (port groups, libvirt
domains) are accepted here and quoted by the script's language (hostlint.fixes.quoting); switch CLIs
cannot quote, so for them the grammar is the whole protection.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hostlint import platforms as registry
from hostlint import switches

# Longest name hostlint renders anywhere; longer is not a name but a payload.
MAX_NAME = 255

_NAMED_CONTROLS = {
    "\n": "a newline",
    "\r": "a carriage return",
    "\x00": "a NUL byte",
    "\t": "a tab",
    "\u2028": "a unicode line separator",
    "\u2029": "a unicode paragraph separator",
    "\u0085": "a unicode next-line character",
    "\x1b": "an escape character",
}


def control_character(text: str) -> str | None:
    """What the first control, line-breaking or format character of `text` is, None if it has none."""
    for char in text:
        if char in _NAMED_CONTROLS:
            return _NAMED_CONTROLS[char]
        # Cc: C0/C1 controls and DEL; Cf: bidi overrides and zero-width characters; Zl/Zp: line and
        # paragraph separators; Cs: lone surrogates; Co/Cn: private use and unassigned.
        if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"):
            return f"the control character U+{ord(char):04X}"
    return None


def printable(text: object) -> str:
    """`text` for a human (a terminal, a comment, PLAN.md): control characters shown as escapes, one line."""
    out = []
    for char in str(text):
        if char == "\\":
            out.append("\\\\")
        elif control_character(char) is None:
            out.append(char)
        else:
            out.append(char.encode("unicode_escape").decode("ascii"))
    return "".join(out)


@dataclass(frozen=True)
class Grammar:
    """What a kind of name is called in messages, how long it may be, and the pattern it must match."""

    what: str
    max_length: int
    pattern: re.Pattern[str] | None = None
    # Said when the pattern does not match: what the name may hold. Without a pattern the name is
    # free text (port groups, domains): spaces, quotes and punctuation are fine, it is quoted.
    allowed: str = ""


def _g(what: str, max_length: int, pattern: str | None = None, allowed: str = "") -> Grammar:
    return Grammar(what, max_length, re.compile(pattern) if pattern else None, allowed)


# A host, vCenter or switch name: a DNS name, an IPv4 address or an IPv6 address (RFC 1123, with `_`
# which Windows DHCP and many inventories use). No quotes, spaces or shell characters.
_HOSTNAME = r"[A-Za-z0-9_](?:[A-Za-z0-9_.:-]{0,252})"
# Switch interface names, for a platform whose folder gives no grammar of its own (`interface_names`
# `cisco_like_interface`): a type word (letters, `-`), then slot/port numbers, optionally a breakout `:n`
# or a subinterface `.n` (the Cisco-like shape, hostlint/switches/cisco_like/names.py). It holds other
# vendors' names: a channel `lag1` (AOS-CX), `Eth-Trunk1` (Huawei), `Bridge-Aggregation1` (Comware); and
# ports named by member/slot/port alone, without a type word (AOS-CX `1/1/1`, breakout `1/1/1:2`,
# subinterface `1/1/1.100`; a bare form needs a slash). Digits, `/`, `:` and `.` are no CLI syntax anywhere.
# A platform whose folder holds its own grammar (`interface_names: folder`) is checked by its
# `names.py` `NAMES.script` (interface_kind).
_CISCO_LIKE_INTERFACE = (
    r"(?:[A-Za-z][A-Za-z-]{0,39}[0-9]{1,5}(?:/[0-9]{1,5}){0,3}|[0-9]{1,5}(?:/[0-9]{1,5}){1,3})"
    r"(?::[0-9]{1,3})?(?:\.[0-9]{1,5})?"
)

GRAMMARS: dict[str, Grammar] = {
    "host": _g("host name", 253, _HOSTNAME, "letters, digits, '.', '-', '_' and ':'"),
    "switch": _g("switch name", 253, _HOSTNAME, "letters, digits, '.', '-', '_' and ':'"),
    # ESXi: physical NICs are vmnicN (vusbN for USB NICs), VMkernel ports vmkN.
    "vmnic": _g("physical NIC name", 15, r"(?:vmnic|vusb)[0-9]{1,5}", "vmnicN or vusbN"),
    "vmk": _g("VMkernel port name", 15, r"vmk[0-9]{1,5}", "vmkN"),
    # A standard vSwitch name is at most 31 characters (esxcli network vswitch standard add -v); the
    # same key names a distributed switch (a vCenter inventory name, at most 80) for vCenter changes.
    "vswitch": _g("vSwitch name", 80),
    # Port group and distributed switch names are free text (`VM Network`, `iSCSI (A)`): quoted.
    "portgroup": _g("port group name", MAX_NAME),
    # vCenter inventory names (distributed switches) are at most 80 characters.
    "dvswitch": _g("distributed switch name", 80),
    # Linux net_device name: dev_valid_name() in net/core/dev.c: at most IFNAMSIZ-1 = 15 bytes,
    # not `.` or `..`, no `/`, `:` or whitespace. hostlint also refuses non-ASCII and shell characters.
    "linux_interface": _g(
        "interface name", 15, r"(?!\.\.?$)[A-Za-z0-9_.@+=-]+", "letters, digits and '_', '.', '-', '@', '+', '='"
    ),
    # A libvirt domain name is free text except `/` (virDomainDefParse); quoted.
    "libvirt_domain": _g("domain name", MAX_NAME, r"[^/]+", "anything but '/'"),
    "mac": _g("MAC address", 17, r"[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}", "six hex pairs separated by ':'"),
    # Switch interface names, by the family a switch platform names (hostlint.platforms).
    "cisco_like_interface": _g(
        "interface name", 64, _CISCO_LIKE_INTERFACE, "a type word and slot/port numbers, or slot/port numbers"
    ),
    # Words of a switch command argument hostlint read back from the switch (a load-balance setting).
    "switch_words": _g(
        "switch setting",
        80,
        r"[A-Za-z0-9][A-Za-z0-9._/-]*(?: [A-Za-z0-9][A-Za-z0-9._/-]*)*",
        "words of letters, digits, '.', '_', '/' and '-'",
    ),
    # A fixed word of hostlint's vocabulary or a value read into one (link, full, 802.3ad, layer3+4).
    "token": _g(
        "value", 64, r"[A-Za-z0-9_][A-Za-z0-9_.:+=/-]*", "letters, digits and '_', '.', ':', '+', '=', '/', '-'"
    ),
    # Anything else that is a string: only the rules every name follows.
    "text": _g("name", MAX_NAME),
}


# The kind of a switch platform's interface names where its folder holds the grammar (interface_kind).
_FOLDER_INTERFACE = "interface:"


def interface_kind(platform: str) -> str:
    """The kind of name a switch platform's interfaces are (a key of GRAMMARS, or its folder's grammar)."""
    switch = registry.switch(platform)
    return _FOLDER_INTERFACE + platform if switch.interface_names == "folder" else switch.interface_names


@functools.cache
def _folder_grammar(kind: str) -> Grammar:
    """A switch platform folder's interface grammar (`names.py` `NAMES.script`); KeyError for another kind."""
    names = switches.names(kind.removeprefix(_FOLDER_INTERFACE)) if kind.startswith(_FOLDER_INTERFACE) else None
    if names is None:
        raise KeyError(kind)
    return _g("interface name", 64, names.script, names.script_allowed)


def _grammar(kind: str) -> Grammar:
    """GRAMMARS[kind], or a switch platform folder's interface grammar."""
    return GRAMMARS[kind] if kind in GRAMMARS else _folder_grammar(kind)


def problem(kind: str, value: object) -> str | None:
    """Why `value` is not a legal `kind` name ("port group name contains a newline"), None if it is."""
    grammar = _grammar(kind)
    if not isinstance(value, str):
        return f"{grammar.what} is not text"
    too_long = f"{grammar.what} is {len(value)} characters long (at most {grammar.max_length})"
    if len(value) > 4 * MAX_NAME:
        return too_long
    if value == "":
        return f"{grammar.what} is empty"
    control = control_character(value)
    if control is not None:
        return f"{grammar.what} contains {control}"
    if value.startswith("-"):
        return f"{grammar.what} starts with '-' (a command would read it as an option)"
    if value != value.strip():
        return f"{grammar.what} starts or ends with a space"
    if grammar.pattern is not None and not grammar.pattern.fullmatch(value):
        return f"{grammar.what} '{printable(value)[:40]}' is not {grammar.allowed}"
    if len(value) > grammar.max_length:
        return too_long
    return None


# Which kind of name each key of a change's values holds, by the family of the platform it renders
# for. A key not listed holds "text" (the rules every name follows); a number is always fine.
_ESXI_KEYS = {
    "nic": "vmnic",
    "active": "vmnic",
    "standby": "vmnic",
    "remove": "vmnic",
    "vmk": "vmk",
    "vswitch": "vswitch",
    "portgroup": "portgroup",
    "from_portgroup": "portgroup",
    "dvswitch": "dvswitch",
    "from_switch": "dvswitch",
    "peer": "token",
    "subnet": "token",
    "kind": "token",
    "policy": "token",
    "failure_detection": "token",
    "duplex": "token",
}
_KVM_KEYS = {
    "bond": "linux_interface",
    "members": "linux_interface",
    "domain": "libvirt_domain",
    "mac": "mac",
    "options": "token",
    "before_options": "token",
    # host-path-mtu: the interfaces of a guest's path (`hops`, each `name` and `kind`), its top, its guest.
    "name": "linux_interface",
    "top": "linux_interface",
    "kind": "token",
    "guest": "libvirt_domain",
}
_SWITCH_KEYS = {
    "port": "{interfaces}",
    "ports": "{interfaces}",
    "members": "{interfaces}",
    "interface": "{interfaces}",
    "config_source": "{interfaces}",
    "name": "{interfaces}",
    "command": "switch_words",
    "hash": "token",
    "mode": "token",
    "existing_mode": "token",
    "from_mode": "token",
    "multichassis": "token",
    "multichassis_id": "token",
    "duplex": "token",
    "vlans": "token",
    "before": "switch_words",
    "after": "switch_words",
    # An interface's own collected configuration lines (SwitchPort.config_lines), typed back verbatim.
    "lines": "text",
}


def _keys(platform: str) -> dict[str, str]:
    switch = registry.find_switch(platform)
    if switch is not None:
        return {key: kind.format(interfaces=interface_kind(platform)) for key, kind in _SWITCH_KEYS.items()}
    target = registry.TARGETS.get(platform)
    if target is not None and target.changes in ("kvm", "guest"):
        return _KVM_KEYS
    return _ESXI_KEYS


def _leaves(value: Any, key: str, path: str, keys: dict[str, str]) -> Iterator[tuple[str, str, Any]]:
    """(kind, path for messages, leaf) for every scalar inside `value`; a nested key that names a kind
    (`port` in a member, `active` in a `before`) decides its values' kind, else the enclosing key does."""
    if isinstance(value, dict):
        for sub, item in value.items():
            where = f"{path}.{sub}"
            yield "token", where, str(sub)
            yield from _leaves(item, str(sub) if str(sub) in keys else key, where, keys)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from _leaves(item, key, f"{path}[{index}]", keys)
    else:
        yield keys.get(key, "text"), path, value


def check_values(values: dict[str, Any], platform: str) -> str | None:
    """The first problem with any name in a change's values for `platform`, None when all fit."""
    keys = _keys(platform)
    for top, value in values.items():
        for kind, _path, leaf in _leaves(value, top, top, keys):
            if leaf is None or isinstance(leaf, bool | int | float):
                continue
            reason = problem(kind, leaf)
            if reason is not None:
                return reason
    return None


def check_device(device: str, platform: str) -> str | None:
    return problem("switch" if registry.find_switch(platform) else "host", device)
