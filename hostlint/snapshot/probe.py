"""Evidence from `hostlint probe`: don't-fragment pings sent from one VMkernel port to another.

Configuration says what a path should carry; a probe says what it did carry, at the moment it ran.
A probe that was never sent (a refused executor, the budget spent) is kept with `error` set, so a
report can say which paths stay unproven and why.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, StrictInt

from hostlint.snapshot.common import Model, Name, Reason, Text

# How the probe left the host: esxcli through vCenter's ManagedMethodExecuter, or ping over SSH.
ProbeVia = Literal["vcenter-esxcli", "ssh"]
# What stopped a probe short of an answer:
# - `too-big-locally`: the source refused to send it (its own MTU is below the probe: "Message too long");
# - `refused`: the server refused to run it (a privilege), `failed`: it ran and failed otherwise;
# - `no-answer`: the call to the host did not return in time; `not-sent`: the run's budget was spent.
ProbeErrorKind = Literal["too-big-locally", "refused", "failed", "no-answer", "not-sent"]
ProbeOutcome = Literal["delivered", "lost", "refused-locally", "not-proven"]
# An IPv4 ICMP payload: the largest datagram (65535) less the IP and ICMP headers (28).
ProbeSize = Annotated[StrictInt, Field(ge=0, le=65507)]
Count = Annotated[StrictInt, Field(ge=0, le=1000)]


class Probe(Model):
    """One probe: `size` is the ICMP payload (an MTU of `size + 28` for IPv4)."""

    source_host: Name
    source_vmk: Name
    netstack: Name = "defaultTcpipStack"
    target_host: Name
    target_vmk: Name
    target_ip: Text
    size: ProbeSize
    dont_fragment: bool = True
    # What the probe was for: `jumbo` (the vmk's MTU less 28) or `control` (1472: a 1500-byte packet).
    purpose: Literal["jumbo", "control"]
    via: ProbeVia
    sent: Count | None = None
    received: Count | None = None
    round_trip_ms: float | None = None
    error_kind: ProbeErrorKind | None = None
    error: Reason | None = None
    at: datetime | None = None

    @property
    def mtu(self) -> int:
        return self.size + 28

    @property
    def label(self) -> str:
        """The probe as findings name it (their `object`): source, target and the MTU it proves."""
        return f"{self.source_host}/{self.source_vmk} -> {self.target_host}/{self.target_vmk} at {self.mtu}"

    @property
    def outcome(self) -> ProbeOutcome:
        """What the probe proved: `delivered`, `lost`, `refused-locally` (the source's own MTU is below
        it) or `not-proven` (it was not sent or not answered)."""
        if self.error_kind == "too-big-locally":
            return "refused-locally"
        if self.delivered is None:
            return "not-proven"
        return "delivered" if self.delivered else "lost"

    @property
    def delivered(self) -> bool | None:
        """True: at least one reply came back; False: sent and none came back; None: not decided."""
        if self.error_kind == "too-big-locally":
            return False
        if self.error_kind is not None or self.sent is None or self.received is None:
            return None
        return self.received > 0
