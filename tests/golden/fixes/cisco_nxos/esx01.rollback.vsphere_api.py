#!/usr/bin/env python3
"""hostlint ROLLBACK script for the host named in HOST (vSphere API, pyvmomi), generated from a snapshot: review it before use.

hostlint runs nothing. These steps are part of one plan across devices: run ONE step at a time,
in the reverse of the plan order (PLAN.md, Rollback), and check its verify result before the next step. Steps here: 23, 22, 21, 20, 19, 18, 5, 4.
Usage: HOSTLINT_VSPHERE_PASSWORD=... python3 esx01.rollback.vsphere_api.py --server VCENTER --user USER STEP
The user may come from HOSTLINT_VSPHERE_USER instead. TLS is verified against the system CAs or
--ca-bundle FILE; --insecure skips verification (a lab only).
"""

import argparse
import getpass
import os
import ssl
import sys
import urllib.parse

from pyVim.connect import Disconnect, SmartConnect
from pyVmomi import vim


def _find(items, name, what):
    for item in items:
        if getattr(item, "name", None) == name or getattr(item, "device", None) == name:
            return item
    sys.exit(f"{what} {name} not found on {HOST}")


def vswitch(ns, name):
    return _find(ns.networkInfo.vswitch, name, "vSwitch")


def portgroup(ns, name):
    for pg in ns.networkInfo.portgroup:
        if pg.spec.name == name:
            return pg
    sys.exit(f"port group {name} not found on {HOST}")


def vmk(ns, name):
    return _find(ns.networkInfo.vnic, name, "VMkernel port")


def pnic(ns, name):
    return _find(ns.networkInfo.pnic, name, "physical NIC")


def _host(si):
    view = si.content.viewManager.CreateContainerView(si.content.rootFolder, [vim.HostSystem], True)
    try:
        return _find(view.view, HOST, "host")
    finally:
        view.Destroy()

HOST = 'esx01'


def change_23(ns):
    # Undo step 23 of 26 [not disruptive] vmk-mtu (stage vmk)
    # MT003 esx01/vmk1: MT003 on esx01/vmk1
    # REVIEW: vSwitch1 has MTU 1500 in the snapshot: raise it before this step
    spec = vmk(ns, 'vmk1').spec
    spec.mtu = 1500
    ns.UpdateVirtualNic(device='vmk1', nic=spec)


def verify_23(ns):
    # expect: mtu: 1500
    print("mtu:", vmk(ns, 'vmk1').spec.mtu)


def change_22(ns):
    # Undo step 22 of 26 [DISRUPTIVE] host-vswitch-mtu (stage host)
    # MT002 esx01/vSwitch1: MT002 on esx01/vSwitch1
    spec = vswitch(ns, 'vSwitch1').spec
    spec.mtu = 1500
    ns.UpdateVirtualSwitch(vswitchName='vSwitch1', spec=spec)


def verify_22(ns):
    # expect: mtu: 1500
    print("mtu:", vswitch(ns, 'vSwitch1').mtu)


def change_21(ns):
    # Undo step 21 of 26 [DISRUPTIVE] host-nic-autoneg (stage host)
    # LK001 esx01/vmnic0: LK001 on esx01/vmnic0
    # REVIEW: vmnic0 bounces: make sure the host keeps management on another uplink
    ns.UpdatePhysicalNicLinkSpeed(
        device='vmnic0',
        linkSpeed=vim.host.PhysicalNic.LinkSpeedDuplex(speedMb=1000, duplex=True),
    )


def verify_21(ns):
    # expect: configured: (1000, True) actual: (1000, True)
    nic = pnic(ns, 'vmnic0')
    configured, actual = nic.spec.linkSpeed, nic.linkSpeed
    print("configured:", configured and (configured.speedMb, configured.duplex), "actual:", actual and (actual.speedMb, actual.duplex))


def change_20(ns):
    # Undo step 20 of 26 [not disruptive] host-active-uplinks (stage host)
    # LG005 esx01/vSwitch0: LG005 on esx01/vSwitch0
    # REVIEW: vSwitch0 is left with one uplink: removing vmnic1 loses failover
    spec = vswitch(ns, 'vSwitch0').spec
    spec.bridge.nicDevice = list(spec.bridge.nicDevice) + ['vmnic1']
    teaming = spec.policy.nicTeaming
    teaming.nicOrder = vim.host.NetworkPolicy.NicOrderPolicy(activeNic=['vmnic0'], standbyNic=['vmnic1'])
    teaming.failureCriteria.checkBeacon = True
    ns.UpdateVirtualSwitch(vswitchName='vSwitch0', spec=spec)


def verify_20(ns):
    # expect: active: ['vmnic0'] standby: ['vmnic1'] beacon: True
    teaming = vswitch(ns, 'vSwitch0').spec.policy.nicTeaming
    print("active:", list(teaming.nicOrder.activeNic), "standby:", list(teaming.nicOrder.standbyNic or []),
          "beacon:", teaming.failureCriteria.checkBeacon)


def change_19(ns):
    # Undo step 19 of 26 [not disruptive] host-teaming (stage host)
    # LG002 esx01/vSwitch3: LG002 on esx01/vSwitch3
    spec = vswitch(ns, 'vSwitch3').spec
    spec.policy.nicTeaming.policy = 'loadbalance_srcid'
    ns.UpdateVirtualSwitch(vswitchName='vSwitch3', spec=spec)


def verify_19(ns):
    # expect: policy: loadbalance_srcid
    print("policy:", vswitch(ns, 'vSwitch3').spec.policy.nicTeaming.policy)


def change_18(ns):
    # Undo step 18 of 26 [not disruptive] host-teaming (stage host)
    # LG001 esx01/vSwitch1: LG001 on esx01/vSwitch1
    spec = vswitch(ns, 'vSwitch1').spec
    spec.policy.nicTeaming.policy = 'loadbalance_srcid'
    ns.UpdateVirtualSwitch(vswitchName='vSwitch1', spec=spec)


def verify_18(ns):
    # expect: policy: loadbalance_srcid
    print("policy:", vswitch(ns, 'vSwitch1').spec.policy.nicTeaming.policy)


def change_5(ns):
    # Undo step 5 of 26 [not disruptive] host-teaming (stage host-undo)
    # LG002 esx01/vSwitch3: LG002 on esx01/vSwitch3
    spec = vswitch(ns, 'vSwitch3').spec
    spec.policy.nicTeaming.policy = 'loadbalance_ip'
    ns.UpdateVirtualSwitch(vswitchName='vSwitch3', spec=spec)


def verify_5(ns):
    # expect: policy: loadbalance_ip
    print("policy:", vswitch(ns, 'vSwitch3').spec.policy.nicTeaming.policy)


def change_4(ns):
    # Undo step 4 of 26 [not disruptive] host-teaming (stage host-undo)
    # LG001 esx01/vSwitch1: LG001 on esx01/vSwitch1
    spec = vswitch(ns, 'vSwitch1').spec
    spec.policy.nicTeaming.policy = 'loadbalance_ip'
    ns.UpdateVirtualSwitch(vswitchName='vSwitch1', spec=spec)


def verify_4(ns):
    # expect: policy: loadbalance_ip
    print("policy:", vswitch(ns, 'vSwitch1').spec.policy.nicTeaming.policy)


STEPS = {23: (change_23, verify_23), 22: (change_22, verify_22), 21: (change_21, verify_21), 20: (change_20, verify_20), 19: (change_19, verify_19), 18: (change_18, verify_18), 5: (change_5, verify_5), 4: (change_4, verify_4)}


def _endpoint(server):
    # Host, port and path from a host name, host:port, [v6]:port or URL (https://vc.example.net/sdk).
    parts = urllib.parse.urlsplit(server if "://" in server else f"https://{server}")
    port = parts.port  # ValueError for a port that is not a number
    if parts.scheme != "https" or not parts.hostname:
        raise ValueError("want a host name, host:port or https:// URL")
    return parts.hostname, port or 443, parts.path.rstrip("/") or "/sdk"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="vCenter or the ESXi host: name, name:port or URL")
    parser.add_argument("--user", default=os.environ.get("HOSTLINT_VSPHERE_USER"), help="or HOSTLINT_VSPHERE_USER")
    parser.add_argument("--ca-bundle", metavar="FILE", help="CA certificates (PEM) that verify the server's TLS")
    parser.add_argument("--insecure", action="store_true", help="do not verify the TLS certificate")
    parser.add_argument("--verify-only", action="store_true", help="only run the step's verification")
    parser.add_argument("step", type=int, choices=sorted(STEPS))
    args = parser.parse_args()
    if not args.user:
        parser.error("give --user USER or set HOSTLINT_VSPHERE_USER")
    if args.insecure and args.ca_bundle:
        parser.error("--insecure and --ca-bundle exclude each other")
    try:
        host, port, path = _endpoint(args.server)
    except ValueError as exc:
        parser.error(f"--server {args.server}: {exc}")
    if args.insecure:
        context = ssl._create_unverified_context()
    else:
        try:
            context = ssl.create_default_context(cafile=args.ca_bundle)
        except (OSError, ssl.SSLError) as exc:
            parser.error(f"--ca-bundle {args.ca_bundle}: cannot load: {exc}")
    password = os.environ.get("HOSTLINT_VSPHERE_PASSWORD") or getpass.getpass(f"password for {args.user}: ")
    si = SmartConnect(host=host, port=port, path=path, user=args.user, pwd=password, sslContext=context)
    try:
        ns = _host(si).configManager.networkSystem
        change, verify = STEPS[args.step]
        if not args.verify_only:
            change(ns)
        verify(ns)
    finally:
        Disconnect(si)


if __name__ == "__main__":
    main()
