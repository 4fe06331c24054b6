"""SSH host-key verification: one policy for every SSH connection hostlint makes (switches, ESXi, KVM).

The server's key is checked against OpenSSH known_hosts files before anything is sent
to it: the user's (`~/.ssh/known_hosts`, `~/.ssh/known_hosts2`, `/etc/ssh/ssh_known_hosts`,
`/etc/ssh/ssh_known_hosts2`), or only the file given (`--known-hosts FILE`). Hashed entries
(`|1|...`), `[host]:port` entries, patterns and `@revoked` lines are understood (asyncssh
reads the files). A host with a key of the offered type that differs, or only keys of other
types, has a changed key: refused, always. An unknown host is refused unless
`--accept-new-host-keys` is given: then its key is trusted on first use and recorded in the
file given, or else in `~/.ssh/known_hosts`.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # asyncssh is imported where a key is read: a vSphere-only run does not load it
    import asyncssh


USER_FILES = ("~/.ssh/known_hosts", "~/.ssh/known_hosts2")
SYSTEM_FILES = ("/etc/ssh/ssh_known_hosts", "/etc/ssh/ssh_known_hosts2")
SSH_PORT = 22


class HostKeyRefused(Exception):
    """The server's key is not trusted; the message (one line) names the host, key type and fingerprint."""


class KnownHostsError(Exception):
    """A known_hosts file cannot be read; the message names it."""


def host_entry(host: str, port: int) -> str:
    """How known_hosts names a host: `host` on port 22, `[host]:port` elsewhere."""
    return host if port == SSH_PORT else f"[{host}]:{port}"


def describe(key: asyncssh.SSHKey) -> str:
    """`ssh-ed25519 SHA256:...`: the key type and its fingerprint as OpenSSH prints it."""
    return f"{key.get_algorithm()} {key.get_fingerprint('sha256')}"


def _shown(path: Path) -> str:
    home = Path.home()
    return f"~/{path.relative_to(home)}" if path.is_relative_to(home) else str(path)


@dataclass
class HostKeyPolicy:
    """`known_hosts`: only this file (read and, with `accept_new`, written); None: the user's and the system's."""

    known_hosts: Path | None = None
    accept_new: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False, compare=False)
    _loaded: asyncssh.SSHKnownHosts | None = field(default=None, init=False, repr=False, compare=False)

    def files(self) -> list[Path]:
        if self.known_hosts is not None:
            return [self.known_hosts]
        return [Path(name).expanduser() for name in (*USER_FILES, *SYSTEM_FILES)]

    def record_file(self) -> Path:
        return self.known_hosts if self.known_hosts is not None else Path(USER_FILES[0]).expanduser()

    def where(self) -> str:
        return ", ".join(_shown(path) for path in self.files() if self.known_hosts or path.is_file()) or _shown(
            self.record_file()
        )

    def load(self) -> asyncssh.SSHKnownHosts:
        """Read the files once (KnownHostsError when one cannot be read); a missing default file is empty."""
        with self._lock:
            if self._loaded is None:
                self._loaded = self._read()
            return self._loaded

    def _read(self) -> asyncssh.SSHKnownHosts:
        import asyncssh

        known = asyncssh.SSHKnownHosts()
        for path in self.files():
            if self.known_hosts is None and not path.is_file():
                continue
            if path.exists() and not path.is_file():  # a FIFO would block the read forever
                raise KnownHostsError(f"known_hosts {path}: not a regular file")
            try:
                text = path.read_text(encoding="utf-8")
            except FileNotFoundError:
                if path == self.known_hosts and self.accept_new:
                    continue  # created when the first key is recorded
                raise KnownHostsError(f"known_hosts {path}: no such file") from None
            except (OSError, UnicodeDecodeError) as exc:
                raise KnownHostsError(f"known_hosts {path}: cannot be read ({exc})") from None
            try:
                known.load(text)
            except ValueError as exc:
                raise KnownHostsError(f"known_hosts {path}: {exc}") from None
        return known

    def known_keys(self, host: str, port: int) -> tuple[list[asyncssh.SSHKey], list[asyncssh.SSHKey]]:
        """(trusted keys, revoked keys) for exactly this host and port, as OpenSSH matches them."""
        return self.known_keys_of(host_entry(host, port))

    def known_keys_of(self, name: str) -> tuple[list[asyncssh.SSHKey], list[asyncssh.SSHKey]]:
        """The same by known_hosts name (`host` or `[host]:port`)."""
        trusted, _ca, revoked, *_ = self.load().match(name, "", None)
        return list(trusted), list(revoked)

    def preferred_algorithms(self, host: str, port: int) -> list[str]:
        """Key types already known for the host, so that the server is asked for one of those first."""
        trusted, _ = self.known_keys(host, port)
        return list(dict.fromkeys(key.get_algorithm() for key in trusted))

    def check(self, host: str, port: int, key: asyncssh.SSHKey) -> None:
        """Return when `key` may be trusted for host:port (recording it with accept_new); else HostKeyRefused."""
        self.check_entry(host_entry(host, port), key)

    def check_entry(self, name: str, key: asyncssh.SSHKey) -> None:
        """`check` by known_hosts name (`host` or `[host]:port`)."""
        trusted, revoked = self.known_keys_of(name)
        if any(k.public_data == key.public_data for k in revoked):
            raise HostKeyRefused(f"{name} offered {describe(key)}, marked @revoked in known_hosts; not logged in")
        if any(k.public_data == key.public_data for k in trusted):
            return
        if trusted:
            known = ", ".join(describe(k) for k in trusted)
            raise HostKeyRefused(
                f"{name} offered {describe(key)} but known_hosts ({self.where()}) has {known}: the host key "
                "CHANGED (a reinstalled host, or someone in between); not logged in. "
                "Remove the old entry (ssh-keygen -R) only once the new fingerprint is confirmed"
            )
        if not self.accept_new:
            raise HostKeyRefused(
                f"{name} offered {describe(key)}, not in known_hosts ({self.where()}); not logged in. "
                "Confirm the fingerprint and add it (ssh-keyscan), or pass --accept-new-host-keys"
            )
        self._record(name, key)

    def _record(self, name: str, key: asyncssh.SSHKey) -> None:
        path = self.record_file()
        algorithm, blob = key.export_public_key("openssh").decode().split()[:2]
        line = f"{name} {algorithm} {blob}\n"
        with self._lock:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            with os.fdopen(fd, "a", encoding="utf-8") as out:
                out.write(line)
            if self._loaded is not None:
                self._loaded.load(line)
