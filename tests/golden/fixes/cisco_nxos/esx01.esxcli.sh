#!/bin/sh
# hostlint fix script for esx01 (esxcli), generated from a snapshot: review it before use.
# hostlint runs nothing. These steps are part of one plan across devices: run ONE step at a time,
# in PLAN.md order, and check its verify result before the next step. Steps here: 4 5 18 19 20 21 22 23.
# Usage, in the ESXi shell: sh esx01.esxcli.sh STEP
#
set -eu

step_4() {
    # Step 4 of 26 [not disruptive] host-teaming (stage host-undo)
    # LG001 esx01/vSwitch1: LG001 on esx01/vSwitch1
    # what: vSwitch1: load balancing loadbalance_ip -> loadbalance_srcid
    esxcli network vswitch standard policy failover set -v vSwitch1 -l portid
    # verify:
    #   esxcli network vswitch standard policy failover get -v vSwitch1
    # expect:
    #   Load Balancing: srcport
}

step_5() {
    # Step 5 of 26 [not disruptive] host-teaming (stage host-undo)
    # LG002 esx01/vSwitch3: LG002 on esx01/vSwitch3
    # what: vSwitch3: load balancing loadbalance_ip -> loadbalance_srcid
    esxcli network vswitch standard policy failover set -v vSwitch3 -l portid
    # verify:
    #   esxcli network vswitch standard policy failover get -v vSwitch3
    # expect:
    #   Load Balancing: srcport
}

step_18() {
    # Step 18 of 26 [not disruptive] host-teaming (stage host)
    # LG001 esx01/vSwitch1: LG001 on esx01/vSwitch1
    # what: vSwitch1: load balancing loadbalance_srcid -> loadbalance_ip
    esxcli network vswitch standard policy failover set -v vSwitch1 -l iphash
    # verify:
    #   esxcli network vswitch standard policy failover get -v vSwitch1
    # expect:
    #   Load Balancing: iphash
}

step_19() {
    # Step 19 of 26 [not disruptive] host-teaming (stage host)
    # LG002 esx01/vSwitch3: LG002 on esx01/vSwitch3
    # what: vSwitch3: load balancing loadbalance_srcid -> loadbalance_ip
    esxcli network vswitch standard policy failover set -v vSwitch3 -l iphash
    # verify:
    #   esxcli network vswitch standard policy failover get -v vSwitch3
    # expect:
    #   Load Balancing: iphash
}

step_20() {
    # Step 20 of 26 [not disruptive] host-active-uplinks (stage host)
    # LG005 esx01/vSwitch0: LG005 on esx01/vSwitch0
    # what: vSwitch0: active vmnic0, failure detection link; remove vmnic1 from vSwitch0
    # REVIEW: vSwitch0 is left with one uplink: removing vmnic1 loses failover
    esxcli network vswitch standard policy failover set -v vSwitch0 -a vmnic0 -f link
    esxcli network vswitch standard uplink remove -u vmnic1 -v vSwitch0
    # verify:
    #   esxcli network vswitch standard policy failover get -v vSwitch0
    #   esxcli network vswitch standard list -v vSwitch0
    # expect:
    #   Network Failure Detection: link
    #   Active Adapters: vmnic0
    #   Standby Adapters:
    #   Uplinks: without vmnic1
}

step_21() {
    # Step 21 of 26 [DISRUPTIVE] host-nic-autoneg (stage host)
    # LK001 esx01/vmnic0: LK001 on esx01/vmnic0
    # what: vmnic0: 1000 Mb/s full duplex (forced) -> auto-negotiate
    # REVIEW: vmnic0 bounces: make sure the host keeps management on another uplink
    esxcli network nic set -n vmnic0 -a
    # verify:
    #   esxcli network nic get -n vmnic0
    # expect:
    #   Auto Negotiation: true
    #   Link Status: Up
}

step_22() {
    # Step 22 of 26 [DISRUPTIVE] host-vswitch-mtu (stage host)
    # MT002 esx01/vSwitch1: MT002 on esx01/vSwitch1
    # what: vSwitch1: MTU 1500 -> 9000
    esxcli network vswitch standard set -v vSwitch1 -m 9000
    # verify:
    #   esxcli network vswitch standard list -v vSwitch1
    # expect:
    #   MTU: 9000
}

step_23() {
    # Step 23 of 26 [not disruptive] vmk-mtu (stage vmk)
    # MT003 esx01/vmk1: MT003 on esx01/vmk1
    # what: vmk1: MTU 1500 -> 9000
    # REVIEW: vSwitch1 has MTU 1500 in the snapshot: raise it before this step
    esxcli network ip interface set -i vmk1 -m 9000
    # verify:
    #   esxcli network ip interface list
    #   vmkping -S defaultTcpipStack -d -s 8972 -I vmk1 10.20.20.12
    # expect:
    #   vmk1 ... MTU: 9000
    #   vmkping: 0% packet loss
}

case "${1:-}" in
    4) step_4 ;;
    5) step_5 ;;
    18) step_18 ;;
    19) step_19 ;;
    20) step_20 ;;
    21) step_21 ;;
    22) step_22 ;;
    23) step_23 ;;
    *) echo "usage: sh esx01.esxcli.sh STEP (steps here: 4 5 18 19 20 21 22 23; order: PLAN.md)" >&2; exit 2 ;;
esac
