"""`python -m switch_emulator --count N`: N emulated switches in their own process (for the benchmark).

Prints `{"ports": [...], "known_hosts": "..."}` on one line once every switch listens
(the known_hosts text trusts the switches' host key), then serves until its standard input closes.
"""

from __future__ import annotations

import argparse
import json
import sys

from switch_emulator.scenarios import build
from switch_emulator.server import EmulatedSwitch, SwitchEmulator


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--platforms", default="cisco_ios")
    args = parser.parse_args()
    platforms = args.platforms.split(",")
    outputs = {platform: build(platform) for platform in platforms}
    with SwitchEmulator() as emulator:
        ports = [
            emulator.add(
                EmulatedSwitch(
                    name=f"sw{index:03d}",
                    platform=platforms[index % len(platforms)],
                    outputs=outputs[platforms[index % len(platforms)]],
                )
            )
            for index in range(args.count)
        ]
        known_hosts = "".join(emulator.known_hosts_line(port) for port in ports)
        print(json.dumps({"ports": ports, "known_hosts": known_hosts}), flush=True)
        sys.stdin.read()


if __name__ == "__main__":
    main()
