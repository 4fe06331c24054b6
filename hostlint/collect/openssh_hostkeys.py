"""The system `ssh` client verifying host keys with hostlint's `HostKeyPolicy`, through KnownHostsCommand.

`ssh_options(policy)` turns OpenSSH's own known_hosts files off and names this module as its
KnownHostsCommand (OpenSSH 8.5+): ssh runs it with the offered key before authenticating,
and trusts the key only when the policy does (printing it back as a known_hosts line). A
refusal is written to standard error as one line starting with `REFUSED`, which ssh passes
through, so the collector reports the policy's reason (host, key type, fingerprint).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import asyncssh

from hostlint.collect.hostkeys import HostKeyPolicy, HostKeyRefused, KnownHostsError

REFUSED = "hostlint host key: "


def _quoted(text: str) -> str:
    """One argument of an OpenSSH command line (split by ssh itself, `%` expands tokens)."""
    return '"' + text.replace("%", "%%").replace("\\", "\\\\").replace('"', '\\"') + '"'


def ssh_options(policy: HostKeyPolicy) -> list[str]:
    """`-o` arguments for ssh (they must come before any the user gives: OpenSSH keeps the first value)."""
    command = [_quoted(sys.executable), "-m", __name__, "--reason=%I", "--name=%H", "--type=%t", "--key=%K"]
    if policy.known_hosts is not None:
        command.append(_quoted(f"--known-hosts={policy.known_hosts}"))
    if policy.accept_new:
        command.append("--accept-new")
    options = {
        "StrictHostKeyChecking": "yes",
        "UserKnownHostsFile": "none",
        "GlobalKnownHostsFile": "none",
        "CheckHostIP": "no",
        "UpdateHostKeys": "no",
        "KnownHostsCommand": " ".join(command),
    }
    return [arg for key, value in options.items() for arg in ("-o", f"{key}={value}")]


def refusal(stderr: str) -> str | None:
    """The policy's reason, when ssh failed because the host key was refused."""
    return next((line.removeprefix(REFUSED) for line in stderr.splitlines() if line.startswith(REFUSED)), None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m {__name__}")
    parser.add_argument("--reason", default="")
    parser.add_argument("--name", required=True)
    parser.add_argument("--type", default="")
    parser.add_argument("--key", default="")
    parser.add_argument("--known-hosts", type=Path)
    parser.add_argument("--accept-new", action="store_true")
    args = parser.parse_args(argv)
    policy = HostKeyPolicy(known_hosts=args.known_hosts, accept_new=args.accept_new)
    try:
        if args.reason == "ORDER" or not args.key:
            # The preference list: the key types known for the host come first.
            trusted, _ = policy.known_keys_of(args.name)
            for key in trusted:
                print(args.name, *key.export_public_key("openssh").decode().split()[:2])
            return 0
        if args.reason != "HOSTNAME":
            return 0
        offered = asyncssh.import_public_key(f"{args.type} {args.key}")
        policy.check_entry(args.name, offered)
    except (HostKeyRefused, KnownHostsError) as exc:
        print(f"{REFUSED}{exc}", file=sys.stderr)
        return 0  # nothing printed: ssh refuses the key, before any authentication
    print(f"{args.name} {args.type} {args.key}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
