#!/bin/sh
# hostlint fix script for kvm01.lab.example (iproute2), generated from a snapshot: review it before use.
# hostlint runs nothing. These steps are part of one plan across devices: run ONE step at a time,
# in PLAN.md order, and check its verify result before the next step. Steps here: 2 3.
# Usage, as root on the KVM host: sh kvm01.lab.example.iproute2.sh STEP
# RUNTIME ONLY: a reboot or a NetworkManager/ifupdown reload undoes these changes. Use this
# script where NetworkManager does not manage the interfaces, or the nmcli script; not both.
#
set -eu

step_2() {
    # Step 2 of 3 [DISRUPTIVE] bond-mode (stage host)
    # LG102 kvm01.lab.example/bond0: runs bond mode balance-xor but its switch ports are not one static port-channel
    # what: bond0: mode balance-xor -> 802.3ad
    # REVIEW: bond0 is rebuilt: br0 and everything on it loses the network for a few seconds; run this from the console or a session that does not ride on bond0
    ip link set dev bond0 down
    ip link set dev eno1 nomaster
    ip link set dev eno2 nomaster
    ip link set dev bond0 type bond mode 802.3ad miimon 100 xmit_hash_policy layer2+3
    ip link set dev eno1 down
    ip link set dev eno1 master bond0
    ip link set dev eno2 down
    ip link set dev eno2 master bond0
    ip link set dev bond0 up
    # verify:
    #   ip -d link show dev bond0
    #   cat /proc/net/bonding/bond0
    # expect:
    #   bond mode 802.3ad
    #   Bonding Mode: IEEE 802.3ad Dynamic link aggregation
    #   Partner Mac Address: the switch's (not 00:00:00:00:00:00); eno1, eno2 in the active Aggregator ID
}

step_3() {
    # Step 3 of 3 [DISRUPTIVE] host-path-mtu (stage host)
    # MT101 kvm01.lab.example/db01/52:54:00:1a:00:01: of db01 has a larger MTU than its host path (br0 1500, bond0 1500, eno1 1500, eno2 1500)
    # what: db01's path eno1, eno2, bond0, br0: MTU 1500 -> 9000
    # REVIEW: the switch ports under br0 carry 9196 (eno1 -> leaf1 Ethernet1 9196, eno2 -> leaf1 Ethernet2 9196): raised bottom up, so no hop is ever larger than the one below it; many NIC drivers reset the link on an MTU change: one NIC at a time, the bond's other members forward meanwhile
    # REVIEW: db01's interface is already defined at 9000: it uses it from the domain's next start (libvirt then creates its tap at 9000); other guests on br0 keep their MTU
    # REVIEW: a Linux bridge's MTU follows its smallest port unless set by hand: br0 is set to 9000 last, so it stays there when a guest's smaller tap joins
    ip link set dev eno1 mtu 9000
    ip link set dev eno2 mtu 9000
    ip link set dev bond0 mtu 9000
    ip link set dev br0 mtu 9000
    # verify:
    #   for dev in eno1 eno2 bond0 br0; do echo "$dev mtu $(cat "/sys/class/net/$dev/mtu")"; done
    # expect:
    #   eno1 mtu 9000
    #   eno2 mtu 9000
    #   bond0 mtu 9000
    #   br0 mtu 9000
}

case "${1:-}" in
    2) step_2 ;;
    3) step_3 ;;
    *) echo "usage: sh kvm01.lab.example.iproute2.sh STEP (steps here: 2 3; order: PLAN.md)" >&2; exit 2 ;;
esac
