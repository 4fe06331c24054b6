"""The SSH server: one listening port per emulated switch, all in one asyncio loop on a thread.

Each switch shows its platform's prompt, accepts the terminal/paging commands
netmiko sends while preparing a session, answers the show commands it has
captured output for, and rejects anything else the way the platform does. A switch
given a `stateful` (switch_emulator.stateful.StatefulSwitch) answers from its state
instead, accepts configuration, and its prompt follows the mode it is in.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from dataclasses import dataclass, field
from typing import Protocol

import asyncssh
from loopback_ssh import LoopbackSsh

from switch_emulator.cli_text import invalid, terminal

# A client that hangs up mid-answer makes asyncio warn about every write that follows; a real switch
# does not care either.
logging.getLogger("asyncio").setLevel(logging.ERROR)


class Stateful(Protocol):
    """A switch that keeps state (switch_emulator.stateful.StatefulSwitch): its prompt follows its mode."""

    def prompt(self) -> str: ...

    def execute(self, line: str) -> str: ...

    def hangs_up(self, line: str) -> bool: ...


@dataclass
class EmulatedSwitch:
    """One switch: who may log in, and what it answers (`outputs`: command -> captured text)."""

    name: str
    platform: str
    outputs: dict[str, str] = field(default_factory=dict)
    # When set, the switch answers from this state (and accepts configuration) instead of `outputs`.
    stateful: Stateful | None = None
    username: str = "netadmin"
    password: str = "lab-secret"
    delays: dict[str, float] = field(default_factory=dict)
    # Commands answered with the prompt alone the first time they are typed (a read that ended early).
    blank_once: set[str] = field(default_factory=set)
    # Faults: hang up when this command is typed; never show a prompt (nor answer) at all.
    drop_on: str | None = None
    mute: bool = False
    # Every login attempt with a password, as (username, whether it was right): never the password itself.
    password_attempts: list[tuple[str, bool]] = field(default_factory=list)

    @property
    def prompt(self) -> str:
        if self.stateful is not None:
            return self.stateful.prompt()
        if self.platform == "juniper_junos":
            return f"{self.username}@{self.name}> "
        return f"{self.name}#"

    def hangs_up(self, command: str) -> bool:
        if self.stateful is not None:
            return self.stateful.hangs_up(command)
        return command in ("exit", "quit", "logout")

    def answer(self, line: str) -> str:
        if self.stateful is not None:
            return self.stateful.execute(line)
        command = " ".join(line.split())
        if not command:
            return ""
        text = terminal(self.platform, command)
        if text is not None:
            return text
        if command in self.outputs:
            text = self.outputs[command]
            return text if text.endswith("\n") else text + "\n"
        return invalid(self.platform, self.prompt, command)


class _Server(asyncssh.SSHServer):
    def __init__(self, switch: EmulatedSwitch):
        self._switch = switch

    def begin_auth(self, username: str) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return True

    def validate_password(self, username: str, password: str) -> bool:
        right = username == self._switch.username and password == self._switch.password
        self._switch.password_attempts.append((username, right))
        return right


async def _session(process: asyncssh.SSHServerProcess, switch: EmulatedSwitch) -> None:
    if switch.mute:
        while await process.stdin.readline():
            pass
        return
    process.stdout.write(switch.prompt)
    try:
        while True:
            line = await process.stdin.readline()
            if not line:
                break
            command = line.strip()
            # The switch echoes what was typed itself (the line editor's echo is off), so that input
            # typed ahead of the first prompt still comes out as prompt, echo, answer, prompt.
            process.stdout.write(line.rstrip("\r\n") + "\r\n")
            if switch.hangs_up(command):
                break
            if command == switch.drop_on:
                process.channel.get_connection().abort()  # the TCP connection goes, mid-command
                return
            if delay := switch.delays.get(command):
                await asyncio.sleep(delay)
            if command in switch.blank_once:
                switch.blank_once.discard(command)
                process.stdout.write(switch.prompt)
                continue
            text = switch.answer(command)
            process.stdout.write(text.replace("\n", "\r\n") + switch.prompt)
    except (asyncssh.BreakReceived, asyncssh.TerminalSizeChanged, ConnectionError):
        pass
    process.exit(0)


class SwitchEmulator(LoopbackSsh):
    """Start with `with SwitchEmulator() as emulator: port = emulator.add(switch)`."""

    def __init__(self) -> None:
        super().__init__("switch-emulator")
        self._sockets: list[socket.socket] = []

    def add(self, switch: EmulatedSwitch) -> int:
        """Listen for `switch` on a free port of 127.0.0.1; returns the port."""
        return self.listen(
            server_factory=lambda: _Server(switch),
            process_factory=lambda process: _session(process, switch),
            encoding="utf-8",
            line_editor=True,
            line_echo=False,
        )

    def add_silent(self) -> int:
        """A port that accepts TCP and never says a word (no SSH banner): a hung SSH server, or not SSH at all."""
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        self._sockets.append(listener)
        return listener.getsockname()[1]

    @staticmethod
    def closed_port() -> int:
        """A port nothing listens on (connection refused)."""
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        return port

    def close(self) -> None:
        super().close()
        for listener in self._sockets:
            listener.close()
