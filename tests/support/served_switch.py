"""A lab's switch served by its platform's stateful emulator over SSH, and collected from it by hostlint's
collector with real netmiko (the Comware and VRP lab and rehearsal tests)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from switch_emulator.server import EmulatedSwitch, SwitchEmulator

from hostlint.collect.hostkeys import HostKeyPolicy
from hostlint.collect.switches import collect_switches
from hostlint.collect.switches.inventory import Device
from hostlint.snapshot import Snapshot


@dataclass
class Served:
    port: int
    collect: Callable[[], Snapshot]


@contextmanager
def served_switch(original: Snapshot, platform: str, stateful: Any, folder: Path) -> Iterator[Served]:
    """`original`'s one switch served on loopback; `collect()` is `original` with its switches as collected
    (no collection error allowed)."""
    (switch,) = original.switches
    with SwitchEmulator() as emulator:
        port = emulator.add(EmulatedSwitch(switch.name, platform, stateful=stateful))
        device = Device(name=switch.name, hostname="127.0.0.1", port=port, platform=platform, username="netadmin")
        policy = HostKeyPolicy(emulator.write_known_hosts(folder / "known_hosts"))

        def collect() -> Snapshot:
            collected = collect_switches([device], policy=policy)
            assert collected.collection_errors == []
            return original.model_copy(update={"switches": collected.switches}, deep=True)

        yield Served(port=port, collect=collect)
