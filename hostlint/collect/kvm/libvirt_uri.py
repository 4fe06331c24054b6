"""The default libvirt URI for a KVM host reached over SSH, with the `--ssh-option`s libvirt can take.

libvirt's ssh transport runs its own `ssh`: the port goes in the URI, the identity file as `keyfile`,
a known hosts file as `known_hosts` (honoured by the libssh/libssh2 transports), and `no_tty=1` so
that it never prompts. `StrictHostKeyChecking=no` is never passed on as `no_verify`: no ssh option
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


def ssh_libvirt_uri(destination: str, ssh_options: Sequence[str] = ()) -> str:
    """`qemu+ssh://[user@]host[:port]/system?...` for `destination` ([user@]host) and the SSH options."""
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
    if "identityfile" in options:
        params["keyfile"] = options["identityfile"]
    if "userknownhostsfile" in options:
        params["known_hosts"] = options["userknownhostsfile"]
    return f"qemu+ssh://{netloc}/system?{urlencode(params, quote_via=quote)}"
