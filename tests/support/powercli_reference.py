"""The cmdlets, parameters and enumerated values hostlint's PowerShell fix scripts may use.

Written from VMware's PowerCLI cmdlet reference (https://developer.broadcom.com/powercli/latest/,
module VMware.VimAutomation.Core, and VMware.VimAutomation.Vds for the VD cmdlets; each cmdlet's
page is `<module>/commands/<cmdlet in lower case>`, e.g. vmware.vimautomation.core/commands/
set-vmhostnetworkadapter) and, for the few PowerShell built-ins, Microsoft's PowerShell reference
(https://learn.microsoft.com/powershell/module/microsoft.powershell.utility/ and .core/). Only the
parameter sets hostlint needs are listed: a parameter missing here fails the test until it is
checked against the reference and added.
"""

from __future__ import annotations

# fmt: off
# https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_commonparameters
COMMON = {
    "Verbose",
    "Debug",
    "ErrorAction",
    "WarningAction",
    "InformationAction",
    "ProgressAction",
    "ErrorVariable",
    "WarningVariable",
    "InformationVariable",
    "OutVariable",
    "OutBuffer",
    "PipelineVariable",
}
# Risk-mitigation parameters of cmdlets that change something (SupportsShouldProcess).
SHOULD_PROCESS = {"WhatIf", "Confirm"}

CMDLETS: dict[str, set[str]] = {
    # --- VMware.VimAutomation.Core ---
    "Get-VMHost": {
        "Name", "Location", "State", "Server", "Id", "Datastore", "DistributedSwitch", "VM", "ResourcePool",
        "Standalone", "Tag", "NoRecursion",
    },
    "Get-VirtualSwitch": {
        "Name", "VMHost", "VM", "Server", "Id", "Datacenter", "Standard", "Distributed", "RelatedObject",
    },
    "Set-VirtualSwitch": {"VirtualSwitch", "NumPorts", "Nic", "Mtu", "Server", *SHOULD_PROCESS},
    "Get-VirtualPortGroup": {
        "Name", "VMHost", "VM", "VirtualSwitch", "Server", "Id", "Standard", "Distributed", "Tag",
        "NetworkAdapter", "Datacenter", "RelatedObject",
    },
    "Get-NicTeamingPolicy": {"VirtualSwitch", "VirtualPortGroup", "Server"},
    "Set-NicTeamingPolicy": {
        "VirtualSwitchPolicy", "VirtualPortGroupPolicy", "BeaconInterval", "LoadBalancingPolicy",
        "NetworkFailoverDetectionPolicy", "NotifySwitches", "FailbackEnabled", "MakeNicActive", "MakeNicStandby",
        "MakeNicUnused", "InheritFailback", "InheritFailoverOrder", "InheritLoadBalancingPolicy",
        "InheritNetworkFailoverDetectionPolicy", "InheritNotifySwitches", *SHOULD_PROCESS,
    },
    "Get-VMHostNetworkAdapter": {
        "Name", "VMHost", "VirtualSwitch", "PortGroup", "Physical", "VMKernel", "Console", "Server", "Id",
        "DistributedSwitch",
    },
    "Set-VMHostNetworkAdapter": {
        "VirtualNic", "PhysicalNic", "PortGroup", "Dhcp", "IP", "SubnetMask", "Mac", "Mtu", "AutoNegotiate",
        "BitRatePerSecMb", "Duplex", "VMotionEnabled", "FaultToleranceLoggingEnabled", "ManagementTrafficEnabled",
        "VsanTrafficEnabled", "IPv6ThroughDhcp", "AutomaticIPv6", "IPv6", "RemoveIPv6", "IPv6Enabled",
        *SHOULD_PROCESS,
    },
    "Add-VirtualSwitchPhysicalNetworkAdapter": {
        "VirtualSwitch", "VMHostPhysicalNic", "VMHostVirtualNic", "VirtualNicPortgroup", "Server", *SHOULD_PROCESS,
    },
    "Remove-VirtualSwitchPhysicalNetworkAdapter": {"VMHostNetworkAdapter", *SHOULD_PROCESS},
    "Get-EsxCli": {"VMHost", "Server", "V2"},
    "Get-View": {"Id", "VIObject", "ViewType", "Property", "Filter", "SearchRoot", "Server", "RelatedObject"},
    # --- VMware.VimAutomation.Vds ---
    "Get-VDSwitch": {"Name", "Location", "VMHost", "VM", "Server", "Id", "Tag", "RelatedObject"},
    "Get-VDPortgroup": {
        "Name", "VDSwitch", "NetworkAdapter", "VMHostNetworkAdapter", "Server", "Id", "Tag", "RelatedObject",
    },
    "Get-VDUplinkTeamingPolicy": {"VDPortgroup", "VDPort", "Server"},
    "Set-VDUplinkTeamingPolicy": {
        "Policy", "LoadBalancingPolicy", "FailoverDetectionPolicy", "NotifySwitches", "EnableFailback",
        "ActiveUplinkPort", "StandbyUplinkPort", "UnusedUplinkPort", "InheritLoadBalancingPolicy",
        "InheritFailoverDetectionPolicy", "InheritNotifySwitches", "InheritEnableFailback", "InheritFailoverOrder",
        *SHOULD_PROCESS,
    },
    # --- PowerShell built-ins (Microsoft.PowerShell.Utility, Microsoft.PowerShell.Core) ---
    "Select-Object": {
        "Property", "ExpandProperty", "First", "Last", "Skip", "SkipLast", "Unique", "ExcludeProperty", "Index",
        "Wait", "InputObject",
    },
    "Where-Object": {
        "Property", "Value", "FilterScript", "InputObject", "EQ", "NE", "GT", "LT", "GE", "LE", "Like", "NotLike",
        "Match", "NotMatch", "Contains", "NotContains", "In", "NotIn", "Is", "IsNot",
    },
    # https://learn.microsoft.com/powershell/module/microsoft.powershell.core/foreach-object
    "ForEach-Object": {
        "Process", "Begin", "End", "RemainingScripts", "InputObject", "MemberName", "ArgumentList", "Parallel",
        "ThrottleLimit", "TimeoutSeconds", "AsJob", "UseNewRunspace",
    },
    "New-Object": {"TypeName", "ArgumentList", "Property", "ComObject", "Strict"},
}

# Parameters whose argument is one of a fixed set of names (the reference's "Valid values"/enum type).
VALUES: dict[tuple[str, str], set[str]] = {
    ("Set-NicTeamingPolicy", "LoadBalancingPolicy"): {
        "LoadBalanceIP", "LoadBalanceSrcMac", "LoadBalanceSrcId", "ExplicitFailover",
    },
    ("Set-NicTeamingPolicy", "NetworkFailoverDetectionPolicy"): {"LinkStatus", "BeaconProbing"},
    ("Set-VDUplinkTeamingPolicy", "LoadBalancingPolicy"): {
        "LoadBalanceIP", "LoadBalanceSrcMac", "LoadBalanceSrcId", "ExplicitFailover", "LoadBalanceLoadBased",
    },
    ("Set-VDUplinkTeamingPolicy", "FailoverDetectionPolicy"): {"LinkStatus", "BeaconProbing"},
    ("Set-VMHostNetworkAdapter", "Duplex"): {"Full", "Half"},
}

# Parameters that take only what one cmdlet returns. Set-VMHostNetworkAdapter -PortGroup is a
# DistributedPortGroup: "You can use this parameter only to migrate a virtual network adapter from a
# standard port group to a distributed port group."
PRODUCED_BY: dict[tuple[str, str], str] = {
    ("Set-VMHostNetworkAdapter", "PortGroup"): "Get-VDPortgroup",
}
# fmt: on
