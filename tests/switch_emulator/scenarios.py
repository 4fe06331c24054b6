"""Scenarios: a platform's captured samples (hostlint/switches/<platform>/*.txt), edited for one situation.

Every sample set describes the same cabling toward host esx01's IP-hash
vSwitch1 (vmnic2 and vmnic3): the `static` scenario is the correct switch
side; the others change only what they are named for.
"""

from __future__ import annotations

from hostlint.collect.switches.platforms import load_platform

# (platform, scenario) -> command -> [(old, new)] text replacements on the sample output.
Edits = dict[str, list[tuple[str, str]]]

_IOS: dict[str, Edits] = {
    "static": {},
    "lacp": {
        "show running-config": [(" channel-group 10 mode on", " channel-group 10 mode active")],
        "show etherchannel summary": [("10     Po10(SU)         -   ", "10     Po10(SU)        LACP ")],
    },
    "wrong-hash": {
        "show etherchannel load-balance": [
            ("        src-dst-ip", "        src-mac"),
            ("  IPv4: Source XOR Destination IP address", "  IPv4: Source MAC address"),
        ],
    },
    "no-channel": {
        "show running-config": [(" channel-group 10 mode on\n", "")],
        "show etherchannel summary": [
            ("10     Po10(SU)         -        Gi1/0/3(P)  Gi1/0/4(P)  \n", ""),
            ("in use: 4", "in use: 3"),
        ],
        "show interfaces": [("Members in this channel: Gi1/0/3 Gi1/0/4 ", "No members in this channel")],
    },
    "non-jumbo": {
        "show interfaces": [("MTU 9198 bytes", "MTU 1500 bytes")],
        "show running-config": [("system mtu 9198\n", "")],
    },
    "forced-speed": {
        "show running-config": [
            (" channel-group 10 mode on\n", " speed 1000\n duplex full\n channel-group 10 mode on\n")
        ],
    },
}

_NXOS: dict[str, Edits] = {
    "static": {},
    "lacp": {
        "show running-config": [("  channel-group 11 mode on", "  channel-group 11 mode active")],
        "show port-channel summary": [("Po11(SU)    Eth      NONE", "Po11(SU)    Eth      LACP")],
    },
    "wrong-hash": {
        "show running-config": [("port-channel load-balance src-dst ip\n", "port-channel load-balance src-dst mac\n")],
        "show port-channel load-balance": [("IP: src-dst ip rotate 0", "IP: src-dst mac rotate 0")],
    },
    "no-channel": {
        "show running-config": [("  channel-group 11 mode on\n", "")],
        "show port-channel summary": [("11    Po11(SU)    Eth      NONE      Eth1/11(P)   \n", "")],
        "show interface": [("  Belongs to Po11\n", ""), ("  Members in this channel: Eth1/11\n", "")],
    },
    "non-jumbo": {
        "show running-config": [("  mtu 9216\n", "")],
        "show interface": [("MTU 9216 bytes", "MTU 1500 bytes")],
    },
    "forced-speed": {
        "show running-config": [
            (
                "  mtu 9216\n  channel-group 11 mode on",
                "  mtu 9216\n  speed 10000\n  duplex full\n  channel-group 11 mode on",
            )
        ],
    },
    "peer-link-down": {
        "show vpc brief": [
            ("peer adjacency formed ok", "peer link is down       "),
            ("1     Po1    up     1,10,20,100-110", "1     Po1    down   -              "),
        ],
    },
}

_EOS: dict[str, Edits] = {
    "static": {},
    "lacp": {
        "show running-config": [("   channel-group 11 mode on", "   channel-group 11 mode active")],
        "show port-channel summary": [
            ("Po11(U)            Static      Et11(P)", "Po11(U)            LACP(a)     Et11(PG+)")
        ],
    },
    "wrong-hash": {
        "show running-config": [
            ("fields ip source-ip destination-ip source-port destination-port", "fields ip mac-header")
        ],
    },
    "no-channel": {
        "show running-config": [("   channel-group 11 mode on\n", "")],
        "show port-channel summary": [
            ("   Po11(U)            Static      Et11(P)\n", "   Po11(D)            Static\n")
        ],
        "show interfaces": [("  Member of Port-Channel11\n", "")],
    },
    # EOS bridges up to its `l2 mtu` (the platform maximum unless set); `mtu` is the IP MTU of routed
    # traffic (EOS User Manual, Ethernet Ports): a leaf that does not carry jumbo frames has `l2 mtu 1500`.
    "non-jumbo": {
        "show running-config": [("   mtu 9214\n", "   l2 mtu 1500\n")],
        "show interfaces": [("Ethernet MTU 9214 bytes", "Ethernet MTU 1500 bytes")],
    },
    "forced-speed": {
        "show running-config": [
            ("   description esx01 vmnic2\n", "   description esx01 vmnic2\n   speed forced 10000full\n")
        ],
    },
    "peer-link-down": {
        "show mlag": [
            (
                "peer-link status                   :                  Up",
                "peer-link status                   :                Down",
            )
        ],
    },
}

_JUNOS: dict[str, Edits] = {
    "static": {},
    "lacp": {
        "show configuration | display set": [
            (
                "set interfaces ae0 mtu 9216\n",
                "set interfaces ae0 mtu 9216\nset interfaces ae0 aggregated-ether-options lacp active\n",
            )
        ],
    },
    "wrong-hash": {
        "show configuration | display set": [
            (
                "set protocols lldp interface all\n",
                "set forwarding-options enhanced-hash-key family inet no-ipv4-source-address\n"
                "set protocols lldp interface all\n",
            )
        ],
    },
    "no-channel": {
        "show configuration | display set": [
            ("set interfaces xe-0/0/2 ether-options 802.3ad ae0\n", ""),
            ("set interfaces xe-0/0/3 ether-options 802.3ad ae0\n", ""),
        ],
    },
    "non-jumbo": {
        "show configuration | display set": [("set interfaces ae0 mtu 9216\n", "")],
        "show interfaces extensive": [("MTU: 9216", "MTU: 1514")],
    },
    "forced-speed": {
        "show configuration | display set": [
            (
                "set interfaces xe-0/0/2 ether-options 802.3ad ae0\n",
                "set interfaces xe-0/0/2 speed 10g\nset interfaces xe-0/0/2 link-mode full-duplex\n"
                "set interfaces xe-0/0/2 ether-options 802.3ad ae0\n",
            )
        ],
    },
}

SCENARIOS: dict[str, dict[str, Edits]] = {
    "cisco_ios": _IOS,
    "cisco_nxos": _NXOS,
    "arista_eos": _EOS,
    "juniper_junos": _JUNOS,
}

# Platforms whose samples are one switch of a vPC/MLAG pair: the samples are the first
# switch's; the second's are the same with the two names (and management addresses) swapped.
PAIRS = {
    "cisco_nxos": (("nx1", "nx2"), ("192.0.2.31", "192.0.2.32")),
    "arista_eos": (("eos1", "eos2"), ("192.0.2.41", "192.0.2.42")),
}
# The switch (or first switch of a pair) each platform's samples describe.
NAMES = {"cisco_ios": "sw-ios1", "cisco_nxos": "nx1", "arista_eos": "eos1", "juniper_junos": "ex1"}


def _swap(text: str, pairs: tuple[tuple[str, str], ...]) -> str:
    for index, (first, second) in enumerate(pairs):
        text = text.replace(first, f"\0{index}\0").replace(second, first).replace(f"\0{index}\0", second)
    return text


def sample_outputs(platform: str) -> dict[str, str]:
    """Command -> the captured sample beside its template."""
    spec = load_platform(platform)
    return {c.command: (spec.folder / f"{c.slug}.txt").read_text(encoding="utf-8") for c in spec.commands}


def build(platform: str, scenario: str = "static", drop: tuple[str, ...] = (), second: bool = False) -> dict[str, str]:
    """The outputs of `scenario`; commands in `drop` are left out, so the switch rejects them.

    `second`: the other switch of a vPC/MLAG pair (NX-OS, EOS).
    """
    outputs = sample_outputs(platform)
    for command, edits in SCENARIOS[platform][scenario].items():
        for old, new in edits:
            if old not in outputs[command]:
                raise ValueError(f"{platform}/{scenario}: {command!r} sample has no {old!r}")
            outputs[command] = outputs[command].replace(old, new)
    if second:
        outputs = {command: _swap(text, PAIRS[platform]) for command, text in outputs.items()}
    return {command: text for command, text in outputs.items() if command not in drop}
