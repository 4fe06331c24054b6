"""One credential resolver for every collector: environment, keyring, prompt; never argv, never a log.

The keyring is the real `keyring` package with an in-memory backend set through its own API.
"""

from __future__ import annotations

from collections.abc import Iterator

import keyring
import pytest
from keyring.backend import KeyringBackend

from hostlint.collect import credentials
from hostlint.collect.credentials import (
    ESXI_SSH,
    KVM_SSH,
    SWITCH,
    VSPHERE,
    MissingCredential,
    find_password,
    vsphere_password,
)
from hostlint.collect.kvm.runner import SshRunner
from hostlint.collect.vsphere.esxi_ssh import SshSettings


class MemoryKeyring(KeyringBackend):
    priority = 1

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}
        self.asked: list[tuple[str, str]] = []

    def get_password(self, service: str, username: str) -> str | None:
        self.asked.append((service, username))
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.entries.pop((service, username), None)


@pytest.fixture
def memory(monkeypatch: pytest.MonkeyPatch) -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    for secret in (VSPHERE, SWITCH, ESXI_SSH, KVM_SSH):
        monkeypatch.delenv(secret.env, raising=False)
    monkeypatch.delenv("SW1_PASSWORD", raising=False)
    yield backend
    keyring.set_keyring(previous)


def test_a_devices_own_variable_then_the_kinds_then_the_keyring(
    memory: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    keyring.set_password("hostlint", "admin", "by-user")
    assert find_password(SWITCH, variable="SW1_PASSWORD", keys=("sw1", "admin")) == "by-user"
    assert memory.asked == [("hostlint", "sw1"), ("hostlint", "admin")]
    keyring.set_password("hostlint", "sw1", "by-device")
    assert find_password(SWITCH, variable="SW1_PASSWORD", keys=("sw1", "admin")) == "by-device"
    monkeypatch.setenv(SWITCH.env, "site-wide")
    assert find_password(SWITCH, variable="SW1_PASSWORD", keys=("sw1",)) == "site-wide"
    monkeypatch.setenv("SW1_PASSWORD", "own")
    assert find_password(SWITCH, variable="SW1_PASSWORD", keys=("sw1",)) == "own"


def test_an_empty_variable_is_unset(memory: MemoryKeyring, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SWITCH.env, "")
    keyring.set_password("hostlint", "sw1", "stored")
    assert find_password(SWITCH, keys=("sw1",)) == "stored"


def test_ssh_logins_never_ask_the_keyring(memory: MemoryKeyring, monkeypatch: pytest.MonkeyPatch) -> None:
    keyring.set_password("hostlint", "root", "not-for-ssh")
    assert SshSettings.from_environment("root").password is None
    assert SshRunner("root@kvm01")._password is None
    assert memory.asked == []
    monkeypatch.setenv(ESXI_SSH.env, "esxi-secret")
    monkeypatch.setenv(KVM_SSH.env, "kvm-secret")
    assert SshSettings.from_environment("root").password == "esxi-secret"
    assert SshRunner("root@kvm01")._password == "kvm-secret"


def test_vsphere_keyring_then_prompt_then_a_message(memory: MemoryKeyring) -> None:
    asked: list[str] = []

    def prompt(text: str) -> str:
        asked.append(text)
        return "typed"

    assert vsphere_password("vc1", "admin", prompt) == "typed"
    assert asked == ["Password for admin on vc1"]
    with pytest.raises(MissingCredential) as missing:
        vsphere_password("vc1", "admin")
    assert str(missing.value) == (
        "no password for admin on vc1: set HOSTLINT_VSPHERE_PASSWORD, store it in the keyring "
        "(service hostlint-vsphere/vc1), or run on a terminal to be asked"
    )
    keyring.set_password("hostlint-vsphere/vc1", "admin", "stored")
    assert vsphere_password("vc1", "admin", prompt) == "stored"
    assert asked == ["Password for admin on vc1"]


def test_a_failing_backend_is_no_password(memory: MemoryKeyring, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(service: str, username: str) -> str | None:
        raise RuntimeError("locked")

    monkeypatch.setattr(memory, "get_password", broken)
    assert credentials.keyring_password("hostlint", "sw1") is None
