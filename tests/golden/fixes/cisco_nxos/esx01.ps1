# hostlint fix script for esx01 (PowerCLI), generated from a snapshot: review it before use.
# hostlint runs nothing. These steps are part of one plan across devices: run ONE step at a time,
# in PLAN.md order, and check its verify result before the next step. Steps here: 4, 5, 18, 19, 20, 21, 22, 23.
# Connect-VIServer first (this script holds no credentials), then: ./esx01.ps1 -Step STEP
#
param([Parameter(Mandatory = $true)][int]$Step)
$ErrorActionPreference = 'Stop'
$vmhost = @(Get-VMHost | Where-Object { $_.Name -ceq 'esx01' })
if ($vmhost.Count -ne 1) { throw ("no single host named " + 'esx01') }

switch ($Step) {
    4 {
        # Step 4 of 26 [not disruptive] host-teaming (stage host-undo)
        # LG001 esx01/vSwitch1: LG001 on esx01/vSwitch1
        # what: vSwitch1: load balancing loadbalance_ip -> loadbalance_srcid
        Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch1' } | Get-NicTeamingPolicy |
            Set-NicTeamingPolicy -LoadBalancingPolicy LoadBalanceSrcId
        # verify:
        #   Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch1' } | Get-NicTeamingPolicy | Select-Object LoadBalancingPolicy
        # expect:
        #   LoadBalancingPolicy: LoadBalanceSrcId
    }
    5 {
        # Step 5 of 26 [not disruptive] host-teaming (stage host-undo)
        # LG002 esx01/vSwitch3: LG002 on esx01/vSwitch3
        # what: vSwitch3: load balancing loadbalance_ip -> loadbalance_srcid
        Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch3' } | Get-NicTeamingPolicy |
            Set-NicTeamingPolicy -LoadBalancingPolicy LoadBalanceSrcId
        # verify:
        #   Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch3' } | Get-NicTeamingPolicy | Select-Object LoadBalancingPolicy
        # expect:
        #   LoadBalancingPolicy: LoadBalanceSrcId
    }
    18 {
        # Step 18 of 26 [not disruptive] host-teaming (stage host)
        # LG001 esx01/vSwitch1: LG001 on esx01/vSwitch1
        # what: vSwitch1: load balancing loadbalance_srcid -> loadbalance_ip
        Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch1' } | Get-NicTeamingPolicy |
            Set-NicTeamingPolicy -LoadBalancingPolicy LoadBalanceIP
        # verify:
        #   Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch1' } | Get-NicTeamingPolicy | Select-Object LoadBalancingPolicy
        # expect:
        #   LoadBalancingPolicy: LoadBalanceIP
    }
    19 {
        # Step 19 of 26 [not disruptive] host-teaming (stage host)
        # LG002 esx01/vSwitch3: LG002 on esx01/vSwitch3
        # what: vSwitch3: load balancing loadbalance_srcid -> loadbalance_ip
        Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch3' } | Get-NicTeamingPolicy |
            Set-NicTeamingPolicy -LoadBalancingPolicy LoadBalanceIP
        # verify:
        #   Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch3' } | Get-NicTeamingPolicy | Select-Object LoadBalancingPolicy
        # expect:
        #   LoadBalancingPolicy: LoadBalanceIP
    }
    20 {
        # Step 20 of 26 [not disruptive] host-active-uplinks (stage host)
        # LG005 esx01/vSwitch0: LG005 on esx01/vSwitch0
        # what: vSwitch0: active vmnic0, failure detection link; remove vmnic1 from vSwitch0
        # REVIEW: vSwitch0 is left with one uplink: removing vmnic1 loses failover
        $team = Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch0' } | Get-NicTeamingPolicy
        $team | Set-NicTeamingPolicy -NetworkFailoverDetectionPolicy 'LinkStatus' `
            -MakeNicActive ('vmnic0' | ForEach-Object { $wanted = $_; Get-VMHostNetworkAdapter -VMHost $vmhost -Physical | Where-Object { $_.Name -ceq $wanted } })
        Get-VMHostNetworkAdapter -VMHost $vmhost -Physical | Where-Object { $_.Name -ceq 'vmnic1' } | Remove-VirtualSwitchPhysicalNetworkAdapter
        # verify:
        #   Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch0' } | Get-NicTeamingPolicy |
        #       Select-Object ActiveNic, StandbyNic, NetworkFailoverDetectionPolicy
        # expect:
        #   ActiveNic: vmnic0; StandbyNic: (none); NetworkFailoverDetectionPolicy: LinkStatus
    }
    21 {
        # Step 21 of 26 [DISRUPTIVE] host-nic-autoneg (stage host)
        # LK001 esx01/vmnic0: LK001 on esx01/vmnic0
        # what: vmnic0: 1000 Mb/s full duplex (forced) -> auto-negotiate
        # REVIEW: vmnic0 bounces: make sure the host keeps management on another uplink
        Get-VMHostNetworkAdapter -VMHost $vmhost -Physical | Where-Object { $_.Name -ceq 'vmnic0' } | Set-VMHostNetworkAdapter -AutoNegotiate -Confirm:$false
        # verify:
        #   (Get-VMHostNetworkAdapter -VMHost $vmhost -Physical | Where-Object { $_.Name -ceq 'vmnic0' }).ExtensionData.Spec.LinkSpeed
        # expect:
        #   (nothing: no configured speed means auto-negotiate)
    }
    22 {
        # Step 22 of 26 [DISRUPTIVE] host-vswitch-mtu (stage host)
        # MT002 esx01/vSwitch1: MT002 on esx01/vSwitch1
        # what: vSwitch1: MTU 1500 -> 9000
        Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch1' } | Set-VirtualSwitch -Mtu 9000 -Confirm:$false
        # verify:
        #   Get-VirtualSwitch -VMHost $vmhost -Standard | Where-Object { $_.Name -ceq 'vSwitch1' } | Select-Object Name, Mtu
        # expect:
        #   Mtu: 9000
    }
    23 {
        # Step 23 of 26 [not disruptive] vmk-mtu (stage vmk)
        # MT003 esx01/vmk1: MT003 on esx01/vmk1
        # what: vmk1: MTU 1500 -> 9000
        # REVIEW: vSwitch1 has MTU 1500 in the snapshot: raise it before this step
        Get-VMHostNetworkAdapter -VMHost $vmhost -VMKernel | Where-Object { $_.Name -ceq 'vmk1' } | Set-VMHostNetworkAdapter -Mtu 9000 -Confirm:$false
        # verify:
        #   Get-VMHostNetworkAdapter -VMHost $vmhost -VMKernel | Where-Object { $_.Name -ceq 'vmk1' } | Select-Object Name, Mtu
        #   (Get-EsxCli -VMHost $vmhost -V2).network.diag.ping.Invoke(@{host = '10.20.20.12'; interface = 'vmk1'; netstack = 'defaultTcpipStack'; size = 8972; df = $true})
        # expect:
        #   Mtu: 9000
        #   Summary.PacketLost: 0
    }
    default { throw "steps here: 4, 5, 18, 19, 20, 21, 22, 23; order: PLAN.md" }
}
