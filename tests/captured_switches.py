"""Switches from captured CLI output: a lab's `cli/` folder holds a Nornir `hosts.yaml` and, per
device, one file per command of its platform's spec (`show_running-config.txt`, ...). They go
through the same parsers and assembly as `hostlint collect switches`, so a lab written as the
switches' own output (running configuration and all) gets every fact the collector would read.

    PYTHONPATH=$PWD python3 tests/captured_switches.py fixtures/labs/correct-site

writes the lab's switches.json from its cli/ folder; tests/test_labs.py checks it is current.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path

from hostlint.collect.switches import load_platform
from hostlint.collect.switches.assemble import build_switch
from hostlint.collect.switches.inventory import load_inventory
from hostlint.collect.switches.parse import Parsed, parse_output
from hostlint.snapshot import Snapshot
from hostlint.snapshot.switch import Switch


def captured_switches(cli: Path) -> list[Switch]:
    """Each inventory device's switch, from its folder of outputs; a warning or a missing output fails."""
    switches = []
    for device in load_inventory(cli / "hosts.yaml"):
        spec = load_platform(device.platform)
        sections: dict[str, Parsed] = {}
        commands: dict[str, str] = {}
        for command in spec.commands:
            output = (cli / device.name / f"{command.slug}.txt").read_text(encoding="utf-8")
            parsed = parse_output(command, output, device.name)
            if parsed.warnings:
                raise ValueError(f"{device.name} {command.command}: {parsed.warnings}")
            commands.setdefault(command.section, command.command)
            sections.setdefault(command.section, Parsed()).merge(parsed)
        switch, warnings = build_switch(device, sections, commands)
        if warnings:
            raise ValueError(f"{device.name}: {warnings}")
        switches.append(switch)
    return switches


def snapshot_of(lab: Path, collected_at: datetime | None) -> Snapshot:
    switches = captured_switches(lab / "cli")
    names = ",".join(s.name for s in switches)
    return Snapshot(collected_at=collected_at, source=f"ssh:{names}", switches=switches)


def document(snapshot: Snapshot) -> str:
    return json.dumps(snapshot.model_dump(mode="json"), indent=2) + "\n"


def main(lab: Path) -> None:
    hosts = json.loads((lab / "hosts.json").read_text(encoding="utf-8"))
    collected_at = datetime.fromisoformat(hosts["collected_at"])
    (lab / "switches.json").write_text(document(snapshot_of(lab, collected_at)), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
