#!/usr/bin/env python3
"""An esxcli emulator for rehearsing hostlint's esxcli fix scripts: installed as `esxcli` on PATH in a test.

State: the JSON file named by ESXCLI_EMULATOR_STATE, holding one ESXi host as hostlint's snapshot
stores it (EsxiHost.model_dump(mode="json")); every accepted `set`/`add`/`remove` changes it, so the
test can load it back into a snapshot and check again.

Grammar: exactly the namespaces, commands and options hostlint's templates emit
(hostlint/fixes/actions/*/action.yaml), written from the vSphere ESXCLI command reference (Broadcom
developer portal, "ESXCLI Command Reference", vSphere 8.0,
https://developer.broadcom.com/xapis/esxcli-command-reference/latest/), per namespace:

- `esxcli network vswitch standard` (set: -v|--vswitch-name, -m|--mtu; list: -v),
  reference page: namespace/esxcli_network_vswitch_standard.html
- `esxcli network vswitch standard uplink` (add, remove: -u|--uplink-name, -v|--vswitch-name),
  reference page: namespace/esxcli_network_vswitch_standard_uplink.html
- `esxcli network vswitch standard policy failover` (get: -v; set: -v, -l|--load-balancing
  {explicit,iphash,mac,portid}, -a|--active-uplinks, -s|--standby-uplinks (comma-separated; an empty
  value empties the list), -f|--failure-detection {beacon,link}),
  reference page: namespace/esxcli_network_vswitch_standard_policy_failover.html
- `esxcli network vswitch standard portgroup policy failover` (get: -p|--portgroup-name; set: -p and
  the options above), reference page: namespace/esxcli_network_vswitch_standard_portgroup_policy_failover.html
- `esxcli network ip interface` (list; set: -i|--interface-name, -m|--mtu),
  reference page: namespace/esxcli_network_ip_interface.html
- `esxcli network nic` (get: -n|--nic-name; set: -n, -a|--auto, -S|--speed, -D|--duplex {full,half}),
  reference page: namespace/esxcli_network_nic.html

Anything else is rejected the way esxcli rejects it: an `Error: ...` line on stdout and exit 1 (unknown
namespace or command, unknown option, missing required option, a value outside the option's choices,
an object that does not exist). Option values take the forms esxcli takes: `-v X`, `--vswitch-name X`
and `--vswitch-name=X`. The link a NIC negotiates after `nic set` is physics, not esxcli: the emulator
records the configured speed/duplex only, and the test negotiates the link with the switch side.
"""

from __future__ import annotations

import json
import os
import sys

from emulator_state import commit

POLICIES = {
    "iphash": "loadbalance_ip",
    "mac": "loadbalance_srcmac",
    "portid": "loadbalance_srcid",
    "explicit": "failover_explicit",
}
SHOWN = {v: k for k, v in POLICIES.items()}

FAILOVER = {
    "-l": ("load-balancing", True),
    "-a": ("active-uplinks", True),
    "-s": ("standby-uplinks", True),
    "-f": ("failure-detection", True),
}
# command path -> option short name -> (long name, takes a value); required options per command.
COMMANDS: dict[tuple[str, ...], tuple[dict[str, tuple[str, bool]], set[str]]] = {
    ("network", "vswitch", "standard", "set"): ({"-v": ("vswitch-name", True), "-m": ("mtu", True)}, {"-v"}),
    ("network", "vswitch", "standard", "list"): ({"-v": ("vswitch-name", True)}, set()),
    ("network", "vswitch", "standard", "uplink", "add"): (
        {"-u": ("uplink-name", True), "-v": ("vswitch-name", True)},
        {"-u", "-v"},
    ),
    ("network", "vswitch", "standard", "uplink", "remove"): (
        {"-u": ("uplink-name", True), "-v": ("vswitch-name", True)},
        {"-u", "-v"},
    ),
    ("network", "vswitch", "standard", "policy", "failover", "get"): ({"-v": ("vswitch-name", True)}, {"-v"}),
    ("network", "vswitch", "standard", "policy", "failover", "set"): (
        {"-v": ("vswitch-name", True), **FAILOVER},
        {"-v"},
    ),
    ("network", "vswitch", "standard", "portgroup", "policy", "failover", "get"): (
        {"-p": ("portgroup-name", True)},
        {"-p"},
    ),
    ("network", "vswitch", "standard", "portgroup", "policy", "failover", "set"): (
        {"-p": ("portgroup-name", True), **FAILOVER},
        {"-p"},
    ),
    ("network", "ip", "interface", "list"): ({}, set()),
    ("network", "ip", "interface", "set"): ({"-i": ("interface-name", True), "-m": ("mtu", True)}, {"-i"}),
    ("network", "nic", "get"): ({"-n": ("nic-name", True)}, {"-n"}),
    ("network", "nic", "set"): (
        {"-n": ("nic-name", True), "-a": ("auto", False), "-S": ("speed", True), "-D": ("duplex", True)},
        {"-n"},
    ),
}
NAMESPACES = {path[:i] for path in COMMANDS for i in range(1, len(path))}


class EsxcliError(Exception):
    pass


def parse(argv: list[str]) -> tuple[tuple[str, ...], dict[str, str | bool]]:
    path: list[str] = []
    while argv and not argv[0].startswith("-"):
        path.append(argv.pop(0))
        if tuple(path) in COMMANDS:
            break
        if tuple(path) not in NAMESPACES:
            raise EsxcliError(f"Unknown command or namespace {' '.join(path)}")
    command = tuple(path)
    if command not in COMMANDS:
        raise EsxcliError(f"Unknown command or namespace {' '.join(path)}")
    spec, required = COMMANDS[command]
    longs = {long: short for short, (long, _) in spec.items()}
    options: dict[str, str | bool] = {}
    while argv:
        word = argv.pop(0)
        inline = None
        if word.startswith("--"):
            name, _, inline = word[2:].partition("=")
            short = longs.get(name)
            inline = inline if "=" in word else None
        else:
            short = word if word in spec else None
        if short is None:
            raise EsxcliError(f"Invalid option {word}")
        takes = spec[short][1]
        if not takes:
            options[short] = True
            continue
        if inline is None:
            if not argv:
                raise EsxcliError(f"Missing value for option {word}")
            inline = argv.pop(0)
        options[short] = inline
    for short in sorted(required - set(options)):
        raise EsxcliError(f"Missing required parameter {short}|--{spec[short][0]}")
    return command, options


def _named(items: list[dict], name: str, what: str) -> dict:
    for item in items:
        if item["name"] == name:
            return item
    raise EsxcliError(f"{what} {name} not found")


def _mtu(value: str) -> int:
    if not value.isdigit() or not 1280 <= int(value) <= 9000:
        raise EsxcliError(f"Invalid MTU {value}: must be between 1280 and 9000")
    return int(value)


def _failover(teaming: dict, options: dict, uplinks: list[str]) -> dict:
    team = dict(teaming)
    if "-l" in options:
        if options["-l"] not in POLICIES:
            raise EsxcliError(f"Invalid load balancing policy {options['-l']}: use explicit, iphash, mac or portid")
        team["policy"] = POLICIES[options["-l"]]
    for short, key in (("-a", "active"), ("-s", "standby")):
        if short in options:
            nics = [n for n in str(options[short]).split(",") if n]
            for nic in nics:
                if nic not in uplinks:
                    raise EsxcliError(f"Uplink {nic} is not on this virtual switch")
            team[key] = nics
    if "-a" in options and "-s" not in options:
        team["standby"] = [n for n in team.get("standby", []) if n not in team["active"]]
    # The lists are the vSwitch's NicOrderPolicy (vSphere API, HostNicOrderPolicy: "a physical network
    # adapter can be in the active list, the standby list, or neither"; "an empty standbyNic array means
    # there are no standby Ethernet adapters"): `-s ''` empties the standby list, and an uplink on neither
    # list is unused, as hostlint's collector reads it (hostlint.collect.vsphere.convert).
    listed = set(team.get("active", [])) | set(team.get("standby", []))
    team["unused"] = [n for n in uplinks if n not in listed]
    if "-f" in options:
        if options["-f"] not in ("beacon", "link"):
            raise EsxcliError(f"Invalid failure detection {options['-f']}: use one of beacon, link")
        team["failure_detection"] = options["-f"]
    return team


def run(host: dict, command: tuple[str, ...], options: dict) -> list[str]:
    verb = command[-1]
    noun = command[:-1]
    if noun == ("network", "vswitch", "standard"):
        if verb == "list":
            switches = [_named(host["vswitches"], options["-v"], "vSwitch")] if "-v" in options else host["vswitches"]
            return [f"{vs['name']}\n   MTU: {vs['mtu']}\n   Uplinks: {', '.join(vs['uplinks'])}" for vs in switches]
        vswitch = _named(host["vswitches"], options["-v"], "vSwitch")
        if "-m" in options:
            vswitch["mtu"] = _mtu(str(options["-m"]))
        return []
    if noun == ("network", "vswitch", "standard", "uplink"):
        vswitch = _named(host["vswitches"], options["-v"], "vSwitch")
        nic = str(options["-u"])
        _named(host["pnics"], nic, "Physical NIC")
        if verb == "add":
            if any(nic in vs["uplinks"] for vs in host["vswitches"]):
                raise EsxcliError(f"Uplink {nic} is already in use")
            vswitch["uplinks"].append(nic)
        else:
            if nic not in vswitch["uplinks"]:
                raise EsxcliError(f"Uplink {nic} is not on virtual switch {vswitch['name']}")
            vswitch["uplinks"].remove(nic)
            # Removing an uplink removes it from the teaming order too (vSphere API, UpdateVirtualSwitch).
            for team in [vswitch.get("teaming")] + [pg.get("teaming") for pg in host["portgroups"]]:
                if team:
                    for key in ("active", "standby", "unused"):
                        team[key] = [n for n in team.get(key, []) if n != nic]
        return []
    if noun[-2:] == ("policy", "failover"):
        if "portgroup" in noun:
            pg = _named(host["portgroups"], options["-p"], "Portgroup")
            vswitch = _named(host["vswitches"], pg["vswitch"], "vSwitch")
            if verb == "get":
                team = pg.get("teaming") or vswitch["teaming"]
                return [f"Load Balancing: {SHOWN.get(team['policy'], team['policy'])}"]
            pg["teaming"] = _failover(pg.get("teaming") or vswitch["teaming"], options, vswitch["uplinks"])
            return []
        vswitch = _named(host["vswitches"], options["-v"], "vSwitch")
        if verb == "get":
            return [f"Load Balancing: {SHOWN.get(vswitch['teaming']['policy'], vswitch['teaming']['policy'])}"]
        old = vswitch["teaming"]
        vswitch["teaming"] = _failover(old, options, vswitch["uplinks"])
        # Port groups that inherit the vSwitch's policy follow it.
        for pg in host["portgroups"]:
            if pg["vswitch"] == vswitch["name"] and pg.get("teaming") == old:
                pg["teaming"] = dict(vswitch["teaming"])
        return []
    if noun == ("network", "ip", "interface"):
        if verb == "list":
            return [f"{v['name']}\n   MTU: {v['mtu']}" for v in host["vmks"]]
        vmk = _named(host["vmks"], options["-i"], "Interface")
        if "-m" in options:
            vmk["mtu"] = _mtu(str(options["-m"]))
        return []
    if noun == ("network", "nic"):
        pnic = _named(host["pnics"], options["-n"], "Physical NIC")
        if verb == "get":
            return [f"Name: {pnic['name']}", f"Speed: {pnic.get('speed_mbps')}", f"Duplex: {pnic.get('duplex')}"]
        if options.get("-a") and ("-S" in options or "-D" in options):
            raise EsxcliError("Cannot set --auto together with --speed or --duplex")
        if options.get("-a"):
            pnic["configured_speed_mbps"] = pnic["configured_duplex"] = None
        elif "-S" in options or "-D" in options:
            if "-S" not in options or "-D" not in options:
                raise EsxcliError("Both --speed and --duplex must be given")
            if not str(options["-S"]).isdigit():
                raise EsxcliError(f"Invalid speed {options['-S']}")
            if options["-D"] not in ("full", "half"):
                raise EsxcliError(f"Invalid duplex {options['-D']}: use one of full, half")
            pnic["configured_speed_mbps"], pnic["configured_duplex"] = int(options["-S"]), options["-D"]
        return []
    raise EsxcliError(f"Unknown command or namespace {' '.join(command)}")


def main() -> int:
    path = os.environ["ESXCLI_EMULATOR_STATE"]
    try:
        command, options = parse(sys.argv[1:])
        with open(path, encoding="utf-8") as handle:
            host = json.load(handle)
        out = run(host, command, options)
    except EsxcliError as exc:
        print(f"Error: {exc}")
        return 1
    return commit(path, host, out)


if __name__ == "__main__":
    sys.exit(main())
