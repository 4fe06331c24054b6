package main

// The HostNetworkSystem update methods hostlint's fix scripts call, which govmomi's simulator
// does not implement, with the semantics and faults of the vSphere Web Services API reference
// (HostNetworkSystem, vSphere 8.0; the method pages of the same reference as
// https://developer.broadcom.com/xapis/virtual-infrastructure-json-api/latest/sdk/vim25/release/HostNetworkSystem/moId/METHOD/post,
// METHOD one of UpdateVirtualSwitch, UpdatePortGroup, UpdateVirtualNic, UpdatePhysicalNicLinkSpeed).
//
// The host's config.network and the network system's networkInfo are one object (build.go), so
// every change is what the PropertyCollector returns next, on either path.

import (
	"fmt"
	"slices"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

// The teaming policies of a standard vSwitch or port group (HostNicTeamingPolicy.policy; the
// host's HostNetCapabilities.nicTeamingPolicy). loadbalance_loadbased is a distributed switch's only.
var standardTeamingPolicies = []string{"loadbalance_ip", "loadbalance_srcmac", "loadbalance_srcid", "failover_explicit"}

// HostNicFailureCriteria.checkSpeed: "exact" or "minimum" (unset: no speed check).
var checkSpeeds = []string{"", "exact", "minimum"}

// The MTU range of a standard vSwitch and of a VMkernel port on ESXi (1280 to 9000 bytes).
const minMtu, maxMtu = 1280, 9000

func invalidArgument(property, why string) *soap.Fault {
	return simulator.Fault(fmt.Sprintf("A specified parameter was not correct: %s (%s)", property, why),
		&types.InvalidArgument{InvalidProperty: property})
}

func notFound(what string) *soap.Fault {
	return simulator.Fault(what+" not found", &types.NotFound{})
}

// locked runs f with the host locked too: the PropertyCollector reads config.network under the host's lock.
func (s *hostNetwork) locked(ctx *simulator.Context, f func() *soap.Fault) *soap.Fault {
	var fault *soap.Fault
	ctx.WithLock(s.Host.Reference(), func() { fault = f() })
	return fault
}

func (s *hostNetwork) vswitch(name string) *types.HostVirtualSwitch {
	for i := range s.NetworkInfo.Vswitch {
		if s.NetworkInfo.Vswitch[i].Name == name {
			return &s.NetworkInfo.Vswitch[i]
		}
	}
	return nil
}

func (s *hostNetwork) portgroup(name string) *types.HostPortGroup {
	for i := range s.NetworkInfo.Portgroup {
		if s.NetworkInfo.Portgroup[i].Spec.Name == name {
			return &s.NetworkInfo.Portgroup[i]
		}
	}
	return nil
}

func (s *hostNetwork) pnic(device string) *types.PhysicalNic {
	for i := range s.NetworkInfo.Pnic {
		if s.NetworkInfo.Pnic[i].Device == device {
			return &s.NetworkInfo.Pnic[i]
		}
	}
	return nil
}

func (s *hostNetwork) vnic(device string) *types.HostVirtualNic {
	for i := range s.NetworkInfo.Vnic {
		if s.NetworkInfo.Vnic[i].Device == device {
			return &s.NetworkInfo.Vnic[i]
		}
	}
	return nil
}

func bridgeNics(spec types.HostVirtualSwitchSpec) []string {
	if bond, ok := spec.Bridge.(*types.HostVirtualSwitchBondBridge); ok {
		return bond.NicDevice
	}
	return nil
}

// checkTeaming refuses a teaming policy the host would: an unknown policy or speed check, or a
// failover order naming an adapter that is not an uplink of the switch, or one twice
// (UpdatePortGroup: "InvalidArgument ... if network policy is invalid").
func checkTeaming(teaming *types.HostNicTeamingPolicy, uplinks []string, property string) *soap.Fault {
	if teaming == nil {
		return nil
	}
	if teaming.Policy != "" && !slices.Contains(standardTeamingPolicies, teaming.Policy) {
		return invalidArgument(property+".policy", fmt.Sprintf("%q is no standard switch teaming policy", teaming.Policy))
	}
	if c := teaming.FailureCriteria; c != nil && !slices.Contains(checkSpeeds, c.CheckSpeed) {
		return invalidArgument(property+".failureCriteria.checkSpeed", fmt.Sprintf("%q", c.CheckSpeed))
	}
	if order := teaming.NicOrder; order != nil {
		seen := map[string]bool{}
		for _, nic := range slices.Concat(order.ActiveNic, order.StandbyNic) {
			if !slices.Contains(uplinks, nic) {
				return invalidArgument(property+".nicOrder", nic+" is not an uplink of the virtual switch")
			}
			if seen[nic] {
				return invalidArgument(property+".nicOrder", nic+" is listed twice")
			}
			seen[nic] = true
		}
	}
	return nil
}

// computedTeaming is a port group's effective teaming: every field it sets, the rest the vSwitch's
// ("Policies on the port group take precedence over the ones specified on the virtual switch").
func computedTeaming(vswitch, override *types.HostNicTeamingPolicy) *types.HostNicTeamingPolicy {
	if vswitch == nil {
		vswitch = &types.HostNicTeamingPolicy{}
	}
	computed := *vswitch
	if override == nil {
		return &computed
	}
	if override.Policy != "" {
		computed.Policy = override.Policy
	}
	if override.ReversePolicy != nil {
		computed.ReversePolicy = override.ReversePolicy
	}
	if override.NotifySwitches != nil {
		computed.NotifySwitches = override.NotifySwitches
	}
	if override.RollingOrder != nil {
		computed.RollingOrder = override.RollingOrder
	}
	if override.NicOrder != nil {
		computed.NicOrder = override.NicOrder
	}
	if o := override.FailureCriteria; o != nil {
		criteria := types.HostNicFailureCriteria{}
		if vswitch.FailureCriteria != nil {
			criteria = *vswitch.FailureCriteria
		}
		if o.CheckSpeed != "" {
			criteria.CheckSpeed, criteria.Speed = o.CheckSpeed, o.Speed
		}
		for _, field := range []struct{ from, to **bool }{
			{&o.CheckDuplex, &criteria.CheckDuplex}, {&o.FullDuplex, &criteria.FullDuplex},
			{&o.CheckErrorPercent, &criteria.CheckErrorPercent}, {&o.CheckBeacon, &criteria.CheckBeacon},
		} {
			if *field.from != nil {
				*field.to = *field.from
			}
		}
		if o.Percentage != 0 {
			criteria.Percentage = o.Percentage
		}
		computed.FailureCriteria = &criteria
	}
	return &computed
}

// recompute sets the computed policy of every port group on the vSwitch from its own and the vSwitch's.
func (s *hostNetwork) recompute(vswitch *types.HostVirtualSwitch) {
	var teaming *types.HostNicTeamingPolicy
	if vswitch.Spec.Policy != nil {
		teaming = vswitch.Spec.Policy.NicTeaming
	}
	for i := range s.NetworkInfo.Portgroup {
		pg := &s.NetworkInfo.Portgroup[i]
		if pg.Spec.VswitchName == vswitch.Name {
			pg.ComputedPolicy.NicTeaming = computedTeaming(teaming, pg.Spec.Policy.NicTeaming)
		}
	}
}

// dropFromOrder takes adapters out of a failover order ("If a network adapter is removed from the
// bridge configuration, then the network adapter is removed from the network adapter teaming order").
func dropFromOrder(teaming *types.HostNicTeamingPolicy, removed []string) {
	if teaming == nil || teaming.NicOrder == nil || len(removed) == 0 {
		return
	}
	keep := func(nics []string) []string {
		return slices.DeleteFunc(slices.Clone(nics), func(nic string) bool { return slices.Contains(removed, nic) })
	}
	teaming.NicOrder = &types.HostNicOrderPolicy{ActiveNic: keep(teaming.NicOrder.ActiveNic), StandbyNic: keep(teaming.NicOrder.StandbyNic)}
}

// UpdateVirtualSwitch replaces the vSwitch's configuration with the spec: the bridge (its uplinks;
// "If the bridge is NULL, the configuration will be unset"), the MTU, and the policy ("If the policy
// property is not set and you are updating a virtual switch, then the policy will be unchanged").
// Faults: NotFound (no such vSwitch, or an uplink the host does not have), ResourceInUse (an uplink
// bridged by another switch), InvalidArgument (an MTU ESXi refuses, a policy that is not valid).
func (s *hostNetwork) UpdateVirtualSwitch(ctx *simulator.Context, req *types.UpdateVirtualSwitch) soap.HasFault {
	body := &methods.UpdateVirtualSwitchBody{}
	body.Fault_ = s.locked(ctx, func() *soap.Fault { return s.updateVirtualSwitch(req.VswitchName, req.Spec) })
	if body.Fault_ == nil {
		body.Res = &types.UpdateVirtualSwitchResponse{}
	}
	return body
}

func (s *hostNetwork) updateVirtualSwitch(name string, spec types.HostVirtualSwitchSpec) *soap.Fault {
	vswitch := s.vswitch(name)
	if vswitch == nil {
		return notFound("virtual switch " + name)
	}
	if spec.Mtu != 0 && (spec.Mtu < minMtu || spec.Mtu > maxMtu) {
		return invalidArgument("spec.mtu", fmt.Sprintf("%d is not between %d and %d", spec.Mtu, minMtu, maxMtu))
	}
	if spec.Bridge != nil {
		if _, ok := spec.Bridge.(*types.HostVirtualSwitchBondBridge); !ok {
			return invalidArgument("spec.bridge", "the BondBridge configuration is the only valid bridge configuration for an ESX Server system")
		}
	}
	uplinks := bridgeNics(spec)
	for i, nic := range uplinks {
		if s.pnic(nic) == nil {
			return notFound("physical NIC " + nic)
		}
		if slices.Contains(uplinks[:i], nic) {
			return invalidArgument("spec.bridge.nicDevice", nic+" is listed twice")
		}
		if owner := s.bridgedBy(nic); owner != "" && owner != name {
			return simulator.Fault(fmt.Sprintf("%s is already bridged by %s", nic, owner),
				&types.ResourceInUse{Type: "PhysicalNic", Name: nic})
		}
	}
	removed := slices.DeleteFunc(slices.Clone(bridgeNics(vswitch.Spec)), func(nic string) bool { return slices.Contains(uplinks, nic) })
	policy := spec.Policy
	if policy == nil && vswitch.Spec.Policy != nil {
		kept := *vswitch.Spec.Policy // a copy: the checks below must not change the host
		if kept.NicTeaming != nil {
			teaming := *kept.NicTeaming
			kept.NicTeaming = &teaming
		}
		policy = &kept
	}
	if policy != nil {
		dropFromOrder(policy.NicTeaming, removed)
		if fault := checkTeaming(policy.NicTeaming, uplinks, "spec.policy.nicTeaming"); fault != nil {
			return fault
		}
	}
	// Every check passed: nothing above changed the host.
	spec.Policy = policy
	if spec.Mtu == 0 {
		spec.Mtu = vswitch.Spec.Mtu
	}
	if spec.NumPorts == 0 {
		spec.NumPorts = vswitch.Spec.NumPorts
	}
	vswitch.Spec, vswitch.Mtu = spec, spec.Mtu
	vswitch.Pnic = nil
	for _, nic := range uplinks {
		vswitch.Pnic = append(vswitch.Pnic, s.pnic(nic).Key)
	}
	for i := range s.NetworkInfo.Portgroup {
		if pg := &s.NetworkInfo.Portgroup[i]; pg.Spec.VswitchName == name {
			dropFromOrder(pg.Spec.Policy.NicTeaming, removed)
		}
	}
	s.recompute(vswitch)
	return nil
}

// bridgedBy names the standard or distributed switch that has the adapter as an uplink, if any.
func (s *hostNetwork) bridgedBy(nic string) string {
	for _, vswitch := range s.NetworkInfo.Vswitch {
		if slices.Contains(bridgeNics(vswitch.Spec), nic) {
			return vswitch.Name
		}
	}
	key := s.pnic(nic).Key
	for _, proxy := range s.NetworkInfo.ProxySwitch {
		if slices.Contains(proxy.Pnic, key) {
			return proxy.DvsName
		}
	}
	return ""
}

// UpdatePortGroup replaces the port group's spec: its name, VLAN, vSwitch and policy. A teaming
// field the spec leaves unset is inherited from the vSwitch; the computed policy follows. Faults:
// NotFound ("if the port group or virtual switch does not exist"), AlreadyExists ("if the update
// causes the port group to conflict with an existing port group"), InvalidArgument ("if the
// PortGroup vlanId is invalid ... [0,4095] ... also thrown if network policy is invalid").
func (s *hostNetwork) UpdatePortGroup(ctx *simulator.Context, req *types.UpdatePortGroup) soap.HasFault {
	body := &methods.UpdatePortGroupBody{}
	body.Fault_ = s.locked(ctx, func() *soap.Fault { return s.updatePortGroup(req.PgName, req.Portgrp) })
	if body.Fault_ == nil {
		body.Res = &types.UpdatePortGroupResponse{}
	}
	return body
}

func (s *hostNetwork) updatePortGroup(name string, spec types.HostPortGroupSpec) *soap.Fault {
	pg := s.portgroup(name)
	if pg == nil {
		return notFound("port group " + name)
	}
	vswitch := s.vswitch(spec.VswitchName)
	if vswitch == nil {
		return notFound("virtual switch " + spec.VswitchName)
	}
	if spec.Name == "" {
		return invalidArgument("portgrp.name", "empty")
	}
	if spec.Name != name && s.portgroup(spec.Name) != nil {
		return simulator.Fault("port group "+spec.Name+" already exists", &types.AlreadyExists{Name: spec.Name})
	}
	if spec.VlanId < 0 || spec.VlanId > 4095 {
		return invalidArgument("portgrp.vlanId", fmt.Sprintf("%d is not in [0,4095]", spec.VlanId))
	}
	if fault := checkTeaming(spec.Policy.NicTeaming, bridgeNics(vswitch.Spec), "portgrp.policy.nicTeaming"); fault != nil {
		return fault
	}
	oldKey := pg.Key
	pg.Spec = spec
	pg.Key, pg.Vswitch = pgKey(spec.Name), vswitch.Key
	for i := range s.NetworkInfo.Vswitch {
		vs := &s.NetworkInfo.Vswitch[i]
		vs.Portgroup = slices.DeleteFunc(vs.Portgroup, func(key string) bool { return key == oldKey })
		if vs.Name == spec.VswitchName {
			vs.Portgroup = append(vs.Portgroup, pg.Key)
		}
	}
	for i := range s.NetworkInfo.Vnic {
		if vnic := &s.NetworkInfo.Vnic[i]; vnic.Portgroup == name {
			vnic.Portgroup, vnic.Spec.Portgroup = spec.Name, spec.Name
		}
	}
	s.recompute(vswitch)
	s.syncCandidates()
	return nil
}

// UpdateVirtualNic reconfigures a VMkernel port: a property the spec sets replaces the current one
// (the port group or distributed port "indicates the new portgroup to which the virtual NIC should
// connect"), one it leaves unset is kept. Faults: NotFound (no such vmk, port group or distributed
// switch port group), InvalidArgument (an MTU ESXi refuses, both a port group and a distributed port).
func (s *hostNetwork) UpdateVirtualNic(ctx *simulator.Context, req *types.UpdateVirtualNic) soap.HasFault {
	body := &methods.UpdateVirtualNicBody{}
	body.Fault_ = s.locked(ctx, func() *soap.Fault { return s.updateVirtualNic(ctx, req.Device, req.Nic) })
	if body.Fault_ == nil {
		body.Res = &types.UpdateVirtualNicResponse{}
	}
	return body
}

func (s *hostNetwork) updateVirtualNic(ctx *simulator.Context, device string, spec types.HostVirtualNicSpec) *soap.Fault {
	vnic := s.vnic(device)
	if vnic == nil {
		return notFound("virtual NIC " + device)
	}
	if spec.Mtu != 0 && (spec.Mtu < minMtu || spec.Mtu > maxMtu) {
		return invalidArgument("nic.mtu", fmt.Sprintf("%d is not between %d and %d", spec.Mtu, minMtu, maxMtu))
	}
	if spec.Portgroup != "" && spec.DistributedVirtualPort != nil {
		return invalidArgument("nic.portgroup", "a port group and a distributed virtual port exclude each other")
	}
	if spec.Portgroup != "" && s.portgroup(spec.Portgroup) == nil {
		return notFound("port group " + spec.Portgroup)
	}
	if port := spec.DistributedVirtualPort; port != nil {
		if fault := s.checkDvPort(ctx, port); fault != nil {
			return fault
		}
	}
	current := &vnic.Spec
	if spec.Ip != nil {
		current.Ip = spec.Ip
	}
	if spec.Mac != "" {
		current.Mac = spec.Mac
	}
	if spec.Mtu != 0 {
		current.Mtu = spec.Mtu
	}
	if spec.TsoEnabled != nil {
		current.TsoEnabled = spec.TsoEnabled
	}
	if spec.Portgroup != "" {
		current.Portgroup, current.DistributedVirtualPort, vnic.Portgroup = spec.Portgroup, nil, spec.Portgroup
	}
	if port := spec.DistributedVirtualPort; port != nil {
		connection := *port
		if connection.PortKey == "" {
			connection.PortKey = fmt.Sprintf("%d", 100+slices.IndexFunc(s.NetworkInfo.Vnic, func(v types.HostVirtualNic) bool { return v.Device == device }))
		}
		current.DistributedVirtualPort, current.Portgroup, vnic.Portgroup = &connection, "", ""
	}
	s.syncCandidates()
	return nil
}

// checkDvPort: the distributed switch must be one the host is a member of, and the port group one of its own.
func (s *hostNetwork) checkDvPort(ctx *simulator.Context, port *types.DistributedVirtualSwitchPortConnection) *soap.Fault {
	member := slices.ContainsFunc(s.NetworkInfo.ProxySwitch, func(p types.HostProxySwitch) bool { return p.DvsUuid == port.SwitchUuid })
	if !member {
		return notFound("distributed virtual switch " + port.SwitchUuid + " on this host")
	}
	if port.PortgroupKey == "" {
		return nil
	}
	for _, obj := range ctx.Map.All("DistributedVirtualPortgroup") {
		pg, ok := obj.(*simulator.DistributedVirtualPortgroup)
		if !ok || pg.Key != port.PortgroupKey || pg.Config.DistributedVirtualSwitch == nil {
			continue
		}
		if dvs, ok := ctx.Map.Get(*pg.Config.DistributedVirtualSwitch).(*simulator.DistributedVirtualSwitch); ok && dvs.Uuid == port.SwitchUuid {
			return nil
		}
	}
	return notFound("distributed port group " + port.PortgroupKey + " on switch " + port.SwitchUuid)
}

// syncCandidates refreshes the copies of the vmks in config.virtualNicManagerInfo (build.go: nicManagerInfo).
func (s *hostNetwork) syncCandidates() {
	info := s.Host.Config.VirtualNicManagerInfo
	if info == nil {
		return
	}
	for i := range info.NetConfig {
		for j := range info.NetConfig[i].CandidateVnic {
			candidate := &info.NetConfig[i].CandidateVnic[j]
			if vnic := s.vnic(candidate.Device); vnic != nil {
				key := candidate.Key
				*candidate = *vnic
				candidate.Key = key
			}
		}
	}
}

// UpdatePhysicalNicLinkSpeed forces the adapter's speed and duplex, or with no linkSpeed sets it to
// auto-negotiate. Faults: NotFound (no such adapter), InvalidArgument (a speed the adapter does not
// offer: not in its validLinkSpecification, when the host lists them). A forced link that is up runs
// at what was forced; an auto-negotiating one keeps its speed: the simulator has no link partner.
func (s *hostNetwork) UpdatePhysicalNicLinkSpeed(ctx *simulator.Context, req *types.UpdatePhysicalNicLinkSpeed) soap.HasFault {
	body := &methods.UpdatePhysicalNicLinkSpeedBody{}
	body.Fault_ = s.locked(ctx, func() *soap.Fault { return s.updateLinkSpeed(req.Device, req.LinkSpeed) })
	if body.Fault_ == nil {
		body.Res = &types.UpdatePhysicalNicLinkSpeedResponse{}
	}
	return body
}

func (s *hostNetwork) updateLinkSpeed(device string, speed *types.PhysicalNicLinkInfo) *soap.Fault {
	nic := s.pnic(device)
	if nic == nil {
		return notFound("physical NIC " + device)
	}
	if speed != nil {
		if speed.SpeedMb <= 0 {
			return invalidArgument("linkSpeed.speedMb", fmt.Sprintf("%d", speed.SpeedMb))
		}
		if len(nic.ValidLinkSpecification) > 0 && !slices.Contains(nic.ValidLinkSpecification, *speed) {
			return invalidArgument("linkSpeed", fmt.Sprintf("%s does not offer %d Mb/s, duplex %v", device, speed.SpeedMb, speed.Duplex))
		}
		forced := *speed
		nic.Spec.LinkSpeed = &forced
		if nic.LinkSpeed != nil {
			actual := forced
			nic.LinkSpeed = &actual
		}
		return nil
	}
	nic.Spec.LinkSpeed = nil
	return nil
}
