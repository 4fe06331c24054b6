"""HPE/H3C Comware: what hostlint knows of the platform as a fix target and collected switch
(hostlint.switches.base). netmiko's `hp_comware` driver (netmiko/hp/hp_comware.py: `system-view` /
`return`, `screen-length disable`) collects it and is the fix target's language."""

from __future__ import annotations

from hostlint.switches.base import SwitchPlatform
from hostlint.switches.hp_comware import mtu
from hostlint.targets import Vocabulary

PLATFORM = SwitchPlatform(
    name="hp_comware",
    label="Comware",
    # netmiko's other Comware device types (netmiko.ssh_dispatcher.CLASS_MAPPER) and the vendor's words.
    aliases=("hp_comware_ssh", "hp_comware_telnet", "h3c_comware", "h3c_comware_ssh", "hpe_comware", "comware"),
    # Fundamentals Command Reference, "system-view" and "return"; "#" starts no command, the
    # configuration itself separates blocks with it.
    vocabulary=Vocabulary(comment="#", enter=("system-view",), leave=("return",)),
    # Its own script grammar (names.py `SCRIPT`): every Ethernet port and aggregate name of the corpus's
    # Comware captures passes it (tests/test_hp_comware_platform.py); the shared one also takes names no
    # Comware switch has.
    interface_names="folder",
    channel_interface="Bridge-Aggregation{}",
    jumbo=mtu.JUMBO,
    l2_header=mtu.HEADER,
    writes_hash=True,
    unanswered_lacp_member="suspended",
    # `jumboframe enable` is a port's: set on the members and the aggregate alike.
    mtu_on_members=True,
    # Members take the aggregate's VLAN and frame settings and must match them to be Selected.
    members_match_channel=True,
    multichassis_by_hand="IRF",
    sources={
        "interfaces": "display interface",
        "channel_mode": "display current-configuration",
        "config": "display current-configuration",
        "member_state": "display link-aggregation verbose",
        "peer_link": "display current-configuration",
    },
    mtu_families=mtu.MTU.families,
)
