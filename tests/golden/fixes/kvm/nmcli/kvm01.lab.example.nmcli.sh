#!/bin/sh
# hostlint fix script for kvm01.lab.example (nmcli), generated from a snapshot: review it before use.
# hostlint runs nothing. These steps are part of one plan across devices: run ONE step at a time,
# in PLAN.md order, and check its verify result before the next step. Steps here: 2 3.
# Usage, as root on the KVM host: sh kvm01.lab.example.nmcli.sh STEP
# NetworkManager keeps the change (it is in the connection profile).
#
set -eu

step_2() {
    # Step 2 of 3 [DISRUPTIVE] bond-mode (stage host)
    # LG102 kvm01.lab.example/bond0: runs bond mode balance-xor but its switch ports are not one static port-channel
    # what: bond0: mode balance-xor -> 802.3ad
    # REVIEW: bond0 is rebuilt: br0 and everything on it loses the network for a few seconds; run this from the console or a session that does not ride on bond0
    con=$(nmcli -g GENERAL.CONNECTION device show bond0)
    [ -n "$con" ] || { echo 'bond0 has no active NetworkManager connection: use the iproute2 script' >&2; exit 1; }
    nmcli connection modify "$con" bond.options mode=802.3ad,miimon=100,xmit_hash_policy=layer2+3
    nmcli connection up "$con"
    # verify:
    #   nmcli -g bond.options connection show "$(nmcli -g GENERAL.CONNECTION device show bond0)"
    #   cat /proc/net/bonding/bond0
    # expect:
    #   mode=802.3ad,miimon=100,xmit_hash_policy=layer2+3
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
    [ -n "$(nmcli -g GENERAL.CONNECTION device show eno1)" ] || { echo 'eno1 has no active NetworkManager connection: use the iproute2 script' >&2; exit 1; }
    [ -n "$(nmcli -g GENERAL.CONNECTION device show eno2)" ] || { echo 'eno2 has no active NetworkManager connection: use the iproute2 script' >&2; exit 1; }
    [ -n "$(nmcli -g GENERAL.CONNECTION device show bond0)" ] || { echo 'bond0 has no active NetworkManager connection: use the iproute2 script' >&2; exit 1; }
    [ -n "$(nmcli -g GENERAL.CONNECTION device show br0)" ] || { echo 'br0 has no active NetworkManager connection: use the iproute2 script' >&2; exit 1; }
    nmcli connection modify "$(nmcli -g GENERAL.CONNECTION device show eno1)" 802-3-ethernet.mtu 9000
    nmcli device reapply eno1
    nmcli connection modify "$(nmcli -g GENERAL.CONNECTION device show eno2)" 802-3-ethernet.mtu 9000
    nmcli device reapply eno2
    nmcli connection modify "$(nmcli -g GENERAL.CONNECTION device show bond0)" 802-3-ethernet.mtu 9000
    nmcli device reapply bond0
    nmcli connection modify "$(nmcli -g GENERAL.CONNECTION device show br0)" 802-3-ethernet.mtu 9000
    nmcli device reapply br0
    # verify:
    #   for dev in eno1 eno2 bond0 br0; do echo "$dev mtu $(nmcli -g GENERAL.MTU device show "$dev")"; done
    # expect:
    #   eno1 mtu 9000
    #   eno2 mtu 9000
    #   bond0 mtu 9000
    #   br0 mtu 9000
}

case "${1:-}" in
    2) step_2 ;;
    3) step_3 ;;
    *) echo "usage: sh kvm01.lab.example.nmcli.sh STEP (steps here: 2 3; order: PLAN.md)" >&2; exit 2 ;;
esac
