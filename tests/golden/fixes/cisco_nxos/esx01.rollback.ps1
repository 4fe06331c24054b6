# hostlint ROLLBACK script for esx01 (PowerCLI), generated from a snapshot: review it before use.
# hostlint runs nothing. These steps are part of one plan across devices: run ONE step at a time,
# in the reverse of the plan order (PLAN.md, Rollback), and check its verify result before the next step. Steps here: 23, 22, 21, 20, 19, 18, 5, 4.
# Connect-VIServer first (this script holds no credentials), then: ./esx01.rollback.ps1 -Step STEP
#
param([Parameter(Mandatory = $true)][int]$Step)
$ErrorActionPreference = 'Stop'
$vmhost = @(Get-VMHost | Where-Object { $_.Name -ceq 'esx01' })
if ($vmhost.Count -ne 1) { throw ("no single host named " + 'esx01') }

switch ($Step) {
    23 {
        # Undo step 23 of 26 [not disruptive] vmk-mtu (stage vmk)
        # MT003 esx01/vmk1: MT003 on esx01/vmk1
        # what: vmk1: MTU 1500 -> 9000
        # REVIEW: vSwitch1 has MTU 1500 in the snapshot: raise it before this step
        Get-VMHostNetworkAdapter -VMHost $vmhost -VMKernel | Where-Object { $_.Name -ceq 'vmk1' } | Set-VMHostNetworkAdapter -Mtu 1500 -Confirm:$false
        # verify:
        #   Get-VMHostNetworkAdapter -VMHost $vmhost -VMKernel | Where-Object { $_.Name -ceq 'vmk1' } | Select-Object Name, Mtu
        #   (Get-EsxCli -VMHost $vmhost -V2).network.diag.ping.Invoke(@{host = '10.20.20.12'; interface = 'vmk1'; netstack = 'defaultTcpipStack'; size = 8972; df = $true})
        # expect:
        #   Mtu: 1500
    }
    22 {
        # Undo step 22 of 26 [DISRUPTIVE] host-vswitch-mtu (stage host)
        # MT002 esx01/vSwitch1: MT002 on esx01/vSwitch1
        # what: vSwitch1: MTU 1500 -> 9000
        Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch1' } | Set-VirtualSwitch -Mtu 1500 -Confirm:$false
        # verify:
        #   Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch1' } | Select-Object Name, Mtu
        # expect:
        #   Mtu: 1500
    }
    21 {
        # Undo step 21 of 26 [DISRUPTIVE] host-nic-autoneg (stage host)
        # LK001 esx01/vmnic0: LK001 on esx01/vmnic0
        # what: vmnic0: 1000 Mb/s full duplex (forced) -> auto-negotiate
        # REVIEW: vmnic0 bounces: make sure the host keeps management on another uplink
        Get-VMHostNetworkAdapter -VMHost $vmhost -Physical | Where-Object { $_.Name -ceq 'vmnic0' } |
            Set-VMHostNetworkAdapter -BitRatePerSecMb 1000 -Duplex 'Full' -Confirm:$false
        # verify:
        #   (Get-VMHostNetworkAdapter -VMHost $vmhost -Physical | Where-Object { $_.Name -ceq 'vmnic0' }).ExtensionData.Spec.LinkSpeed
        # expect:
        #   SpeedMb: 1000; Duplex: Full
    }
    20 {
        # Undo step 20 of 26 [not disruptive] host-active-uplinks (stage host)
        # LG005 esx01/vSwitch0: LG005 on esx01/vSwitch0
        # what: vSwitch0: active vmnic0, failure detection link; remove vmnic1 from vSwitch0
        # REVIEW: vSwitch0 is left with one uplink: removing vmnic1 loses failover
        Add-VirtualSwitchPhysicalNetworkAdapter -VirtualSwitch (Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch0' }) `
            -VMHostPhysicalNic (Get-VMHostNetworkAdapter -VMHost $vmhost -Physical | Where-Object { $_.Name -ceq 'vmnic1' })
        $team = Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch0' } | Get-NicTeamingPolicy
        $team | Set-NicTeamingPolicy -NetworkFailoverDetectionPolicy 'BeaconProbing' `
            -MakeNicActive ('vmnic0' | ForEach-Object { $wanted = $_; Get-VMHostNetworkAdapter -VMHost $vmhost -Physical | Where-Object { $_.Name -ceq $wanted } }) `
            -MakeNicStandby ('vmnic1' | ForEach-Object { $wanted = $_; Get-VMHostNetworkAdapter -VMHost $vmhost -Physical | Where-Object { $_.Name -ceq $wanted } })
        # verify:
        #   Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch0' } | Get-NicTeamingPolicy |
        #       Select-Object ActiveNic, StandbyNic, NetworkFailoverDetectionPolicy
        # expect:
        #   ActiveNic: vmnic0; StandbyNic: vmnic1
    }
    19 {
        # Undo step 19 of 26 [not disruptive] host-teaming (stage host)
        # LG002 esx01/vSwitch3: LG002 on esx01/vSwitch3
        # what: vSwitch3: load balancing loadbalance_srcid -> loadbalance_ip
        Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch3' } | Get-NicTeamingPolicy |
            Set-NicTeamingPolicy -LoadBalancingPolicy LoadBalanceSrcId
        # verify:
        #   Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch3' } | Get-NicTeamingPolicy | Select-Object LoadBalancingPolicy
        # expect:
        #   LoadBalancingPolicy: LoadBalanceSrcId
    }
    18 {
        # Undo step 18 of 26 [not disruptive] host-teaming (stage host)
        # LG001 esx01/vSwitch1: LG001 on esx01/vSwitch1
        # what: vSwitch1: load balancing loadbalance_srcid -> loadbalance_ip
        Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch1' } | Get-NicTeamingPolicy |
            Set-NicTeamingPolicy -LoadBalancingPolicy LoadBalanceSrcId
        # verify:
        #   Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch1' } | Get-NicTeamingPolicy | Select-Object LoadBalancingPolicy
        # expect:
        #   LoadBalancingPolicy: LoadBalanceSrcId
    }
    5 {
        # Undo step 5 of 26 [not disruptive] host-teaming (stage host-undo)
        # LG002 esx01/vSwitch3: LG002 on esx01/vSwitch3
        # what: vSwitch3: load balancing loadbalance_ip -> loadbalance_srcid
        Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch3' } | Get-NicTeamingPolicy |
            Set-NicTeamingPolicy -LoadBalancingPolicy LoadBalanceIP
        # verify:
        #   Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch3' } | Get-NicTeamingPolicy | Select-Object LoadBalancingPolicy
        # expect:
        #   LoadBalancingPolicy: LoadBalanceIP
    }
    4 {
        # Undo step 4 of 26 [not disruptive] host-teaming (stage host-undo)
        # LG001 esx01/vSwitch1: LG001 on esx01/vSwitch1
        # what: vSwitch1: load balancing loadbalance_ip -> loadbalance_srcid
        Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch1' } | Get-NicTeamingPolicy |
            Set-NicTeamingPolicy -LoadBalancingPolicy LoadBalanceIP
        # verify:
        #   Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch1' } | Get-NicTeamingPolicy | Select-Object LoadBalancingPolicy
        # expect:
        #   LoadBalancingPolicy: LoadBalanceIP
    }
    default { throw "steps here: 23, 22, 21, 20, 19, 18, 5, 4; order: PLAN.md" }
}
