#!/bin/sh
# hostlint fix script for kvm01.lab.example (virsh), generated from a snapshot: review it before use.
# hostlint runs nothing. These steps are part of one plan across devices: run ONE step at a time,
# in PLAN.md order, and check its verify result before the next step. Steps here: 1.
# Usage, as root on the KVM host: sh kvm01.lab.example.virsh.sh STEP
# virsh and virt-xml connect to LIBVIRT_DEFAULT_URI (qemu:///system for root by default).
#
set -eu

step_1() {
    # Step 1 of 3 [not disruptive] guest-nic-mtu (stage host-undo)
    # MT101 kvm01.lab.example/db01/52:54:00:1a:00:01: of db01 has a larger MTU than its host path (br0 1500, bond0 1500, eno1 1500, eno2 1500)
    # what: db01 interface 52:54:00:1a:00:01: MTU 9000 -> 1500 (at next start)
    # REVIEW: libvirt applies the new MTU when db01 is next started (virsh shutdown, then virsh start; a reboot inside the guest keeps the old device): until then lower it inside the guest too (ip link set dev <its interface> mtu 1500, and in the guest's network configuration)
    virt-xml db01 --edit mac=52:54:00:1a:00:01 --network mtu.size=1500
    # verify:
    #   virsh dumpxml --inactive db01 | grep -E "<mac address='52:54:00:1a:00:01'|<mtu size="
    # expect:
    #   <mac address='52:54:00:1a:00:01'/> followed by <mtu size='1500'/>
}

case "${1:-}" in
    1) step_1 ;;
    *) echo "usage: sh kvm01.lab.example.virsh.sh STEP (steps here: 1; order: PLAN.md)" >&2; exit 2 ;;
esac
