"""What a fix target is: the language its scripts are written in, how a block is wrapped, how a file is named.

The fix targets themselves are listed in hostlint.platforms (host tools) and hostlint.switches (switch
platforms, one folder each); both build on these types. This module imports nothing of hostlint's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Language = Literal["sh", "ps", "py", "cli"]
Renderer = Literal["shell", "powershell", "python", "switch"]
# What a fix target changes: an ESXi host (or its vCenter), a KVM host, a libvirt guest, a switch.
Changes = Literal["esxi", "kvm", "guest", "switch"]


@dataclass(frozen=True, kw_only=True)
class Vocabulary:
    """How a script for the target writes a comment and wraps a block of commands."""

    comment: str
    enter: tuple[str, ...] = ()
    leave: tuple[str, ...] = ()
    # Pasted on its own once the step's verify passes: what makes a confirmed commit permanent, and
    # the minutes after which an unconfirmed commit rolls itself back.
    confirm: tuple[str, ...] = ()
    confirm_minutes: int = 0

    @property
    def commit(self) -> tuple[str, ...]:
        """The confirm lines that are neither the block's entry nor its exit (Junos: `commit`)."""
        return tuple(line for line in self.confirm if line not in self.enter and line not in self.leave)


SHELL_VOCABULARY = Vocabulary(comment="#")


@dataclass(frozen=True, kw_only=True)
class Target:
    """A platform fix scripts are written for."""

    name: str
    changes: Changes
    language: Language
    renderer: Renderer
    # The script's file name: `{device}`, `{kind}` (`.rollback` or nothing) and `{platform}`.
    file: str
    # How PLAN.md says to run step `{number}` of script `{name}`.
    run: str
    vocabulary: Vocabulary = SHELL_VOCABULARY
    # A shell script's usage lines (`{name}` is the script's file name).
    usage: tuple[str, ...] = ()

    def script_name(self, device: str, rollback: bool = False) -> str:
        return self.file.format(device=device, kind=".rollback" if rollback else "", platform=self.name)
