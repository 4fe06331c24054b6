"""The default libvirt URI for a KVM host reached over SSH, with the `--ssh-option`s libvirt can take.

libvirt's ssh transport runs its own `ssh`: the port goes in the URI, the identity file as `keyfile`,
a known hosts file as `known_hosts` (honoured by the libssh/libssh2 transports), and `no_tty=1` so
that it never prompts. With `command=` it runs hostlint's ssh wrapper instead (libvirt's URI reference,
https://libvirt.org/uri.html#ssh-transport: `command`, the external program to use as ssh), which carries
hostlint's host-key policy, the --ssh-options and the one connection to the host.
`StrictHostKeyChecking=no` is never passed on as `no_verify`: no ssh option
turns host-key checking off (hostlint.collect.hostkeys).
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import quote, urlencode


class SshOptionError(ValueError):
    """An `--ssh-option` that is not KEY=VALUE, or a value that makes no sense."""


def parse_ssh_options(options: Sequence[str]) -> dict[str, str]:
    """`KEY=VALUE` options (as `ssh -o` takes them) by lower-case key; the last one given wins."""
    parsed: dict[str, str] = {}
    for option in options:
        key, sep, value = option.partition("=")
        if not sep or not key.strip():
            raise SshOptionError(f"--ssh-option {option!r}: want KEY=VALUE")
        parsed[key.strip().lower()] = value.strip()
    return parsed


def check_destination(destination: str) -> None:
    """A `[user@]host` ssh can be given: a host, no blank, no leading `-` (ssh would take it for an option)."""
    user, at, host = destination.rpartition("@")
    if not host.strip() or host != host.strip() or any(c.isspace() for c in host):
        raise SshOptionError(f"--host {destination!r}: want [USER@]HOST")
    if destination.startswith("-") or (at and not user):
        raise SshOptionError(f"--host {destination!r}: want [USER@]HOST")


def ssh_libvirt_uri(destination: str, ssh_options: Sequence[str] = (), ssh_command: str | None = None) -> str:
    """`qemu+ssh://[user@]host[:port]/system?...` for `destination` ([user@]host) and the SSH options.

    `ssh_command` is the program libvirt runs instead of `ssh` (its `command` parameter): hostlint's own
    ssh wrapper, so libvirt's connection verifies host keys as hostlint's do and rides on its connection."""
    options = parse_ssh_options(ssh_options)
    user, at, host = destination.rpartition("@")
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address
    netloc = f"{quote(user, safe='')}@{host}" if at else host
    port = options.get("port")
    if port is not None:
        if not port.isdigit() or not 0 < int(port) < 65536:
            raise SshOptionError(f"--ssh-option Port={port}: not a port number")
        netloc += f":{int(port)}"
    params = {"no_tty": "1"}
    if ssh_command is not None:
        params["command"] = ssh_command
    if "identityfile" in options:
        params["keyfile"] = options["identityfile"]
    if "userknownhostsfile" in options:
        params["known_hosts"] = options["userknownhostsfile"]
    return f"qemu+ssh://{netloc}/system?{urlencode(params, quote_via=quote)}"
