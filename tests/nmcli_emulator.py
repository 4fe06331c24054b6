#!/usr/bin/env python3
"""An nmcli emulator for rehearsing hostlint's nmcli fix scripts: installed as `nmcli` on PATH in a test.

Why an emulator and not NetworkManager itself: the only NetworkManager change hostlint writes is a
bond's mode (hostlint/fixes/actions/bond_mode/action.yaml), and `nmcli connection up` of a bond needs the kernel's
bonding driver, which the test machines' kernel does not have (`ip link add ... type bond`:
"Unknown device type"). NetworkManager would accept the profile change and then fail the activation.

State: the JSON file named by NMCLI_EMULATOR_STATE::

    {"connections": [{"id": "bond0", "uuid": "...", "type": "bond", "interface-name": "bond0",
                      "bond.options": {"mode": "balance-xor", "miimon": "100", ...}}],
     "devices": [{"device": "bond0", "type": "bond", "connection": "bond0",
                  "applied": {"mode": "balance-xor", ...}}]}

`connection modify` changes a profile only; `connection up` copies the profile's options onto its
device ("applied"), as NetworkManager re-creates the bond on activation. Every accepted command is
appended to STATE.log (one JSON argv a line).

Grammar, written from the manual pages of NetworkManager 1.42 (Debian 12):

- nmcli(1), OPTIONS: `-g | --get-values FIELDS` (terse values of the named fields, one a line,
  `:` and `\\` escaped with a backslash), `-t | --terse`; objects and commands may be abbreviated
  ("nmcli c" for "nmcli connection", "mod" for "modify"; nmcli takes the first name, in its own
  order, that the abbreviation begins).
- nmcli(1), CONNECTION MANAGEMENT COMMANDS: `connection show [--active] [id | uuid | path] ID`
  (with -g, the values of `setting.property` fields), `connection up [id | uuid | path] ID`,
  `connection modify [--temporary] [id | uuid | path] ID {option value | [+|-]setting.property
  value}...` ("bond.options" replaces the whole dictionary; `+bond.options` adds to it).
- nmcli(1), DEVICE MANAGEMENT COMMANDS: `device show [ifname]`, fields GENERAL.DEVICE,
  GENERAL.TYPE, GENERAL.CONNECTION, GENERAL.STATE.
- nm-settings-nmcli(5), "bond setting": `bond.options`, a dictionary written `key=value,key=value`;
  the option names NetworkManager knows are libnm's NM_SETTING_BOND_OPTION_* (NMSettingBond), each
  value checked the way the kernel's bonding driver reads it (Documentation/networking/bonding.rst):
  mode by name or number, xmit_hash_policy and lacp_rate by name or number, numbers for the timers.

Anything else is refused the way nmcli refuses it: `Error: ...` on stderr, exit 2 for a bad
argument (unknown object, command, property or value), 10 for a connection or device that does not
exist, 4 when activation fails; the state file is left unchanged.
"""

from __future__ import annotations

import json
import os
import sys

from emulator_state import commit

# libnm NMSettingBond: NM_SETTING_BOND_OPTION_* (NetworkManager 1.42).
BOND_OPTIONS = {
    "active_slave",
    "ad_actor_sys_prio",
    "ad_actor_system",
    "ad_select",
    "ad_user_port_key",
    "all_slaves_active",
    "arp_all_targets",
    "arp_interval",
    "arp_ip_target",
    "arp_missed_max",
    "arp_validate",
    "balance-slb",
    "downdelay",
    "fail_over_mac",
    "lacp_active",
    "lacp_rate",
    "lp_interval",
    "miimon",
    "min_links",
    "mode",
    "ns_ip6_target",
    "num_grat_arp",
    "num_unsol_na",
    "packets_per_slave",
    "peer_notif_delay",
    "primary",
    "primary_reselect",
    "resend_igmp",
    "tlb_dynamic_lb",
    "updelay",
    "use_carrier",
    "xmit_hash_policy",
}
MODES = ("balance-rr", "active-backup", "balance-xor", "broadcast", "802.3ad", "balance-tlb", "balance-alb")
HASHES = ("layer2", "layer3+4", "layer2+3", "encap2+3", "encap3+4", "vlan+srcmac")
RATES = ("slow", "fast")
NUMERIC = {
    "miimon",
    "updelay",
    "downdelay",
    "arp_interval",
    "resend_igmp",
    "min_links",
    "num_grat_arp",
    "num_unsol_na",
    "packets_per_slave",
    "lp_interval",
    "peer_notif_delay",
    "arp_missed_max",
    "ad_actor_sys_prio",
    "ad_user_port_key",
}
# Named values the kernel also takes as their number (bonding.rst), stored by name as nmcli shows them.
NAMED = {"mode": MODES, "xmit_hash_policy": HASHES, "lacp_rate": RATES}

# In nmcli's own order: an abbreviation means the first name it begins (`nmcli c d` is `connection down`).
OBJECTS = ("general", "networking", "radio", "connection", "device", "agent", "monitor")
COMMANDS = {
    "connection": (
        "show",
        "up",
        "down",
        "add",
        "modify",
        "clone",
        "edit",
        "delete",
        "monitor",
        "reload",
        "load",
        "import",
        "export",
        "migrate",
    ),
    "device": (
        "status",
        "show",
        "set",
        "connect",
        "reapply",
        "modify",
        "disconnect",
        "delete",
        "monitor",
        "wifi",
        "lldp",
        "up",
        "down",
        "checkpoint",
    ),
}
EMULATED = {("connection", "show"), ("connection", "modify"), ("connection", "up"), ("device", "show")}
CONNECTION_FIELDS = ("connection.id", "connection.uuid", "connection.type", "connection.interface-name", "bond.options")
DEVICE_FIELDS = ("GENERAL.DEVICE", "GENERAL.TYPE", "GENERAL.CONNECTION", "GENERAL.STATE")


class NmcliError(Exception):
    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def _expand(word: str, choices: tuple[str, ...], what: str) -> str:
    """nmcli(1): objects and commands may be abbreviated; the first name in nmcli's order wins."""
    for choice in choices:
        if word and choice.startswith(word):
            return choice
    raise NmcliError(f"{what} '{word}' not understood. Try 'nmcli help'.")


def _escape(value: str) -> str:
    """nmcli(1), -g: in terse output `:` and `\\` in values are escaped with a backslash."""
    return value.replace("\\", "\\\\").replace(":", "\\:")


def _options_text(options: dict[str, str]) -> str:
    """bond.options as nmcli prints it: mode first, then the others by name."""
    keys = sorted(options, key=lambda k: (k != "mode", k))
    return ",".join(f"{k}={options[k]}" for k in keys)


def parse_bond_options(text: str) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in text.split(","):
        key, equals, value = item.strip().partition("=")
        if not equals or not key or not value:
            raise NmcliError(f"failed to modify bond.options: '{item}' is not a valid option (use key=value)")
        if key not in BOND_OPTIONS:
            raise NmcliError(f"failed to modify bond.options: '{key}' is not a valid bond option")
        if key in NAMED:
            names = NAMED[key]
            if value.isdigit() and int(value) < len(names):
                value = names[int(value)]
            if value not in names:
                raise NmcliError(f"failed to modify bond.options: '{value}' is not a valid value for '{key}'")
        elif key in NUMERIC and not value.isdigit():
            raise NmcliError(f"failed to modify bond.options: '{value}' is not a valid value for '{key}'")
        options[key] = value
    return options


def verify_bond(options: dict[str, str]) -> None:
    """What NetworkManager refuses to save in a bond profile (NMSettingBond verify)."""
    mode = options.get("mode", "balance-rr")
    if int(options.get("miimon", "0") or 0) and int(options.get("arp_interval", "0") or 0):
        raise NmcliError("failed to modify bond.options: only one of 'miimon' and 'arp_interval' can be set")
    if "lacp_rate" in options and options["lacp_rate"] != "slow" and mode != "802.3ad":
        raise NmcliError("failed to modify bond.options: 'lacp_rate' option is only valid with mode '802.3ad'")
    if "primary" in options and mode not in ("active-backup", "balance-tlb", "balance-alb"):
        raise NmcliError(
            "failed to modify bond.options: 'primary' option is only valid with an active-backup/tlb/alb mode"
        )


def _connection(state: dict, words: list[str]) -> dict:
    if not words:
        raise NmcliError("no connection specified.")
    key = None
    if words[0] in ("id", "uuid", "path") and len(words) > 1:
        key = words.pop(0)
    name = words.pop(0)
    for con in state["connections"]:
        if (key in (None, "id") and con["id"] == name) or (key in (None, "uuid") and con["uuid"] == name):
            return con
    raise NmcliError(f"unknown connection '{name}'.", 10)


def _device(state: dict, name: str) -> dict:
    for dev in state["devices"]:
        if dev["device"] == name:
            return dev
    raise NmcliError(f"Device '{name}' not found.", 10)


def _fields(fields: str | None, known: tuple[str, ...]) -> list[str]:
    if fields is None:
        return list(known)
    wanted = [f.strip() for f in fields.split(",") if f.strip()]
    for field in wanted:
        if field not in known:
            raise NmcliError(f"invalid field '{field}'; allowed fields: {','.join(known)}")
    return wanted


def _connection_value(con: dict, field: str) -> str:
    if field == "bond.options":
        return _options_text(con.get("bond.options", {})) if con["type"] == "bond" else ""
    return str(con.get(field.split(".", 1)[1], ""))


def _device_value(state: dict, dev: dict, field: str) -> str:
    return {
        "GENERAL.DEVICE": dev["device"],
        "GENERAL.TYPE": dev["type"],
        "GENERAL.CONNECTION": dev.get("connection") or "",
        "GENERAL.STATE": "100 (connected)" if dev.get("connection") else "30 (disconnected)",
    }[field]


def _show(pairs: list[tuple[str, str]], terse: bool) -> list[str]:
    if terse:
        return [_escape(value) for _, value in pairs]
    return [f"{name + ':':<40}{value or '--'}" for name, value in pairs]


def run(state: dict, argv: list[str]) -> list[str]:
    fields: str | None = None
    terse = False
    while argv and argv[0].startswith("-"):
        option = argv.pop(0)
        if option in ("-g", "--get-values"):
            if not argv:
                raise NmcliError("option '-g' requires an argument.")
            fields, terse = argv.pop(0), True
        elif option in ("-t", "--terse"):
            terse = True
        else:
            raise NmcliError(f"Option '{option}' is unknown, try 'nmcli -help'.")
    if not argv:
        raise NmcliError("no object given. Try 'nmcli help'.")
    obj = _expand(argv.pop(0), OBJECTS, "argument")
    command = _expand(argv.pop(0), COMMANDS.get(obj, ()), f"'{obj}' command") if argv else "show"
    if (obj, command) not in EMULATED:
        raise NmcliError(f"'nmcli {obj} {command}' is not part of what hostlint's scripts run (emulator)", 2)
    if obj == "device":
        if not argv:
            raise NmcliError("the emulator answers 'device show IFNAME' only")
        dev = _device(state, argv.pop(0))
        if argv:
            raise NmcliError(f"invalid extra argument '{argv[0]}'.")
        return _show([(f, _device_value(state, dev, f)) for f in _fields(fields, DEVICE_FIELDS)], terse)
    if command == "show":
        if argv and argv[0] == "--active":
            argv.pop(0)
        con = _connection(state, argv)
        if argv:
            raise NmcliError(f"invalid extra argument '{argv[0]}'.")
        return _show([(f, _connection_value(con, f)) for f in _fields(fields, CONNECTION_FIELDS)], terse)
    if command == "up":
        con = _connection(state, argv)
        if argv:
            raise NmcliError(f"invalid extra argument '{argv[0]}'.")
        dev = next((d for d in state["devices"] if d["device"] == con.get("interface-name")), None)
        if dev is None or dev["type"] != con["type"]:
            raise NmcliError(f"Connection activation failed: no suitable device found for '{con['id']}'.", 4)
        dev["connection"] = con["id"]
        if con["type"] == "bond":
            dev["applied"] = dict(con["bond.options"])
        return [
            "Connection successfully activated (D-Bus active path: /org/freedesktop/NetworkManager/ActiveConnection/1)"
        ]
    # connection modify
    if argv and argv[0] == "--temporary":
        raise NmcliError("the emulator does not keep --temporary changes apart")
    con = _connection(state, argv)
    if not argv or len(argv) % 2:
        raise NmcliError("'modify' needs a property and a value (an even number of arguments after the connection)")
    changed = dict(con)
    while argv:
        prop, value = argv.pop(0), argv.pop(0)
        sign = prop[0] if prop[:1] in "+-" else ""
        name = prop.lstrip("+-")
        if name != "bond.options" or con["type"] != "bond":
            raise NmcliError(f"invalid property '{name}': not one of the emulated properties (bond.options)")
        options = parse_bond_options(value)
        current = dict(changed.get("bond.options", {}))
        if sign == "+":
            current.update(options)
        elif sign == "-":
            current = {k: v for k, v in current.items() if k not in options}
        else:
            current = options
        verify_bond(current)
        changed["bond.options"] = current
    con.clear()
    con.update(changed)
    return []


def main() -> int:
    path = os.environ["NMCLI_EMULATOR_STATE"]
    with open(path, encoding="utf-8") as handle:
        state = json.load(handle)
    try:
        out = run(state, sys.argv[1:])
    except NmcliError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return exc.code
    return commit(path, state, out)


if __name__ == "__main__":
    sys.exit(main())
