"""Size of the HTML report of a generated site with findings on every host (issue 14: under 1.5 MB
for 1,000 hosts).

    python3 bench/html_size.py --hosts 1000 [-o report.html]

Every host's vSwitch1 is set to MTU 1500 under its 9000-byte vmk, so every host has findings.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_site import make_site

from hostlint.check import check_snapshot
from hostlint.report import render
from hostlint.rules import load_rules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--hosts", type=int, default=1000)
    parser.add_argument("--output", "-o", type=Path)
    args = parser.parse_args(argv)
    snapshot = make_site(args.hosts).snapshot
    for host in snapshot.esxi_hosts:
        for vswitch in host.vswitches:
            if vswitch.name == "vSwitch1":
                vswitch.mtu = 1500
    rules = load_rules()
    result = check_snapshot(snapshot, rules)
    started = time.perf_counter()
    page = render("html", result, rules, snapshot)
    seconds = time.perf_counter() - started
    size = len(page.encode("utf-8"))
    hosts = len({f.host for f in result.findings})
    findings = len(result.findings)
    print(f"{args.hosts} hosts, {findings} findings on {hosts} hosts: {size / 1e6:.2f} MB in {seconds:.1f} s")
    if args.output:
        args.output.write_text(page, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
