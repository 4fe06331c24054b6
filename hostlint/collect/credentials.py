"""Where passwords come from, for every collector: one resolver.

In order: the environment (a device's own variable named in the inventory, then the kind's
variable), then the system keyring (when the kind keeps entries there), then a prompt (only
when the caller can ask). Never the command line, never a log. A collection with no way to ask
(a scheduled scan) gets MissingCredential, which names where the password could have been put.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

log = logging.getLogger(__name__)

Prompt = Callable[[str], str]


@dataclass(frozen=True)
class Secret:
    """Where one kind of password may be kept: its environment variable and keyring service."""

    env: str
    # None: the kind is never looked up in the keyring (SSH logins fall back to keys and the agent).
    keyring_service: str | None = None


VSPHERE = Secret("HOSTLINT_VSPHERE_PASSWORD", "hostlint-vsphere")
SWITCH = Secret("HOSTLINT_SWITCH_PASSWORD", "hostlint")
# SSH to ESXi hosts (lspci) and to KVM hosts: keys or the agent unless this is set.
ESXI_SSH = Secret("HOSTLINT_ESXI_SSH_PASSWORD")
KVM_SSH = Secret("HOSTLINT_SSH_PASSWORD")

VSPHERE_PASSWORD_ENV = VSPHERE.env
VSPHERE_KEYRING_SERVICE = VSPHERE.keyring_service


class MissingCredential(Exception):
    """No password anywhere it may be kept; the message says where to put one."""


def keyring_password(service: str, user: str) -> str | None:
    """The system keyring's entry for (service, user), when keyring is installed."""
    try:
        import keyring
    except ImportError:
        return None
    try:
        password: str | None = keyring.get_password(service, user)
    except Exception as exc:  # any backend failure just means "not stored there"
        log.debug("keyring lookup failed: %s", exc)
        return None
    return password


def find_password(
    secret: Secret, variable: str | None = None, service: str | None = None, keys: Sequence[str | None] = ()
) -> str | None:
    """The password from `variable` (a device's own), `secret.env`, then the keyring: `service`
    (default the secret's) under each of `keys` in turn. None when none holds one; empty is unset."""
    for name in (variable, secret.env):
        if name and os.environ.get(name):
            return os.environ[name]
    service = service or secret.keyring_service
    if service is None:
        return None
    for key in keys:
        if key:
            found = keyring_password(service, key)
            if found:
                return found
    return None


def vsphere_password(server: str, user: str, prompt: Prompt | None = None) -> str:
    """Environment, then keyring (service hostlint-vsphere/SERVER), then `prompt` when one is given."""
    service = f"{VSPHERE.keyring_service}/{server}"
    password = find_password(VSPHERE, service=service, keys=(user,))
    if password:
        return password
    if prompt is not None:
        return prompt(f"Password for {user} on {server}")
    raise MissingCredential(
        f"no password for {user} on {server}: set {VSPHERE.env}, store it in the keyring "
        f"(service {service}), or run on a terminal to be asked"
    )
