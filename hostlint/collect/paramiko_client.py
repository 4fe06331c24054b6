"""A paramiko SSHClient that verifies the server's host key with `HostKeyPolicy` before it authenticates.

paramiko checks the key after the key exchange and before any authentication; this client
loads no host keys of its own, so paramiko always hands the key to the policy (through a
MissingHostKeyPolicy) and a refused key raises before a password or key is offered. The
server is asked first for the key types known_hosts holds for it, as OpenSSH does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import asyncssh
import paramiko

from hostlint.collect.hostkeys import HostKeyPolicy, HostKeyRefused, KnownHostsError

# paramiko names RSA host keys by signature algorithm.
_ALGORITHMS = {"ssh-rsa": ("rsa-sha2-512", "rsa-sha2-256", "ssh-rsa")}


class HostKeyRejected(paramiko.SSHException):
    """Raised inside paramiko's connect (which lets SSHException through); the message is HostKeyRefused's."""


class _Check(paramiko.MissingHostKeyPolicy):
    def __init__(self, client: VerifyingClient) -> None:
        self._client = client

    def missing_host_key(self, client: paramiko.SSHClient, hostname: str, key: paramiko.PKey) -> None:
        self._client.phase("host key")
        offered = asyncssh.import_public_key(f"{key.get_name()} {key.get_base64()}")
        try:
            self._client.policy.check(self._client.host, self._client.port, offered)
        except (HostKeyRefused, KnownHostsError) as exc:
            self._client.refusal = str(exc)
            raise HostKeyRejected(str(exc)) from None
        self._client.phase("auth")


class VerifyingClient(paramiko.SSHClient):
    """`connect()` as paramiko's; `refusal` holds the reason when the host key was refused.

    `on_phase(name)` is told "host key" and "auth" as the connection gets there;
    `on_transport(transport)` receives the transport as soon as it exists (to close it at a deadline).
    """

    def __init__(
        self,
        policy: HostKeyPolicy,
        on_phase: Callable[[str], None] | None = None,
        on_transport: Callable[[paramiko.Transport], None] | None = None,
    ) -> None:
        super().__init__()
        self.policy = policy
        self.refusal: str | None = None
        self.host, self.port = "", 22
        self._on_phase = on_phase
        self._on_transport = on_transport
        super().set_missing_host_key_policy(_Check(self))

    def set_missing_host_key_policy(
        self, policy: type[paramiko.MissingHostKeyPolicy] | paramiko.MissingHostKeyPolicy
    ) -> None:
        """Ignored: the host-key policy is hostlint's (netmiko sets its own here)."""

    def phase(self, name: str) -> None:
        if self._on_phase is not None:
            self._on_phase(name)

    def connect(self, hostname: str, port: int = 22, *args: Any, **kwargs: Any) -> None:
        self.host, self.port = hostname, port
        try:
            self.policy.load()
        except KnownHostsError as exc:
            self.refusal = str(exc)
            raise HostKeyRejected(str(exc)) from None
        preferred = [
            name
            for algorithm in self.policy.preferred_algorithms(hostname, port)
            for name in _ALGORITHMS.get(algorithm, (algorithm,))
        ]

        # The socket is paramiko's (a socket, a channel or a proxy command), passed through as given.
        def transport(sock: Any, **options: Any) -> paramiko.Transport:
            made = paramiko.Transport(sock, **options)
            if preferred:
                security = made.get_security_options()
                offered = [name for name in preferred if name in security.key_types]
                security.key_types = offered + [name for name in security.key_types if name not in offered]
            if self._on_transport is not None:
                self._on_transport(made)
            return made

        kwargs["transport_factory"] = transport
        super().connect(hostname, port, *args, **kwargs)
