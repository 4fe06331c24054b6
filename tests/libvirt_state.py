#!/usr/bin/env python3
"""The real `virsh` and `virt-xml` against libvirt's test driver, with the driver's state kept in a file.

Installed in a test as `virsh` and `virt-xml` on PATH (`libvirt_state.py virsh ARGS...`). The
commands hostlint's virsh scripts run are executed by the real programs (libvirt-clients' virsh,
virtinst's virt-xml), connected to `test:///STATE`, a libvirt test-driver node file: libvirt
itself parses every domain definition and virt-xml its own options, so a wrong option or an XML
libvirt refuses fails here as it would on a host.

The test driver loads the node file afresh at each connection and forgets what a connection
changed when it closes. What this wrapper adds is only that memory:

- `virt-xml DOMAIN --edit ... --network ...` runs as given plus `--print-xml` (virt-xml(1): "Print
  the generated XML ... instead of defining it"), and the domain it prints replaces that domain in
  the node file: what `virt-xml` would have defined, kept for the next command.
- `virsh` commands that only read (dumpxml, domiflist, domstate, dominfo, list, net-list,
  net-dumpxml) run unchanged against the node file.
- `virsh start|shutdown|destroy DOMAIN` run in one virsh session followed by `domstate DOMAIN`
  (virsh(1): several commands separated by `;` in one argument), and the state it reports is kept
  as the domain's `<test:runstate>` in the node file. Any other virsh command that would change a
  domain is refused (exit 1, `error: ...`): a change the wrapper could not keep would pass silently.

The node file holds one definition per domain: virt-xml's edit of a running domain's persistent
definition shows in its live one too (the test driver has no separate persistent definition in
its file); the scripts restart a guest right after such an edit, so the end state is exact.

Environment: LIBVIRT_TEST_STATE (the node file), REAL_VIRSH and REAL_VIRT_XML (the programs).
Every command is appended to STATE.log (one JSON argv a line).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from typing import Any

TEST_NS = "http://libvirt.org/schemas/domain/test/1.0"
READ_ONLY = {"dumpxml", "domiflist", "domstate", "dominfo", "list", "net-list", "net-dumpxml"}
LIFECYCLE = {"start", "shutdown", "destroy"}
# virDomainState numbers of the states `virsh domstate` names.
RUNSTATES = {"running": "1", "paused": "3", "shut off": "5"}
ET.register_namespace("test", TEST_NS)


def domain_xml(domain: Any, runstate: str = "5") -> ET.Element:
    """A libvirt test-driver domain for a snapshot's LibvirtDomain, shut off (defined, not running)
    unless `runstate` says otherwise (1: running)."""
    root = ET.Element("domain", type="test")
    ET.SubElement(root, "name").text = domain.name
    ET.SubElement(root, "memory", unit="MiB").text = "128"
    ET.SubElement(ET.SubElement(root, "os"), "type").text = "hvm"
    devices = ET.SubElement(root, "devices")
    for nic in domain.interfaces:
        element = ET.SubElement(devices, "interface", type=nic.source_type)
        if nic.mac:
            ET.SubElement(element, "mac", address=nic.mac)
        attribute = {"bridge": "bridge", "network": "network", "direct": "dev"}.get(nic.source_type)
        if attribute and nic.source:
            ET.SubElement(element, "source", {attribute: nic.source})
        if nic.target:
            ET.SubElement(element, "target", dev=nic.target)
        if nic.model != "default":
            ET.SubElement(element, "model", type=nic.model)
        if nic.driver or nic.queues:
            driver = ET.SubElement(element, "driver")
            if nic.driver:
                driver.set("name", nic.driver)
            if nic.queues:
                driver.set("queues", str(nic.queues))
        if nic.mtu is not None:
            ET.SubElement(element, "mtu", size=str(nic.mtu))
    ET.SubElement(root, f"{{{TEST_NS}}}runstate").text = runstate
    return root


def node_xml(domains: list[Any], runstate: str = "5") -> str:
    node = ET.Element("node")
    node.extend(domain_xml(d, runstate) for d in domains)
    return ET.tostring(node, encoding="unicode")


def _log(state: str, argv: list[str]) -> None:
    with open(state + ".log", "a", encoding="utf-8") as handle:
        handle.write(json.dumps(argv) + "\n")


def _replace_domain(state: str, printed: str) -> None:
    new = ET.fromstring(printed)
    tree = ET.parse(state)
    node = tree.getroot()
    name = new.findtext("name")
    for index, old in enumerate(list(node)):
        if old.tag == "domain" and old.findtext("name") == name:
            runstate = old.find(f"{{{TEST_NS}}}runstate")
            if runstate is not None:
                new.append(runstate)
            node.remove(old)
            node.insert(index, new)
            break
    else:
        raise SystemExit(f"libvirt_state: virt-xml printed domain {name!r}, which the node file does not hold")
    tree.write(state + ".new", encoding="unicode")
    os.replace(state + ".new", state)


def virt_xml(state: str, args: list[str]) -> int:
    if any(a in ("--connect", "-c", "--print-xml", "--print-diff", "--update") for a in args):
        print("libvirt_state: the rehearsal runs virt-xml as the scripts do (no --connect/--print-*/--update)")
        return 1
    done = subprocess.run(
        [os.environ["REAL_VIRT_XML"], "--connect", f"test://{state}", *args, "--print-xml"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if done.returncode != 0:
        sys.stdout.write(done.stdout)
        sys.stderr.write(done.stderr)
        return done.returncode
    _replace_domain(state, done.stdout)
    print(f"Domain '{ET.fromstring(done.stdout).findtext('name')}' defined successfully.")
    return 0


def _set_runstate(state: str, name: str, shown: str) -> None:
    tree = ET.parse(state)
    for domain in tree.getroot():
        if domain.findtext("name") == name:
            runstate = domain.find(f"{{{TEST_NS}}}runstate")
            if runstate is None:
                runstate = ET.SubElement(domain, f"{{{TEST_NS}}}runstate")
            runstate.text = RUNSTATES[shown]
    tree.write(state + ".new", encoding="unicode")
    os.replace(state + ".new", state)


def _lifecycle(state: str, args: list[str]) -> int:
    if len(args) != 2 or args[1].startswith("-") or "'" in args[1]:
        print(f"error: the rehearsal runs 'virsh {args[0]} DOMAIN' only", file=sys.stderr)
        return 1
    command, name = args
    done = subprocess.run(
        [os.environ["REAL_VIRSH"], "-c", f"test://{state}", f"{command} '{name}'; domstate '{name}'"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    # In one session virsh goes on after a failed command: its `error:` lines say it failed.
    if done.returncode != 0 or "error:" in done.stderr:
        sys.stderr.write(done.stderr)
        return 1
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    _set_runstate(state, name, lines[-1].strip())
    print("\n".join(lines[:-1]) + "\n")
    return 0


def virsh(state: str, args: list[str]) -> int:
    command = next((a for a in args if not a.startswith("-")), "")
    if args[:1] == [command] and command in LIFECYCLE:
        return _lifecycle(state, args)
    if args[:1] != [command] or command not in READ_ONLY:
        print(f"error: the rehearsal keeps no state for 'virsh {' '.join(args)}'", file=sys.stderr)
        return 1
    done = subprocess.run(
        [os.environ["REAL_VIRSH"], "-c", f"test://{state}", *args], timeout=120, check=False, text=True
    )
    return done.returncode


def main() -> int:
    tool, args = sys.argv[1], sys.argv[2:]
    state = os.environ["LIBVIRT_TEST_STATE"]
    code = virt_xml(state, args) if tool == "virt-xml" else virsh(state, args)
    if code == 0:
        _log(state, [tool, *args])
    return code


if __name__ == "__main__":
    sys.exit(main())
