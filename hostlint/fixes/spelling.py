"""How each platform spells what hostlint names once: teaming policies, hashes, channels, MTUs.

These are the Jinja2 filters the action templates (hostlint/fixes/actions/*/action.yaml) use.
"""

from __future__ import annotations

import re

from hostlint import platforms as registry
from hostlint import switches
from hostlint.fixes.quoting import Quoted, Token, sh

# vSphere API policy -> `esxcli ... failover set -l` value, and what `failover get` prints back.
_ESXCLI_POLICY = {
    "loadbalance_srcid": ("portid", "srcport"),
    "loadbalance_srcmac": ("mac", "srcmac"),
    "loadbalance_ip": ("iphash", "iphash"),
    "failover_explicit": ("explicit", "explicit"),
}
_POWERCLI_POLICY = {
    "loadbalance_srcid": "LoadBalanceSrcId",
    "loadbalance_srcmac": "LoadBalanceSrcMac",
    "loadbalance_ip": "LoadBalanceIP",
    "failover_explicit": "ExplicitFailover",
    "loadbalance_loadbased": "LoadBalanceLoadBased",
}

_CHANNEL_MODE = {"static": "on", "lacp-active": "active", "lacp-passive": "passive", "pagp": "desirable"}


def esxcli_policy(policy: str) -> Token:
    return Token(_ESXCLI_POLICY[policy][0])


def esxcli_policy_shown(policy: str) -> Token:
    return Token(_ESXCLI_POLICY[policy][1])


def powercli_policy(policy: str) -> Token:
    return Token(_POWERCLI_POLICY[policy])


def hash_command(hash_name: str, platform: str) -> str | None:
    """The `port-channel load-balance` argument for a normalised hash, None when the platform has none: its
    folder's one table (hashes.py), read and written alike, where the platform writes the hash."""
    switch = registry.find_switch(platform)
    table = switches.hashes(platform) if switch is not None and switch.writes_hash else None
    return table.write(hash_name) if table is not None else None


def channel_number(name: str) -> int | None:
    match = re.search(r"(\d+)$", name)
    return int(match.group(1)) if match else None


def channel_interface(number: int, platform: str) -> Token:
    return Token(registry.switch(platform).channel_interface.format(int(number)))


def channel_mode(mode: str) -> Token:
    return Token(_CHANNEL_MODE[mode])


# The platform's largest interface MTU. IOS, NX-OS and EOS count the IP packet; Junos counts the
# Ethernet header too (media MTU): `l2_header` bytes between its value and an IP MTU.
def jumbo(platform: str) -> int:
    return registry.switch(platform).jumbo


def jumbo_ip_mtu(platform: str) -> int:
    """The largest IP packet the platform's jumbo setting passes."""
    switch = registry.switch(platform)
    return switch.jumbo - switch.l2_header


def config_mtu(ip_mtu: int, platform: str) -> int:
    """The interface `mtu` value that passes IP packets of `ip_mtu` bytes."""
    return ip_mtu + registry.switch(platform).l2_header


def short_interface(name: str, platform: str) -> str:
    """The abbreviation `show ... summary` prints (Gi1/0/1, Eth1/1 on NX-OS, Et1 on EOS): the platform
    folder's short forms (names.py); a name it has none for is printed whole."""
    grammar = switches.names(platform)
    return grammar.shorten(name) if grammar is not None else name


# Linux bond mode -> the `Bonding Mode:` line of /proc/net/bonding/<bond> (drivers/net/bonding/bond_procfs.c).
_BONDING_MODE_SHOWN = {
    "balance-rr": "load balancing (round-robin)",
    "active-backup": "fault-tolerance (active-backup)",
    "balance-xor": "load balancing (xor)",
    "broadcast": "fault-tolerance (broadcast)",
    "802.3ad": "IEEE 802.3ad Dynamic link aggregation",
    "balance-tlb": "transmit load balancing",
    "balance-alb": "adaptive load balancing",
}


def bonding_mode_shown(mode: str) -> str:
    return _BONDING_MODE_SHOWN[mode]


def bond_options(options: dict[str, object]) -> str:
    """NetworkManager's `bond.options` value: `mode=802.3ad,miimon=100,...`."""
    return ",".join(f"{key}={value}" for key, value in options.items())


def bond_args(options: dict[str, object]) -> Quoted:
    """The same options as `ip link set DEV type bond` arguments: `mode 802.3ad miimon 100 ...`, shell-quoted."""
    return Quoted(" ".join(f"{Token(key)} {sh(value)}" for key, value in options.items()), "sh")


FILTERS = {
    "esxcli_policy": esxcli_policy,
    "esxcli_policy_shown": esxcli_policy_shown,
    "powercli_policy": powercli_policy,
    "channel_interface": channel_interface,
    "channel_mode": channel_mode,
    "bonding_mode_shown": bonding_mode_shown,
    "bond_options": bond_options,
    "bond_args": bond_args,
    "config_mtu": config_mtu,
    "jumbo": jumbo,
    "short": short_interface,
}
