"""Per-device scripts: the change script and the rollback script for each device and platform.

A device's steps are part of one plan across devices, so no script runs end to end: shell and
PowerShell scripts run one step given by number, switch files are pasted one block at a time.
"""

from __future__ import annotations

import hashlib
import re

from hostlint import platforms as registry
from hostlint.fixes.identifiers import printable
from hostlint.fixes.quoting import ps
from hostlint.fixes.render import describe, render
from hostlint.fixes.steps import Step
from hostlint.platforms import Vocabulary

SHELL = registry.SHELL_VOCABULARY


def safe_name(device: str) -> str:
    """The device's name as a file name, one per device: a name that had to be changed (`esx:01`, which
    would be `esx_01` like another host) or that ends like a rollback file (`esx01.rollback`) carries a
    digest of the real name, so two devices never write one file (invariant 8)."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", device)
    if safe == device and safe.rsplit(".", 1)[-1].casefold() != "rollback":
        return safe
    return f"{safe}-{hashlib.sha256(device.encode('utf-8', 'surrogatepass')).hexdigest()[:10]}"


def script_name(device: str, platform: str, rollback: bool = False) -> str:
    return registry.target(platform).script_name(safe_name(device), rollback)


def _comment(vocabulary: Vocabulary, lines: list[str]) -> list[str]:
    """Comment lines; names in them are data, so every control character (a newline that would start
    a live line) is shown as an escape instead."""
    return [f"{vocabulary.comment} {printable(line)}".rstrip() for line in lines]


def _step_title(step: Step, total: int, rollback: bool) -> str:
    verb = "Undo step" if rollback else "Step"
    return f"{verb} {step.number} of {total} [{step.action.label}] {step.action.action} (stage {step.stage})"


def _block(step: Step, platform: str, vocabulary: Vocabulary, total: int, rollback: bool) -> list[str]:
    """One step's commands between comments: title, findings, review notes; then verify and expect."""
    notes = [f"{s.code} {s.object}: {s.message}" for s in step.sources]
    notes.append(f"what: {describe(step)}")
    notes += [f"REVIEW: {note}" for note in step.change.notes]
    commands = render(step, platform, "rollback" if rollback else "change")
    expect = render(step, platform, "rollback_expect") if rollback else ""
    if rollback and not expect:
        expect = f"the state from before step {step.number}"
    expect = expect or render(step, platform, "expect")
    lines = _comment(vocabulary, [_step_title(step, total, rollback), *notes])
    command_lines = commands.splitlines()
    live = any(not line.startswith(vocabulary.comment) for line in command_lines)
    if live:
        lines += [*vocabulary.enter, *command_lines, *vocabulary.leave]
    else:
        # Only REVIEW comments (a change hostlint leaves to a human): nothing to commit.
        lines += command_lines
    lines += _comment(vocabulary, ["verify:", *(f"  {v}" for v in render(step, platform, "verify").splitlines())])
    lines += _comment(vocabulary, ["expect:", *(f"  {e}" for e in expect.splitlines())])
    if live and vocabulary.confirm:
        what = "undo" if rollback else "step"
        label = registry.switch(platform).label
        lines += _comment(
            vocabulary,
            [
                f"CONFIRM {what} {step.number}: paste the next lines on their own, once the verify above passes,",
                f"within {vocabulary.confirm_minutes} minutes. Unconfirmed, {label} rolls this commit back by itself"
                " at the",
                "deadline (bouncing the links again); if the verify fails, paste nothing and let it roll back.",
            ],
        )
        lines += list(vocabulary.confirm)
    return lines


def needs_confirm(step: Step, platform: str, rollback: bool = False) -> bool:
    """Whether `step` on `platform` ends in a confirmed commit that a separate `commit` must confirm."""
    target = registry.TARGETS.get(platform)
    vocabulary = target.vocabulary if target else SHELL
    if not vocabulary.confirm or platform not in step.change.platforms:
        return False
    commands = render(step, platform, "rollback" if rollback else "change").splitlines()
    return any(not line.startswith(vocabulary.comment) for line in commands)


def _intro(device: str | None, platform: str, numbers: str, rollback: bool) -> list[str]:
    """The script's opening lines; `device` None where the text is not a comment (a docstring)."""
    what = "ROLLBACK script" if rollback else "fix script"
    order = "in the reverse of the plan order (PLAN.md, Rollback)" if rollback else "in PLAN.md order"
    target = "the host named in HOST" if device is None else printable(device)
    return [
        f"hostlint {what} for {target} ({platform}), generated from a snapshot: review it before use.",
        "hostlint runs nothing. These steps are part of one plan across devices: run ONE step at a time,",
        f"{order}, and check its verify result before the next step. Steps here: {numbers}.",
    ]


def shell_script(device: str, platform: str, steps: list[Step], total: int, rollback: bool) -> str:
    numbers = " ".join(str(s.number) for s in steps)
    name = script_name(device, platform, rollback)
    lines = ["#!/bin/sh", *_comment(SHELL, _intro(device, platform, numbers, rollback))]
    lines += _comment(SHELL, [line.format(name=name) for line in registry.target(platform).usage] + [""])
    lines += ["set -eu", ""]
    for step in steps:
        body = _block(step, platform, SHELL, total, rollback)
        lines += [f"step_{step.number}() {{", *(f"    {line}" for line in body), "}", ""]
    lines.append('case "${1:-}" in')
    lines += [f"    {s.number}) step_{s.number} ;;" for s in steps]
    lines.append(f'    *) echo "usage: sh {name} STEP (steps here: {numbers}; order: PLAN.md)" >&2; exit 2 ;;')
    lines.append("esac")
    return "\n".join(lines) + "\n"


def powershell_script(device: str, steps: list[Step], total: int, rollback: bool, is_host: bool) -> str:
    numbers = ", ".join(str(s.number) for s in steps)
    name = script_name(device, "powercli", rollback)
    lines = _comment(SHELL, _intro(device, "PowerCLI", numbers, rollback))
    lines += _comment(
        SHELL, [f"Connect-VIServer first (this script holds no credentials), then: ./{name} -Step STEP", ""]
    )
    lines += ["param([Parameter(Mandatory = $true)][int]$Step)", "$ErrorActionPreference = 'Stop'"]
    if is_host:
        # -Name takes wildcards even in single quotes (PowerCLI): the host is matched exactly, and a
        # missing host stops the script (`-VMHost $null` would mean every host).
        lines.append(f"$vmhost = @(Get-VMHost | Where-Object {{ $_.Name -ceq {ps(device)} }})")
        lines.append(f'if ($vmhost.Count -ne 1) {{ throw ("no single host named " + {ps(device)}) }}')
    lines += ["", "switch ($Step) {"]
    for step in steps:
        body = _block(step, "powercli", SHELL, total, rollback)
        lines += [f"    {step.number} {{", *(f"        {line}" for line in body), "    }"]
    lines.append(f'    default {{ throw "steps here: {numbers}; order: PLAN.md" }}')
    lines.append("}")
    return "\n".join(lines) + "\n"


_PYVMOMI_PREAMBLE = """
import argparse
import getpass
import os
import ssl
import sys
import urllib.parse

from pyVim.connect import Disconnect, SmartConnect
from pyVmomi import vim


def _find(items, name, what):
    for item in items:
        if getattr(item, "name", None) == name or getattr(item, "device", None) == name:
            return item
    sys.exit(f"{what} {name} not found on {HOST}")


def vswitch(ns, name):
    return _find(ns.networkInfo.vswitch, name, "vSwitch")


def portgroup(ns, name):
    for pg in ns.networkInfo.portgroup:
        if pg.spec.name == name:
            return pg
    sys.exit(f"port group {name} not found on {HOST}")


def vmk(ns, name):
    return _find(ns.networkInfo.vnic, name, "VMkernel port")


def pnic(ns, name):
    return _find(ns.networkInfo.pnic, name, "physical NIC")


def _host(si):
    view = si.content.viewManager.CreateContainerView(si.content.rootFolder, [vim.HostSystem], True)
    try:
        return _find(view.view, HOST, "host")
    finally:
        view.Destroy()
"""

_PYVMOMI_MAIN = """

def _endpoint(server):
    # Host, port and path from a host name, host:port, [v6]:port or URL (https://vc.example.net/sdk).
    parts = urllib.parse.urlsplit(server if "://" in server else f"https://{server}")
    port = parts.port  # ValueError for a port that is not a number
    if parts.scheme != "https" or not parts.hostname:
        raise ValueError("want a host name, host:port or https:// URL")
    return parts.hostname, port or 443, parts.path.rstrip("/") or "/sdk"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="vCenter or the ESXi host: name, name:port or URL")
    parser.add_argument("--user", default=os.environ.get("HOSTLINT_VSPHERE_USER"), help="or HOSTLINT_VSPHERE_USER")
    parser.add_argument("--ca-bundle", metavar="FILE", help="CA certificates (PEM) that verify the server's TLS")
    parser.add_argument("--insecure", action="store_true", help="do not verify the TLS certificate")
    parser.add_argument("--verify-only", action="store_true", help="only run the step's verification")
    parser.add_argument("step", type=int, choices=sorted(STEPS))
    args = parser.parse_args()
    if not args.user:
        parser.error("give --user USER or set HOSTLINT_VSPHERE_USER")
    if args.insecure and args.ca_bundle:
        parser.error("--insecure and --ca-bundle exclude each other")
    try:
        host, port, path = _endpoint(args.server)
    except ValueError as exc:
        parser.error(f"--server {args.server}: {exc}")
    if args.insecure:
        context = ssl._create_unverified_context()
    else:
        try:
            context = ssl.create_default_context(cafile=args.ca_bundle)
        except (OSError, ssl.SSLError) as exc:
            parser.error(f"--ca-bundle {args.ca_bundle}: cannot load: {exc}")
    password = os.environ.get("HOSTLINT_VSPHERE_PASSWORD") or getpass.getpass(f"password for {args.user}: ")
    si = SmartConnect(host=host, port=port, path=path, user=args.user, pwd=password, sslContext=context)
    try:
        ns = _host(si).configManager.networkSystem
        change, verify = STEPS[args.step]
        if not args.verify_only:
            change(ns)
        verify(ns)
    finally:
        Disconnect(si)


if __name__ == "__main__":
    main()
"""


def python_script(device: str, steps: list[Step], total: int, rollback: bool) -> str:
    """A runnable pyvmomi script: one function per step, run one step at a time against vCenter or the host."""
    numbers = ", ".join(str(s.number) for s in steps)
    name = script_name(device, "vsphere-api", rollback)
    # The host name is data: a repr() literal in HOST, never inside the docstring or a comment line.
    intro = _intro(None, "vSphere API, pyvmomi", numbers, rollback)
    usage = [
        f"Usage: HOSTLINT_VSPHERE_PASSWORD=... python3 {name} --server VCENTER --user USER STEP",
        "The user may come from HOSTLINT_VSPHERE_USER instead. TLS is verified against the system CAs or",
        "--ca-bundle FILE; --insecure skips verification (a lab only).",
    ]
    lines = ["#!/usr/bin/env python3", '"""' + intro[0], "", *intro[1:], *usage, '"""']
    lines += [_PYVMOMI_PREAMBLE.rstrip("\n"), "", f"HOST = {device!r}", ""]
    for step in steps:
        notes = [_step_title(step, total, rollback), *(f"{s.code} {s.object}: {s.message}" for s in step.sources)]
        notes += [f"REVIEW: {note}" for note in step.change.notes]
        code = render(step, "vsphere-api", "rollback" if rollback else "change")
        verify = render(step, "vsphere-api", "verify")
        expect = render(step, "vsphere-api", "rollback_expect" if rollback else "expect") or render(
            step, "vsphere-api", "expect"
        )
        lines += ["", f"def change_{step.number}(ns):", *(f"    # {printable(n)}" for n in notes)]
        lines += [f"    {line}" if line else "" for line in code.splitlines()]
        lines += ["", "", f"def verify_{step.number}(ns):"]
        lines += [f"    # expect: {printable(e)}" for e in expect.splitlines()]
        lines += [f"    {line}" if line else "" for line in verify.splitlines()]
        lines.append("")
    lines.append("")
    lines.append("STEPS = {" + ", ".join(f"{s.number}: (change_{s.number}, verify_{s.number})" for s in steps) + "}")
    lines.append(_PYVMOMI_MAIN.rstrip("\n"))
    return "\n".join(lines) + "\n"


def switch_script(device: str, platform: str, steps: list[Step], total: int, rollback: bool) -> str:
    vocabulary = registry.target(platform).vocabulary
    numbers = ", ".join(str(s.number) for s in steps)
    lines = _comment(vocabulary, _intro(device, platform, numbers, rollback))
    paste = ["Each block enters and leaves configuration mode itself; paste it whole."]
    if vocabulary.confirm:
        paste = [
            "Each step is two pastes: its block (entering configuration mode, ending in commit confirmed",
            f"{vocabulary.confirm_minutes}), then, once its verify passes, its CONFIRM lines (a plain commit),"
            " on their own.",
        ]
    lines += _comment(vocabulary, [*paste, ""])
    for step in steps:
        lines += _block(step, platform, vocabulary, total, rollback)
        lines += _comment(vocabulary, [f"end of step {step.number}", ""])
    return "\n".join(lines) + "\n"


def device_scripts(steps: list[Step], total: int) -> dict[str, str]:
    """File name -> text for every device and platform the steps touch, change and rollback."""
    by_device: dict[tuple[str, str], list[Step]] = {}
    for step in steps:
        for platform in step.change.platforms:
            by_device.setdefault((step.device, platform), []).append(step)
    files = {}
    for (device, platform), device_steps in sorted(by_device.items()):
        undo = list(reversed(device_steps))
        renderer = registry.target(platform).renderer
        if renderer == "shell":
            files[script_name(device, platform)] = shell_script(device, platform, device_steps, total, False)
            files[script_name(device, platform, True)] = shell_script(device, platform, undo, total, True)
        elif renderer == "python":
            files[script_name(device, platform)] = python_script(device, device_steps, total, False)
            files[script_name(device, platform, True)] = python_script(device, undo, total, True)
        elif renderer == "powershell":
            # $vmhost is defined wherever a step uses it (a vmk-only or vCenter plan too), nowhere else.
            parts = ("change", "rollback", "verify")
            is_host = any("$vmhost" in render(s, "powercli", part) for s in device_steps for part in parts)
            files[script_name(device, platform)] = powershell_script(device, device_steps, total, False, is_host)
            files[script_name(device, platform, True)] = powershell_script(device, undo, total, True, is_host)
        else:
            files[script_name(device, platform)] = switch_script(device, platform, device_steps, total, False)
            files[script_name(device, platform, True)] = switch_script(device, platform, undo, total, True)
    return files
