#!/bin/sh
# hostlint fix script for kvm01.lab.example (nmcli), generated from a snapshot: review it before use.
# hostlint runs nothing. These steps are part of one plan across devices: run ONE step at a time,
# in PLAN.md order, and check its verify result before the next step. Steps here: 3.
# Usage, as root on the KVM host: sh kvm01.lab.example.nmcli.sh STEP
# NetworkManager keeps the change (it is in the connection profile).
#
set -eu

step_3() {
    # Step 3 of 3 [DISRUPTIVE] bond-mode (stage host)
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

case "${1:-}" in
    3) step_3 ;;
    *) echo "usage: sh kvm01.lab.example.nmcli.sh STEP (steps here: 3; order: PLAN.md)" >&2; exit 2 ;;
esac
