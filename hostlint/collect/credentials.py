"""Where passwords come from: the environment, then the system keyring, then (only if offered) a prompt.

Never the command line, never a log. A collection with no way to ask (a scheduled scan) gets
MissingCredential, which names where the password could have been put.
"""

from __future__ import annotations

import os
from collections.abc import Callable

VSPHERE_PASSWORD_ENV = "HOSTLINT_VSPHERE_PASSWORD"
VSPHERE_KEYRING_SERVICE = "hostlint-vsphere"

Prompt = Callable[[str], str]


class MissingCredential(Exception):
    """No password anywhere it may be kept; the message says where to put one."""


def keyring_password(service: str, user: str) -> str | None:
    """The system keyring's entry for (service, user), when keyring is installed."""
    try:
        import keyring
    except ImportError:
        return None
    try:
        return keyring.get_password(service, user)
    except Exception:  # any backend failure just means "not stored there"
        return None


def vsphere_password(server: str, user: str, prompt: Prompt | None = None) -> str:
    """Environment, then keyring (service hostlint-vsphere/SERVER), then `prompt` when one is given."""
    service = f"{VSPHERE_KEYRING_SERVICE}/{server}"
    password = os.environ.get(VSPHERE_PASSWORD_ENV) or keyring_password(service, user)
    if password:
        return password
    if prompt is not None:
        return prompt(f"Password for {user} on {server}")
    raise MissingCredential(
        f"no password for {user} on {server}: set {VSPHERE_PASSWORD_ENV}, store it in the keyring "
        f"(service {service}), or run on a terminal to be asked"
    )
