"""Reading a Linux host's files and running its commands, locally or over SSH, with one interface.

The collector asks for batches (files to read, symlinks to resolve, folders to
list) so that over SSH each batch is one round trip: a small `sh` script sent
on standard input prints every answer between marker lines.
"""

from __future__ import annotations

import os
import secrets
import shlex
import shutil
import subprocess
import tempfile
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from hostlint.collect import openssh_hostkeys
from hostlint.collect.credentials import KVM_SSH, find_password
from hostlint.collect.hostkeys import HostKeyPolicy
from hostlint.collect.limits import KVM_TIMEOUT_S

Op = Literal["file", "link", "dir"]
PASSWORD_ENV = KVM_SSH.env


@dataclass
class Done:
    """A command's outcome: `missing` when it is not installed (exit 127), else its exit status and output."""

    status: int
    stdout: str = ""
    stderr: str = ""

    @property
    def missing(self) -> bool:
        return self.status == 127

    @property
    def ok(self) -> bool:
        return self.status == 0

    def why(self) -> str:
        """The last line the command wrote on stderr (its reason), or its exit status."""
        lines = [line.strip() for line in self.stderr.splitlines() if line.strip()]
        return lines[-1] if lines else f"exit status {self.status}"


class CollectionFailure(Exception):
    """The host cannot be read at all (unreachable, refused, not Linux); the message says why."""


@dataclass
class Reads:
    """Answers to one batch: `None` where a file, link or folder is absent or unreadable."""

    files: dict[str, str | None] = field(default_factory=dict)
    links: dict[str, str | None] = field(default_factory=dict)
    dirs: dict[str, list[str] | None] = field(default_factory=dict)


class Runner(Protocol):
    target: str

    def gather(self, files: Sequence[str] = (), links: Sequence[str] = (), dirs: Sequence[str] = ()) -> Reads: ...

    def run(self, argv: list[str]) -> str | None:
        """The command's standard output, or None when it is missing or fails."""
        ...

    def call(self, argv: list[str]) -> Done:
        """The command's outcome, failures included (status 127: not installed)."""
        ...

    def close(self) -> None:
        """End the connection to the host, if there is one."""
        ...


class LocalRunner:
    """This machine (or the network namespace the collector runs in)."""

    def __init__(self, target: str = "localhost", timeout: float = KVM_TIMEOUT_S):
        self.target = target
        self.timeout = timeout

    def gather(self, files: Sequence[str] = (), links: Sequence[str] = (), dirs: Sequence[str] = ()) -> Reads:
        reads = Reads()
        for path in files:
            try:
                reads.files[path] = Path(path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                reads.files[path] = None
        for path in links:
            reads.links[path] = os.path.realpath(path) if os.path.exists(path) else None
        for path in dirs:
            try:
                reads.dirs[path] = sorted(os.listdir(path))
            except OSError:
                reads.dirs[path] = None
        return reads

    def run(self, argv: list[str]) -> str | None:
        done = self.call(argv)
        return done.stdout if done.ok else None

    def call(self, argv: list[str]) -> Done:
        if shutil.which(argv[0]) is None:
            return Done(127, stderr=f"{argv[0]}: not found")
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=self.timeout, check=False)
        except subprocess.TimeoutExpired:
            return Done(-1, stderr=f"{argv[0]}: no answer within {self.timeout:g} s")
        return Done(done.returncode, done.stdout, done.stderr)

    def close(self) -> None:
        pass


# Each request prints `<token> B <op>`, the answer, then `<token> E <exit status>` on its own line.
_SCRIPT_HEAD = """\
t='{token}'
a() {{ printf '%s B %s\\n' "$t" "$1"; }}
z() {{ r=$?; printf '\\n%s E %s\\n' "$t" "$r"; }}
"""
_OPS = {
    "file": "a file; cat -- {path} 2>/dev/null; z",
    "link": "a link; [ -e {path} ] && readlink -f -- {path}; z",
    "dir": "a dir; ls -1A -- {path} 2>/dev/null; z",
}


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def batch_script(token: str, requests: list[tuple[Op, str]]) -> str:
    lines = [_SCRIPT_HEAD.format(token=token)]
    lines += [_OPS[op].format(path=_quote(path)) for op, path in requests]
    return "\n".join(lines) + "\n"


def parse_batch(token: str, requests: list[tuple[Op, str]], output: str) -> Reads:
    """Split a batch script's output back into answers, in request order."""
    reads = Reads()
    answers: list[str | None] = []
    rest = output
    begin, end = f"{token} B ", f"\n{token} E "
    while begin in rest:
        _, _, rest = rest.partition(begin)
        _, _, rest = rest.partition("\n")
        body, _, rest = rest.partition(end)
        status, _, rest = rest.partition("\n")
        answers.append(body if status.strip() == "0" else None)
    if len(answers) != len(requests):
        raise CollectionFailure(f"expected {len(requests)} answers from the host, got {len(answers)}")
    for (op, path), answer in zip(requests, answers, strict=True):
        if op == "file":
            reads.files[path] = answer
        elif op == "link":
            reads.links[path] = answer.strip() if answer else None
        else:
            reads.dirs[path] = sorted(n for n in answer.splitlines() if n) if answer is not None else None
    return reads


class SshRunner:
    """A remote host through the system `ssh` client (keys or agent, never a prompt).

    One SSH connection per host, reused by every command: the first `ssh` becomes an OpenSSH
    ControlMaster on a socket in a private temporary folder, the others (and libvirt's own ssh, through
    `libvirt_ssh_command`) ride on it; `close()` ends it. With `HOSTLINT_SSH_PASSWORD` set, paramiko is
    used instead: one session, logged in with that password (paramiko comes with the `kvm` extra).

    Host keys: `host_keys` decides for both (ssh asks it through KnownHostsCommand, paramiko
    through its host-key hook), before anything is sent; ssh options cannot turn it off.
    Every command is bounded by `timeout` seconds, connecting included.
    """

    def __init__(
        self,
        destination: str,
        ssh_options: Sequence[str] = (),
        host_keys: HostKeyPolicy | None = None,
        timeout: float = KVM_TIMEOUT_S,
    ):
        self.destination = destination
        self.target = destination.rpartition("@")[2]
        self.ssh_options = list(ssh_options)
        self.host_keys = host_keys or HostKeyPolicy()
        self.timeout = timeout
        self._password = find_password(KVM_SSH)
        self._folder: str | None = None
        self._client: Any = None

    def _control(self) -> str:
        if self._folder is None:
            self._folder = tempfile.mkdtemp(prefix="hostlint-ssh-")  # mode 0700: the socket is ours alone
            # Removed by close(); also when a runner that was never closed is dropped, or at exit.
            weakref.finalize(self, shutil.rmtree, self._folder, True)
        return os.path.join(self._folder, "master")

    def ssh_argv(self) -> list[str]:
        """`ssh` with every option hostlint gives it (host keys first: OpenSSH keeps the first value)."""
        connect = max(1, round(self.timeout))
        return [
            "ssh",
            *openssh_hostkeys.ssh_options(self.host_keys),
            "-o",
            "BatchMode=yes",
            "-o",
            f"ConnectTimeout={connect}",
            "-o",
            "ControlMaster=auto",
            "-o",
            f"ControlPath={self._control()}",
            "-o",
            f"ControlPersist={connect + 30}",
            *self.ssh_options,
        ]

    def libvirt_ssh_command(self) -> str | None:
        """An executable for libvirt's qemu+ssh `command=` parameter: this runner's ssh (same host-key
        policy, same options, same connection). None with a password (libvirt's ssh cannot take it)."""
        if self._password is not None:
            return None
        wrapper = os.path.join(os.path.dirname(self._control()), "ssh")
        with open(wrapper, "w", encoding="utf-8") as script:
            script.write(f'#!/bin/sh\nexec {shlex.join(self.ssh_argv())} "$@"\n')
        os.chmod(wrapper, 0o700)
        return wrapper

    def _exec(self, command: str, stdin: str = "") -> tuple[int, str, str]:
        if self._password is not None:
            return self._exec_paramiko(command, stdin)
        argv = [*self.ssh_argv(), self.destination, command]
        try:
            done = subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=self.timeout, check=False)
        except FileNotFoundError as exc:
            raise CollectionFailure("no ssh client on this machine") from exc
        except subprocess.TimeoutExpired as exc:
            raise CollectionFailure(f"ssh: no answer within {self.timeout:g} s") from exc
        if done.returncode == 255:
            if refused := openssh_hostkeys.refusal(done.stderr):
                raise CollectionFailure(f"ssh: host key: {refused}")
            reason = (done.stderr.strip().splitlines() or ["connection failed"])[-1]
            raise CollectionFailure(reason if reason.startswith("ssh:") else f"ssh: {reason}")
        return done.returncode, done.stdout, done.stderr

    def _session(self) -> Any:
        """The one paramiko session of this host, logged in on first use."""
        if self._client is not None:
            return self._client
        try:
            import paramiko
        except ImportError as exc:
            raise CollectionFailure(
                f"{PASSWORD_ENV} is set but paramiko is not installed (pip install 'hostlint[kvm]')"
            ) from exc
        from hostlint.collect.paramiko_client import VerifyingClient

        user, _, host = self.destination.rpartition("@")
        # The -o options that mean something here; host keys are the policy's (checked before the password).
        options = {k.lower(): v for k, _, v in (o.partition("=") for o in self.ssh_options if "=" in o)}
        client = VerifyingClient(self.host_keys)
        try:
            client.connect(
                host,
                port=int(options.get("port", 22)),
                username=user or None,
                password=self._password,
                timeout=self.timeout,
                banner_timeout=self.timeout,
                auth_timeout=self.timeout,
                allow_agent=False,
                look_for_keys=False,
            )
        except (paramiko.SSHException, OSError) as exc:
            client.close()
            if client.refusal:
                raise CollectionFailure(f"ssh: host key: {client.refusal}") from None
            raise CollectionFailure(f"ssh: {exc}") from exc
        self._client = client
        return client

    def _exec_paramiko(self, command: str, stdin: str) -> tuple[int, str, str]:
        import paramiko

        client = self._session()
        try:
            channel_in, channel_out, channel_err = client.exec_command(command, timeout=self.timeout)
            channel_in.write(stdin)
            channel_in.channel.shutdown_write()
            out, err = channel_out.read().decode(), channel_err.read().decode()
            return channel_out.channel.recv_exit_status(), out, err
        except (paramiko.SSHException, OSError) as exc:
            raise CollectionFailure(f"ssh: {exc}") from exc

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._folder is not None:
            control = os.path.join(self._folder, "master")
            if os.path.exists(control):
                subprocess.run(
                    ["ssh", "-o", f"ControlPath={control}", "-O", "exit", self.destination],
                    capture_output=True,
                    timeout=self.timeout,
                    check=False,
                )
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    def gather(self, files: Sequence[str] = (), links: Sequence[str] = (), dirs: Sequence[str] = ()) -> Reads:
        requests: list[tuple[Op, str]] = [("file", p) for p in files]
        requests += [("link", p) for p in links]
        requests += [("dir", p) for p in dirs]
        if not requests:
            return Reads()
        token = f"@@hostlint-{secrets.token_hex(8)}"
        _, out, _ = self._exec("sh -s", batch_script(token, requests))
        return parse_batch(token, requests, out)

    def run(self, argv: list[str]) -> str | None:
        done = self.call(argv)
        return done.stdout if done.ok else None

    def call(self, argv: list[str]) -> Done:
        status, out, err = self._exec(" ".join(_quote(a) for a in argv))
        return Done(status, out, err)
