"""Huawei VRP's registry entry: netmiko device type, names in other tools, configuration vocabulary.

One platform with two families (hostlint.switches.huawei_vrp.families), not two folders: VRP 5 and
VRP 8 print the same display output (this folder's templates read both, and the corpus score says so),
use the same names for channels, member states and hashes, and differ only in how a change is committed
and a few spellings, which the fix text reads from `family`. netmiko's `huawei` drives both for
collection (display commands, `screen-length 0 temporary`); `huawei_vrpv8` is the same class with
`commit` for VRP 8, listed as an alias so inventories that name it reach this folder.

Configuration vocabulary: `system-view` enters, `return` leaves (S300, S500, S2700, S5700 and S6700
Series Command Reference, "system-view", "return"); `#` starts a comment line in a configuration script.
VRP 8's `commit` is written by the fix text (families.VRP8.commit), since VRP 5 has none.
"""

from __future__ import annotations

from hostlint.switches.base import SwitchPlatform
from hostlint.targets import Vocabulary

from .mtu import MTU
from .names import CHANNEL_INTERFACE

PLATFORM = SwitchPlatform(
    name="huawei_vrp",
    label="VRP",
    aliases=("huawei", "huawei_vrpv8", "huawei_vrp8", "ce", "community.network.ce"),
    # Its own script grammar (names.py `SCRIPT`): CloudEngine ports and S-series 25GE and faster ports
    # begin with digits (`25GE1/0/1`, `10GE1/0/1`), which the shared Cisco-like grammar refuses.
    interface_names="folder",
    vocabulary=Vocabulary(comment="#", enter=("system-view",), leave=("return",)),
    channel_interface=CHANNEL_INTERFACE,
    jumbo=MTU.jumbo,
    l2_header=MTU.l2_header,
    # This folder reads and writes the hash itself (hashes.py, assemble.py).
    writes_hash=False,
    unanswered_lacp_member="suspended",
    # An M-LAG channel needs `dfs-group 1 m-lag N` on both switches of the pair: fixes.yaml does not write it.
    multichassis_by_hand="M-LAG (dfs-group m-lag)",
    sources={
        "interfaces": "display interface",
        "channel_mode": "display current-configuration",
        "config": "display current-configuration",
        "member_state": "display eth-trunk",
        "peer_link": "display current-configuration",
    },
    mtu_families=MTU.families,
)
