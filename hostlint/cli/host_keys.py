"""`--known-hosts FILE` and `--accept-new-host-keys`: the SSH host-key policy of every command that connects."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from hostlint.collect.hostkeys import HostKeyPolicy, KnownHostsError

# A click command or the function it is being built from (what click.option decorates).
CommandT = TypeVar("CommandT", bound=Callable[..., Any])


def host_key_options(command: CommandT) -> CommandT:
    """Add both options to a click command (as `known_hosts` and `accept_new_host_keys`)."""
    command = click.option(
        "--accept-new-host-keys",
        is_flag=True,
        help="Trust on first use: a host not in known_hosts is accepted and its key recorded there (in the "
        "--known-hosts file, else ~/.ssh/known_hosts). A changed key is still refused.",
    )(command)
    return click.option(
        "--known-hosts",
        type=click.Path(dir_okay=False, path_type=Path),
        help="Verify SSH host keys against this OpenSSH known_hosts file only (default: ~/.ssh/known_hosts and "
        "/etc/ssh/ssh_known_hosts). An unknown or changed key is an error for that device; nothing is sent to it.",
    )(command)


def host_key_policy(known_hosts: Path | None, accept_new: bool) -> HostKeyPolicy:
    """The policy, its files read now: KnownHostsError (one line naming the file) when one cannot be."""
    policy = HostKeyPolicy(known_hosts=known_hosts, accept_new=accept_new)
    policy.load()
    return policy


__all__ = ["KnownHostsError", "host_key_options", "host_key_policy"]
