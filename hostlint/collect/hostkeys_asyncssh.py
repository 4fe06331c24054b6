"""asyncssh's side of the host key policy (ESXi over SSH): trusted keys come from the policy, an
unknown or changed key goes to its check. Apart from hostkeys.py so that what never opens an asyncssh
connection (a vSphere API collection) does not import asyncssh.
"""

from __future__ import annotations

from typing import Any

import asyncssh

from hostlint.collect.hostkeys import SSH_PORT, HostKeyPolicy, HostKeyRefused


class _AsyncsshClient(asyncssh.SSHClient):
    def __init__(self, policy: HostKeyPolicy):
        self.policy = policy
        self.refusal: str | None = None

    def validate_host_public_key(self, host: str, addr: str, port: int, key: asyncssh.SSHKey) -> bool:
        try:
            self.policy.check(host, port or SSH_PORT, key)
        except HostKeyRefused as exc:
            self.refusal = str(exc)
            return False
        return True


class AsyncsshVerifier:
    """`asyncssh.connect(..., **verifier.options())`; after HostKeyNotVerifiable, `verifier.refusal` says why."""

    def __init__(self, policy: HostKeyPolicy):
        self._client = _AsyncsshClient(policy)

    @property
    def refusal(self) -> str | None:
        return self._client.refusal

    def options(self) -> dict[str, Any]:
        policy = self._client.policy

        def trusted(
            host: str, addr: str, port: int | None
        ) -> tuple[list[asyncssh.SSHKey], list[asyncssh.SSHKey], list[asyncssh.SSHKey]]:
            keys, _revoked = policy.known_keys(host, port or SSH_PORT)
            return keys, [], []

        return {"known_hosts": trusted, "client_factory": lambda: self._client}
