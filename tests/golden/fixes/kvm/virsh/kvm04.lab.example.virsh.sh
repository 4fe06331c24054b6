#!/bin/sh
# hostlint fix script for kvm04.lab.example (virsh), generated from a snapshot: review it before use.
# hostlint runs nothing. These steps are part of one plan across devices: run ONE step at a time,
# in PLAN.md order, and check its verify result before the next step. Steps here: 1.
# Usage, as root on the KVM host: sh kvm04.lab.example.virsh.sh STEP
# virsh and virt-xml connect to LIBVIRT_DEFAULT_URI (qemu:///system for root by default).
#
set -eu

step_1() {
    # Step 1 of 2 [not disruptive] guest-nic-mtu (stage host-undo)
    # MT101 kvm04.lab.example/app02/52:54:00:4c:00:02: of app02 has a larger MTU than its host path (br-app 1500, eno2 1500)
    # what: app02 interface 52:54:00:4c:00:02: MTU 9000 -> 1500 (at next start)
    # REVIEW: libvirt applies the new MTU when app02 is next started (virsh shutdown, then virsh start; a reboot inside the guest keeps the old device): until then lower it inside the guest too (ip link set dev <its interface> mtu 1500, and in the guest's network configuration)
    virt-xml app02 --edit mac=52:54:00:4c:00:02 --network mtu.size=1500
    # verify:
    #   virsh dumpxml --inactive app02 | grep -E "<mac address='52:54:00:4c:00:02'|<mtu size="
    # expect:
    #   <mac address='52:54:00:4c:00:02'/> followed by <mtu size='1500'/>
}

case "${1:-}" in
    1) step_1 ;;
    *) echo "usage: sh kvm04.lab.example.virsh.sh STEP (steps here: 1; order: PLAN.md)" >&2; exit 2 ;;
esac
