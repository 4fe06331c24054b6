package main

// The distributed switch health check, as vCenter reports it: which checks are on
// (VMwareDVSConfigInfo.healthCheckConfig: VMwareDVSVlanMtuHealthCheckConfig and
// VMwareDVSTeamingHealthCheckConfig) and each host member's results
// (DistributedVirtualSwitch.runtime.hostMemberRuntime[].healthCheckResult: a
// VMwareDVSVlanHealthCheckResult and a VMwareDVSMtuHealthCheckResult per uplink port, keyed by
// uplinkPortKey, and one VMwareDVSTeamingHealthCheckResult per host; vSphere Web Services API
// reference, vim.dvs.VmwareDistributedVirtualSwitch.*HealthCheck*). govmomi's simulator has
// neither; the scenario states them and they are written into the switch before serving.

import (
	"fmt"
	"sort"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/types"
)

// HealthCheck is which checks a switch has on; unset means off, as a new switch in vCenter has them.
type HealthCheck struct {
	VlanMtu bool `yaml:"vlan_mtu"`
	Teaming bool `yaml:"teaming"`
}

// UplinkHealth is one uplink's results, named by the host pNIC behind the uplink port (the simulator
// finds the port's key). A list left out is not reported.
type UplinkHealth struct {
	Nic            string     `yaml:"nic"`
	TrunkedVlans   [][2]int32 `yaml:"trunked_vlans"`
	UntrunkedVlans [][2]int32 `yaml:"untrunked_vlans"`
	MtuMismatch    *bool      `yaml:"mtu_mismatch"`
	MtuPassing     [][2]int32 `yaml:"mtu_vlans_passing"`
	MtuFailing     [][2]int32 `yaml:"mtu_vlans_failing"`
	NoVlanResult   bool       `yaml:"no_vlan_result"`
	NoMtuResult    bool       `yaml:"no_mtu_result"`
}

// MemberHealth is a host member's results; Teaming a VMwareDVSTeamingMatchStatus.
type MemberHealth struct {
	Uplinks []UplinkHealth `yaml:"uplinks"`
	Teaming string         `yaml:"teaming"`
}

func numericRanges(ranges [][2]int32) []types.NumericRange {
	found := make([]types.NumericRange, 0, len(ranges))
	for _, r := range ranges {
		found = append(found, types.NumericRange{Start: r[0], End: r[1]})
	}
	return found
}

func healthCheckConfig(h *HealthCheck) []types.BaseDVSHealthCheckConfig {
	if h == nil {
		h = &HealthCheck{}
	}
	return []types.BaseDVSHealthCheckConfig{
		&types.VMwareDVSVlanMtuHealthCheckConfig{VMwareDVSHealthCheckConfig: types.VMwareDVSHealthCheckConfig{
			DVSHealthCheckConfig: types.DVSHealthCheckConfig{Enable: types.NewBool(h.VlanMtu), Interval: 1},
		}},
		&types.VMwareDVSTeamingHealthCheckConfig{VMwareDVSHealthCheckConfig: types.VMwareDVSHealthCheckConfig{
			DVSHealthCheckConfig: types.DVSHealthCheckConfig{Enable: types.NewBool(h.Teaming), Interval: 1},
		}},
	}
}

// uplinkPortKeys is the key of each uplink port of a host's proxy switch (see proxySwitch), by pNIC.
func uplinkPortKeys(member DvsHostMember) map[string]string {
	ports := make([]string, 0, len(member.Uplinks))
	for port := range member.Uplinks {
		ports = append(ports, port)
	}
	sort.Strings(ports)
	keys := map[string]string{}
	for i, port := range ports {
		keys[member.Uplinks[port]] = uplinkPortKey(i)
	}
	return keys
}

func uplinkPortKey(index int) string { return fmt.Sprintf("%d", 10+index) }

// setHealth writes the switch's health check config and every member's results.
func (inv *inventory) setHealth(d Dvs) error {
	built := inv.dvs[dvsKey(d.Datacenter, d.Name)]
	sim := inv.model.Map().Get(built.ref).(*simulator.DistributedVirtualSwitch)
	sim.Config.(*types.VMwareDVSConfigInfo).HealthCheckConfig = healthCheckConfig(d.HealthCheck)
	runtime := &types.DVSRuntimeInfo{}
	for _, member := range d.Hosts {
		host := inv.hosts[member.Host]
		info := types.HostMemberRuntimeInfo{Host: host.Reference(), Status: "up"}
		if member.Health != nil {
			keys := uplinkPortKeys(member)
			for _, uplink := range member.Health.Uplinks {
				key, ok := keys[uplink.Nic]
				if !ok {
					return fmt.Errorf("health of %s: %s is no uplink of the host", member.Host, uplink.Nic)
				}
				base := types.HostMemberUplinkHealthCheckResult{UplinkPortKey: key}
				if !uplink.NoVlanResult {
					info.HealthCheckResult = append(info.HealthCheckResult, &types.VMwareDVSVlanHealthCheckResult{
						HostMemberUplinkHealthCheckResult: base,
						TrunkedVlan:                       numericRanges(uplink.TrunkedVlans),
						UntrunkedVlan:                     numericRanges(uplink.UntrunkedVlans),
					})
				}
				if !uplink.NoMtuResult {
					mismatch := uplink.MtuMismatch != nil && *uplink.MtuMismatch
					info.HealthCheckResult = append(info.HealthCheckResult, &types.VMwareDVSMtuHealthCheckResult{
						HostMemberUplinkHealthCheckResult: base,
						MtuMismatch:                       mismatch,
						VlanSupportSwitchMtu:              numericRanges(uplink.MtuPassing),
						VlanNotSupportSwitchMtu:           numericRanges(uplink.MtuFailing),
					})
				}
			}
			if member.Health.Teaming != "" {
				info.HealthCheckResult = append(info.HealthCheckResult, &types.VMwareDVSTeamingHealthCheckResult{
					TeamingStatus: member.Health.Teaming,
				})
			}
		}
		runtime.HostMemberRuntime = append(runtime.HostMemberRuntime, info)
	}
	sim.Runtime = runtime
	return nil
}
