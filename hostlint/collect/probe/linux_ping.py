"""A probe from a Linux host: iputils `ping` over the host's SSH session (the KVM collector's runner).

    ping -n -M do -s SIZE -c COUNT -W WAIT -i INTERVAL -I DEVICE PEER        (prefixed `ip vrf exec VRF`)

`-M do` sets don't-fragment and forbids local fragmentation: a probe above the device's MTU is refused
by the host's own stack ("local error: message too long, mtu=1500", or "Message too long" from
sendmsg on older iputils), which is the source's fault, not the path's. The summary line
`N packets transmitted, M received` and `rtt min/avg/max/mdev = a/b/c/d ms` are iputils' own
(ping(8)); exit status 1 means no reply, 2 another error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hostlint.collect.kvm.runner import Runner

_COUNTS = re.compile(r"(\d+) packets transmitted, (\d+) (?:packets )?received")
_RTT = re.compile(r"= [\d.]+/([\d.]+)/[\d.]+")
_TOO_LONG = re.compile(r"message too long", re.IGNORECASE)


@dataclass(frozen=True)
class LinuxPing:
    sent: int | None
    received: int | None
    round_trip_ms: float | None
    too_big_locally: bool
    error: str | None


def argv(device: str, peer: str, size: int, count: int, wait: int, interval: float, vrf: str | None) -> list[str]:
    ping = ["ping", "-n", "-M", "do", "-s", str(size), "-c", str(count), "-W", str(wait)]
    ping += ["-i", f"{interval:g}", "-I", device, peer]
    return ["ip", "vrf", "exec", vrf, *ping] if vrf else ping


def parse(output: str) -> LinuxPing:
    counts = _COUNTS.search(output)
    too_big = bool(_TOO_LONG.search(output))
    if counts is None:
        reason = " ".join(output.split())[:300] or "ping printed nothing"
        return LinuxPing(None, None, None, too_big, None if too_big else f"ping failed: {reason}")
    received = int(counts.group(2))
    rtt = _RTT.search(output)
    return LinuxPing(
        sent=int(counts.group(1)),
        received=received,
        round_trip_ms=float(rtt.group(1)) if rtt else None,
        too_big_locally=too_big and received == 0,
        error=None,
    )


def ping(runner: Runner, device: str, peer: str, size: int, count: int, wait: int, interval: float,
         vrf: str | None) -> LinuxPing:  # fmt: skip
    done = runner.call(argv(device, peer, size, count, wait, interval, vrf))
    if done.missing:
        return LinuxPing(None, None, None, False, f"ping is not installed on the host ({done.why()})")
    return parse(done.stdout + "\n" + done.stderr)
