"""Switch inventories (Nornir simple, Ansible YAML) and where passwords come from."""

from __future__ import annotations

import logging
import sys
import types

import pytest

from hostlint.collect.switches import Device, InventoryError, load_inventory
from hostlint.collect.switches.inventory import PASSWORD_ENV, password_for


def _write(folder, name, text):
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_nornir_hosts_groups_and_defaults(tmp_path):
    hosts = _write(
        tmp_path,
        "hosts.yaml",
        """
sw-ios1:
  hostname: 192.0.2.21
  groups: [campus]
nx1:
  hostname: 192.0.2.31
  port: 2222
  platform: cisco_nxos
  username: nxadmin
  groups: [dc]
  data:
    password_env: NX1_PASSWORD
""",
    )
    _write(
        tmp_path,
        "groups.yaml",
        """
campus:
  platform: cisco_ios
  groups: [global]
dc:
  data:
    site: dc1
global:
  username: campus-admin
  data:
    password_env: CAMPUS_PASSWORD
""",
    )
    _write(tmp_path, "defaults.yaml", "username: netadmin\nport: 22\n")
    devices = {d.name: d for d in load_inventory(hosts)}
    assert devices["sw-ios1"] == Device(
        name="sw-ios1",
        hostname="192.0.2.21",
        platform="cisco_ios",
        username="campus-admin",
        port=22,
        password_env="CAMPUS_PASSWORD",
    )
    assert devices["nx1"] == Device(
        name="nx1",
        hostname="192.0.2.31",
        platform="cisco_nxos",
        username="nxadmin",
        port=2222,
        password_env="NX1_PASSWORD",
    )


def test_ansible_inventory_vars_precedence(tmp_path):
    inventory = _write(
        tmp_path,
        "inventory.yaml",
        """
all:
  vars:
    ansible_user: netadmin
  children:
    nxos:
      vars:
        ansible_network_os: cisco.nxos.nxos
      hosts:
        nx1:
          ansible_host: 192.0.2.31
        nx2:
          ansible_host: 192.0.2.32
          ansible_user: other
          hostlint_password_env: NX2_PASSWORD
    junos:
      vars:
        ansible_network_os: junipernetworks.junos.junos
        ansible_port: 830
      hosts:
        ex1:
""",
    )
    devices = {d.name: d for d in load_inventory(inventory)}
    assert devices["nx1"] == Device(name="nx1", hostname="192.0.2.31", platform="cisco_nxos", username="netadmin")
    assert devices["nx2"].username == "other" and devices["nx2"].password_env == "NX2_PASSWORD"
    assert devices["ex1"] == Device(name="ex1", hostname="ex1", platform="juniper_junos", username="netadmin", port=830)


def test_unsupported_or_missing_platform_is_that_device_s_problem_not_the_inventory_s(tmp_path, caplog):
    hosts = _write(
        tmp_path,
        "hosts.yaml",
        "sw9:\n  hostname: 192.0.2.9\n  platform: hp_procurve\nsw8:\n  hostname: 192.0.2.8\n"
        "sw1:\n  hostname: 192.0.2.1\n  platform: eos\n",
    )
    devices = {d.name: d for d in load_inventory(hosts)}
    assert devices["sw9"].problem.startswith("platform 'hp_procurve' is not supported; supported: cisco_ios")
    assert devices["sw8"].problem.startswith("no platform in the inventory")
    assert devices["sw1"].problem is None and devices["sw1"].platform == "arista_eos"
    assert "hosts.yaml: sw9: platform 'hp_procurve' is not supported" in caplog.text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("sw1:\n  platform: eos\n  port: ssh\n", "port 'ssh' is not a number"),
        ("sw1:\n  platform: eos\n  groups: [missing]\n", "group 'missing' is not in groups.yaml"),
        ("- just\n- a list\n", "an inventory is a mapping"),
        ("sw1: [\n", "not valid YAML"),
    ],
)
def test_inventory_errors(tmp_path, text, message):
    with pytest.raises(InventoryError, match=message):
        load_inventory(_write(tmp_path, "hosts.yaml", text))


def test_password_in_inventory_is_ignored_and_not_logged(tmp_path, caplog):
    hosts = _write(tmp_path, "hosts.yaml", "sw1:\n  platform: eos\n  password: hunter2\n")
    with caplog.at_level(logging.WARNING):
        (device,) = load_inventory(hosts)
    assert "ignored" in caplog.text and "hunter2" not in caplog.text
    assert "hunter2" not in repr(device)


def test_password_sources_in_order(monkeypatch):
    monkeypatch.setitem(sys.modules, "keyring", None)  # keyring not installed
    device = Device(name="sw1", hostname="192.0.2.1", platform="arista_eos", password_env="SW1_PASSWORD")
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    monkeypatch.delenv("SW1_PASSWORD", raising=False)
    assert password_for(device) is None
    monkeypatch.setenv(PASSWORD_ENV, "site-wide")
    assert password_for(device) == "site-wide"
    monkeypatch.setenv("SW1_PASSWORD", "own")
    assert password_for(device) == "own"


def test_password_from_keyring(monkeypatch):
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    stored = {("hostlint", "sw1"): "from-keyring"}
    fake = types.SimpleNamespace(get_password=lambda service, user: stored.get((service, user)))
    monkeypatch.setitem(sys.modules, "keyring", fake)
    assert password_for(Device(name="sw1", hostname="192.0.2.1", platform="cisco_ios")) == "from-keyring"
    assert password_for(Device(name="sw2", hostname="192.0.2.2", platform="cisco_ios")) is None


def test_ansible_ini_inventory(tmp_path):
    inventory = _write(
        tmp_path,
        "hosts",
        """
# before any section: the ungrouped group
sw-core1 ansible_host=192.0.2.1 ansible_network_os=eos
[campus]
sw-acc[01:03] ansible_port=2222
sw-dist1:2200 ansible_user="dist admin"   # a comment
[campus:vars]
ansible_network_os=cisco.ios.ios
ansible_user=netadmin
[switches:children]
campus
[all:vars]
ansible_user=default
hostlint_password_env=SITE_PASSWORD
""",
    )
    devices = {d.name: d for d in load_inventory(inventory)}
    assert list(devices) == ["sw-core1", "sw-acc01", "sw-acc02", "sw-acc03", "sw-dist1"]
    assert devices["sw-core1"] == Device(
        name="sw-core1", hostname="192.0.2.1", platform="arista_eos", username="default", password_env="SITE_PASSWORD"
    )
    assert devices["sw-acc02"] == Device(
        name="sw-acc02",
        hostname="sw-acc02",
        platform="cisco_ios",
        username="netadmin",
        port=2222,
        password_env="SITE_PASSWORD",
    )
    assert (devices["sw-dist1"].port, devices["sw-dist1"].username) == (2200, "dist admin")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[a:children]\nb\n[b:children]\na\n[b]\nh1 ansible_network_os=eos\n", r"group cycle: a -> b -> a"),
        ("[a:vars]\nx=1\n", r"\[a:vars\] names group 'a', which has no \[a\] section"),
        ("[a:children]\nmissing\n", r"\[a:children\] names group 'missing'"),
        ("[a:host]\n", r"unknown type 'host'"),
        ("h1 ansible_network_os=eos novalue\n", r"line 1: expected key=value host variable, got 'novalue'"),
        ("h1 ansible_network_os=eos ansible_hots=192.0.2.1\n", r"h1: unknown key 'ansible_hots' \(did you mean"),
        ("sw[01:99999999] ansible_network_os=eos\n", r"more than 100,000 hosts"),
    ],
)
def test_ansible_ini_errors(tmp_path, text, message):
    with pytest.raises(InventoryError, match=message):
        load_inventory(_write(tmp_path, "hosts.ini", text))


def test_group_fan_out_is_resolved_once_per_group(tmp_path):
    """Each group lists the one below ten times, ten deep: 10**10 paths, resolved in moments."""
    hosts = _write(tmp_path, "hosts.yaml", "sw1:\n  platform: eos\n  groups: [g0]\n")
    groups = "".join(f"g{i}:\n  groups: [{', '.join([f'g{i + 1}'] * 10)}]\n" for i in range(10))
    _write(tmp_path, "groups.yaml", groups + "g10:\n  username: deepest\n")
    (device,) = load_inventory(hosts)
    assert device.username == "deepest"


@pytest.mark.parametrize(
    ("hosts", "groups", "message"),
    [
        ("sw1:\n  platform: eos\n  groups: [a]\n", "a:\n  groups: [b]\nb:\n  groups: [a]\n", "cycle: a -> b -> a"),
        (
            "sw1:\n  platform: eos\n  groups: [g0]\n",
            "".join(f"g{i}:\n  groups: [g{i + 1}]\n" for i in range(40)) + "g40: {}\n",
            "groups nested deeper than 32 levels",
        ),
        ("sw1:\n  platform: eos\n  hostnme: 192.0.2.1\n", "", r"hosts\.yaml: sw1: unknown key 'hostnme' \(did"),
        ("sw1:\n  platform: eos\n  groups: [a]\n", "a:\n  data: [1, 2]\n", r"groups\.yaml: group a: data must be"),
        ("sw1:\n  platform: eos\n  data: oops\n", "", "sw1: data must be a mapping, found str"),
        ("sw1:\n  platform: eos\n  groups: a\n", "", "sw1: groups must be a list"),
    ],
)
def test_nornir_group_errors(tmp_path, hosts, groups, message):
    if groups:
        _write(tmp_path, "groups.yaml", groups)
    with pytest.raises(InventoryError, match=message):
        load_inventory(_write(tmp_path, "hosts.yaml", hosts))


def test_ansible_yaml_cycle_and_unknown_group_key(tmp_path):
    cyclic = "all:\n  children:\n    a:\n      children:\n        b:\n    b:\n      children:\n        a:\n"
    with pytest.raises(InventoryError, match="group cycle: a -> b -> a"):
        load_inventory(_write(tmp_path, "cyclic.yaml", cyclic))
    typo = "all:\n  children:\n    dc:\n      host:\n        sw1:\n"
    with pytest.raises(InventoryError, match=r"group 'dc': unknown key 'host' \(did you mean 'hosts'\?\)"):
        load_inventory(_write(tmp_path, "typo.yaml", typo))
