"""ESXi hosts' SSH service for tests: one port on 127.0.0.1 per host, all in one asyncio loop on a thread.

Like an ESXi shell reached with `ssh root@esx01 'lspci -vv'`, each host runs the commands it
has output for and answers anything else as its busybox `sh` does. It accepts a password
(also asked for through keyboard-interactive, as ESXi does) and/or one public key.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

import asyncssh
from loopback_ssh import LoopbackSsh

logging.getLogger("asyncio").setLevel(logging.ERROR)


@dataclass
class EsxiShell:
    name: str
    outputs: dict[str, str]
    username: str = "root"
    password: str | None = None
    authorized_key: asyncssh.SSHKey | None = None
    delay_s: float = 0.0
    commands_run: list[str] = field(default_factory=list)
    # Every login attempt, by method ("password", "keyboard-interactive", "publickey"): never a secret.
    logins: list[str] = field(default_factory=list)


class _Server(asyncssh.SSHServer):
    def __init__(self, shell: EsxiShell):
        self._shell = shell

    def begin_auth(self, username: str) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return self._shell.password is not None

    def validate_password(self, username: str, password: str) -> bool:
        self._shell.logins.append("password")
        return username == self._shell.username and password == self._shell.password

    def kbdint_auth_supported(self) -> bool:
        return self._shell.password is not None

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str):
        return "", "", "", [("Password: ", False)]

    def validate_kbdint_response(self, username: str, responses: list[str]) -> bool:
        self._shell.logins.append("keyboard-interactive")
        return len(responses) == 1 and username == self._shell.username and responses[0] == self._shell.password

    def public_key_auth_supported(self) -> bool:
        return self._shell.authorized_key is not None

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self._shell.logins.append("publickey")
        authorized = self._shell.authorized_key
        return username == self._shell.username and authorized is not None and key.public_data == authorized.public_data


@dataclass
class Sessions:
    """Commands running now across all hosts, and the most at once."""

    active: int = 0
    most: int = 0


async def _session(process: asyncssh.SSHServerProcess, shell: EsxiShell, sessions: Sessions) -> None:
    command = " ".join((process.command or "").split())
    shell.commands_run.append(command)
    sessions.active += 1
    sessions.most = max(sessions.most, sessions.active)
    try:
        await asyncio.sleep(shell.delay_s)
    finally:
        sessions.active -= 1
    if command in shell.outputs:
        process.stdout.write(shell.outputs[command])
        process.exit(0)
        return
    process.stderr.write(f"sh: {command.split(' ', 1)[0] if command else 'exit'}: not found\n")
    process.exit(127)


class EsxiShellServer(LoopbackSsh):
    """`with EsxiShellServer() as server: port = server.add(shell)`; `server.host_key` for known_hosts."""

    def __init__(self) -> None:
        super().__init__("esxi-shell")
        self.sessions = Sessions()

    def add(self, shell: EsxiShell) -> int:
        return self.listen(
            server_factory=lambda: _Server(shell),
            process_factory=lambda process: _session(process, shell, self.sessions),
            encoding="utf-8",
        )
