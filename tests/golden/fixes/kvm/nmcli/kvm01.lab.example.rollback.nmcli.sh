#!/bin/sh
# hostlint ROLLBACK script for kvm01.lab.example (nmcli), generated from a snapshot: review it before use.
# hostlint runs nothing. These steps are part of one plan across devices: run ONE step at a time,
# in the reverse of the plan order (PLAN.md, Rollback), and check its verify result before the next step. Steps here: 3.
# Usage, as root on the KVM host: sh kvm01.lab.example.rollback.nmcli.sh STEP
# NetworkManager keeps the change (it is in the connection profile).
#
set -eu

step_3() {
    # Undo step 3 of 3 [DISRUPTIVE] bond-mode (stage host)
    # LG102 kvm01.lab.example/bond0: runs bond mode balance-xor but its switch ports are not one static port-channel
    # what: bond0: mode balance-xor -> 802.3ad
    # REVIEW: bond0 is rebuilt: br0 and everything on it loses the network for a few seconds; run this from the console or a session that does not ride on bond0
    con=$(nmcli -g GENERAL.CONNECTION device show bond0)
    [ -n "$con" ] || { echo 'bond0 has no active NetworkManager connection: use the iproute2 script' >&2; exit 1; }
    nmcli connection modify "$con" bond.options mode=balance-xor,miimon=100,xmit_hash_policy=layer2+3
    nmcli connection up "$con"
    # verify:
    #   nmcli -g bond.options connection show "$(nmcli -g GENERAL.CONNECTION device show bond0)"
    #   cat /proc/net/bonding/bond0
    # expect:
    #   mode=balance-xor,miimon=100,xmit_hash_policy=layer2+3
    #   Bonding Mode: load balancing (xor)
}

case "${1:-}" in
    3) step_3 ;;
    *) echo "usage: sh kvm01.lab.example.rollback.nmcli.sh STEP (steps here: 3; order: PLAN.md)" >&2; exit 2 ;;
esac
