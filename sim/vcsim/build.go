package main

// Building the simulator inventory from a scenario. The simulator has no SOAP
// methods for most of this state (LAGs, CDP hints, pNIC speeds, computed port
// group policies), so it is written into the managed objects before serving,
// the way a real ESXi host would report it.

import (
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"sort"
	"strings"

	"github.com/vmware/govmomi/object"
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25"
	"github.com/vmware/govmomi/vim25/types"
)

// Services every ESXi host offers on its VMkernel ports (VirtualNicManager nicTypes).
var standardNicTypes = []string{
	"management", "vmotion", "faultToleranceLogging", "vSphereReplication",
	"vSphereReplicationNFC", "vSphereProvisioning", "vsan",
}

type builtDvs struct {
	ref        types.ManagedObjectReference
	uuid       string
	portgroups map[string]string // name -> key
	uplinkPg   string
}

type inventory struct {
	model  *simulator.Model
	client *vim25.Client
	hosts  map[string]*simulator.HostSystem
	dvs    map[string]*builtDvs
	// Datacenters by name ("" is the simulator's own), each with the cluster its hosts join.
	datacenters map[string]*place
}

type place struct {
	datacenter *object.Datacenter
	cluster    types.ManagedObjectReference
}

// newUUID is a random (version 4) UUID, as each real vCenter's instance UUID is its own.
func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// placeFor is the datacenter `name` (created with a cluster on first use); "" is the simulator's own.
func (inv *inventory) placeFor(ctx context.Context, name string) (*place, error) {
	if found, ok := inv.datacenters[name]; ok {
		return found, nil
	}
	if existing := inv.datacenters[""]; existing != nil && existing.datacenter.Name() == name {
		inv.datacenters[name] = existing
		return existing, nil
	}
	root := object.NewRootFolder(inv.client)
	dc, err := root.CreateDatacenter(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("datacenter %s: %w", name, err)
	}
	folders, err := dc.Folders(ctx)
	if err != nil {
		return nil, err
	}
	cluster, err := folders.HostFolder.CreateCluster(ctx, name+"-cluster", types.ClusterConfigSpecEx{})
	if err != nil {
		return nil, fmt.Errorf("cluster in %s: %w", name, err)
	}
	found := &place{datacenter: dc, cluster: cluster.Reference()}
	inv.datacenters[name] = found
	return found, nil
}

func pnicKey(name string) string { return "key-vim.host.PhysicalNic-" + name }
func vnicKey(name string) string { return "key-vim.host.VirtualNic-" + name }
func pgKey(name string) string   { return "key-vim.host.PortGroup-" + name }
func vswKey(name string) string  { return "key-vim.host.VirtualSwitch-" + name }

func boolOr(v *bool, fallback bool) bool {
	if v == nil {
		return fallback
	}
	return *v
}

// Build creates the inventory: one datacenter and cluster holding every scenario host
// (vCenter), or the single host of a standalone ESXi.
// The cleanup function removes the model and the files it made.
func Build(ctx context.Context, sc *Scenario, esx bool) (*simulator.Model, func(), error) {
	var model *simulator.Model
	if esx {
		if len(sc.Hosts) != 1 {
			return nil, nil, fmt.Errorf("a standalone ESXi scenario has exactly one host, found %d", len(sc.Hosts))
		}
		model = simulator.ESX()
		if len(sc.DistributedSwitches) > 0 {
			return nil, nil, fmt.Errorf("a standalone ESXi host has no distributed switches")
		}
	} else {
		model = simulator.VPX()
		model.ClusterHost = 0
		model.Host = 0
		model.Portgroup = 0
	}
	model.Machine = 0
	model.Datastore = 0
	model.Autostart = false
	if err := model.Create(); err != nil {
		return nil, nil, err
	}
	// Report a current release, so clients negotiate the API version they would use in the field.
	about := &model.Map().Get(vim25.ServiceInstance).(*simulator.ServiceInstance).Content.About
	about.Version, about.ApiVersion, about.Build = "8.0.3", "8.0.3.0", "24022515"
	about.FullName = fmt.Sprintf("%s 8.0.3 build-24022515 (hostlint vcsim)", about.Name)
	if !esx {
		about.InstanceUuid = sc.InstanceUuid
		if about.InstanceUuid == "" {
			about.InstanceUuid = newUUID()
		}
	}
	client, err := vim25.NewClient(ctx, model.Service)
	if err != nil {
		model.Remove()
		return nil, nil, err
	}
	inv := &inventory{
		model: model, client: client, hosts: map[string]*simulator.HostSystem{}, dvs: map[string]*builtDvs{},
		datacenters: map[string]*place{},
	}
	if !esx {
		dcRef := model.Map().Any("Datacenter").Reference()
		inv.datacenters[""] = &place{
			datacenter: object.NewDatacenter(client, dcRef),
			cluster:    model.Map().Any("ClusterComputeResource").Reference(),
		}
		inv.datacenters[""].datacenter.InventoryPath = "/" + model.Map().Get(dcRef).(*simulator.Datacenter).Name
	}
	if esx {
		host := model.Map().Any("HostSystem").(*simulator.HostSystem)
		host.Name = sc.Hosts[0].Name
		host.Summary.Config.Name = sc.Hosts[0].Name
		inv.hosts[sc.Hosts[0].Name] = host
	} else if err := inv.addHosts(ctx, sc.Hosts); err != nil {
		model.Remove()
		return nil, nil, err
	}
	for _, d := range sc.DistributedSwitches {
		if err := inv.addDvs(ctx, d); err != nil {
			model.Remove()
			return nil, nil, fmt.Errorf("distributed switch %s: %w", d.Name, err)
		}
		if err := inv.setHealth(d); err != nil {
			model.Remove()
			return nil, nil, fmt.Errorf("distributed switch %s: %w", d.Name, err)
		}
	}
	vmDir, err := inv.addVms(ctx, sc.Hosts)
	cleanup := func() {
		model.Remove()
		if vmDir != "" {
			os.RemoveAll(vmDir)
		}
	}
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	for _, h := range sc.Hosts {
		if err := inv.configureHost(h, sc.DistributedSwitches); err != nil {
			cleanup()
			return nil, nil, fmt.Errorf("host %s: %w", h.Name, err)
		}
	}
	if err := inv.unset(sc.Unset); err != nil {
		cleanup()
		return nil, nil, err
	}
	return model, cleanup, nil
}

// unset leaves optional API properties unset, after everything else is built (the simulator's own
// methods need them while building).
func (inv *inventory) unset(props []Unset) error {
	for _, u := range props {
		switch {
		case u.Host != "" && u.Property == "config.network":
			host, ok := inv.hosts[u.Host]
			if !ok {
				return fmt.Errorf("unset: no host %s", u.Host)
			}
			host.Config.Network = nil
		case u.Dvs != "":
			built, ok := inv.dvs[dvsKey("", u.Dvs)]
			if !ok {
				return fmt.Errorf("unset: no distributed switch %s", u.Dvs)
			}
			sim := inv.model.Map().Get(built.ref).(*simulator.DistributedVirtualSwitch)
			config := sim.Config.(*types.VMwareDVSConfigInfo)
			switch {
			case u.Property == "config":
				sim.Config = nil
			case u.Property == "maxMtu":
				config.MaxMtu = 0
			case u.Property == "healthCheckConfig":
				config.HealthCheckConfig = nil
			case u.Property == "runtime":
				sim.Runtime = nil
			case u.Property == "uplinkNum" && u.Lag != "":
				found := false
				for i := range config.LacpGroupConfig {
					if config.LacpGroupConfig[i].Name == u.Lag {
						config.LacpGroupConfig[i].UplinkNum = 0
						found = true
					}
				}
				if !found {
					return fmt.Errorf("unset: no LAG %s on %s", u.Lag, u.Dvs)
				}
			default:
				return fmt.Errorf("unset: %s of a distributed switch is not supported", u.Property)
			}
		default:
			return fmt.Errorf("unset: %+v is not supported", u)
		}
	}
	return nil
}

func (inv *inventory) addHosts(ctx context.Context, hosts []Host) error {
	for _, h := range hosts {
		where, err := inv.placeFor(ctx, h.Datacenter)
		if err != nil {
			return err
		}
		cluster := object.NewClusterComputeResource(inv.client, where.cluster)
		task, err := cluster.AddHost(ctx, types.HostConnectSpec{HostName: h.Name}, true, nil, nil)
		if err != nil {
			return err
		}
		info, err := task.WaitForResult(ctx, nil)
		if err != nil {
			return fmt.Errorf("adding host %s: %w", h.Name, err)
		}
		ref := info.Result.(types.ManagedObjectReference)
		inv.hosts[h.Name] = inv.model.Map().Get(ref).(*simulator.HostSystem)
	}
	return nil
}

func hostTeaming(t *Teaming) *types.HostNicTeamingPolicy {
	if t == nil {
		t = &Teaming{}
	}
	policy := t.Policy
	if policy == "" {
		policy = "loadbalance_srcid"
	}
	return &types.HostNicTeamingPolicy{
		Policy:          policy,
		ReversePolicy:   types.NewBool(true),
		NotifySwitches:  types.NewBool(boolOr(t.NotifySwitches, true)),
		RollingOrder:    types.NewBool(!boolOr(t.Failback, true)),
		FailureCriteria: &types.HostNicFailureCriteria{CheckSpeed: "minimum", CheckBeacon: types.NewBool(t.FailureDetection == "beacon")},
		NicOrder:        &types.HostNicOrderPolicy{ActiveNic: t.Active, StandbyNic: t.Standby},
	}
}

// portgroupTeaming gives a port group's spec.policy.nicTeaming (only its pinned fields set, the
// rest unset = inherited, as ESXi reports it) and its computed policy. Without teaming_set a port
// group with teaming pins every field and one without inherits every field.
func portgroupTeaming(vswitch *types.HostNicTeamingPolicy, pg PortGroup) (*types.HostNicTeamingPolicy, *types.HostNicTeamingPolicy, error) {
	set := pg.TeamingSet
	if set == nil {
		if pg.Teaming == nil {
			return nil, vswitch, nil
		}
		pinned := hostTeaming(pg.Teaming)
		return pinned, pinned, nil
	}
	values := vswitch
	if pg.Teaming != nil {
		values = hostTeaming(pg.Teaming)
	}
	override := &types.HostNicTeamingPolicy{}
	computed := *vswitch
	for field, how := range map[string]string{
		"policy": set.Policy, "failure_detection": set.FailureDetection, "notify_switches": set.NotifySwitches,
		"failback": set.Failback, "order": set.Order,
	} {
		switch how {
		case "inherited":
			continue
		case "pinned":
		default:
			return nil, nil, fmt.Errorf("teaming_set.%s: %q is neither pinned nor inherited", field, how)
		}
		switch field {
		case "policy":
			override.Policy, computed.Policy = values.Policy, values.Policy
		case "failure_detection":
			beacon := values.FailureCriteria.CheckBeacon
			override.FailureCriteria = &types.HostNicFailureCriteria{CheckBeacon: beacon}
			computed.FailureCriteria = &types.HostNicFailureCriteria{CheckSpeed: "minimum", CheckBeacon: beacon}
		case "notify_switches":
			override.NotifySwitches, computed.NotifySwitches = values.NotifySwitches, values.NotifySwitches
		case "failback":
			override.RollingOrder, computed.RollingOrder = values.RollingOrder, values.RollingOrder
		case "order":
			override.NicOrder, computed.NicOrder = values.NicOrder, values.NicOrder
		}
	}
	return override, &computed, nil
}

func dvsTeaming(t *Teaming) *types.VmwareUplinkPortTeamingPolicy {
	if t == nil {
		t = &Teaming{}
	}
	policy := t.Policy
	if policy == "" {
		policy = "loadbalance_srcid"
	}
	return &types.VmwareUplinkPortTeamingPolicy{
		Policy:          &types.StringPolicy{Value: policy},
		ReversePolicy:   &types.BoolPolicy{Value: types.NewBool(true)},
		NotifySwitches:  &types.BoolPolicy{Value: types.NewBool(boolOr(t.NotifySwitches, true))},
		RollingOrder:    &types.BoolPolicy{Value: types.NewBool(!boolOr(t.Failback, true))},
		FailureCriteria: &types.DVSFailureCriteria{CheckBeacon: &types.BoolPolicy{Value: types.NewBool(t.FailureDetection == "beacon")}},
		UplinkPortOrder: &types.VMwareUplinkPortOrderPolicy{ActiveUplinkPort: t.Active, StandbyUplinkPort: t.Standby},
	}
}

func discovery(d *Discovery) *types.LinkDiscoveryProtocolConfig {
	if d == nil {
		return &types.LinkDiscoveryProtocolConfig{Protocol: "cdp", Operation: "listen"}
	}
	return &types.LinkDiscoveryProtocolConfig{Protocol: d.Protocol, Operation: d.Operation}
}

// uplinkNames are the DVS's plain uplink ports: those the hosts map that are not LAG ports.
func uplinkNames(d Dvs) []string {
	seen := map[string]bool{}
	for _, member := range d.Hosts {
		for port := range member.Uplinks {
			if !isLagPort(d, port) {
				seen[port] = true
			}
		}
	}
	if len(seen) == 0 {
		return []string{"uplink1", "uplink2"}
	}
	names := make([]string, 0, len(seen))
	for name := range seen {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func isLagPort(d Dvs, port string) bool {
	for _, lag := range d.Lags {
		if strings.HasPrefix(port, lag.Name+"-") {
			return true
		}
	}
	return false
}

func (inv *inventory) addDvs(ctx context.Context, d Dvs) error {
	where, err := inv.placeFor(ctx, d.Datacenter)
	if err != nil {
		return err
	}
	folders, err := where.datacenter.Folders(ctx)
	if err != nil {
		return err
	}
	maxMtu := d.MaxMtu
	if maxMtu == 0 {
		maxMtu = 1500
	}
	spec := types.DVSCreateSpec{ConfigSpec: &types.VMwareDVSConfigSpec{
		DVSConfigSpec: types.DVSConfigSpec{
			Name:             d.Name,
			UplinkPortPolicy: &types.DVSNameArrayUplinkPortPolicy{UplinkPortName: uplinkNames(d)},
		},
		MaxMtu:                      maxMtu,
		LinkDiscoveryProtocolConfig: discovery(d.Discovery),
		LacpApiVersion:              d.LacpApiVersion,
	}}
	task, err := folders.NetworkFolder.CreateDVS(ctx, spec)
	if err != nil {
		return err
	}
	info, err := task.WaitForResult(ctx, nil)
	if err != nil {
		return err
	}
	ref := info.Result.(types.ManagedObjectReference)
	// The simulator derives a switch's UUID from its name; a real vCenter gives each switch its own,
	// which is what tells two datacenters' `DSwitch` apart.
	created := inv.model.Map().Get(ref).(*simulator.DistributedVirtualSwitch)
	created.Uuid = newUUID()
	created.Summary.Uuid = created.Uuid
	created.Config.GetDVSConfigInfo().Uuid = created.Uuid
	dvs := object.NewDistributedVirtualSwitch(inv.client, ref)
	var pgSpecs []types.DVPortgroupConfigSpec
	var uplinkPg *DvPortgroup
	for i, pg := range d.Portgroups {
		if pg.Uplink {
			uplinkPg = &d.Portgroups[i]
			continue
		}
		pgSpecs = append(pgSpecs, types.DVPortgroupConfigSpec{
			Name:     pg.Name,
			Type:     string(types.DistributedVirtualPortgroupPortgroupTypeEarlyBinding),
			NumPorts: 8,
			DefaultPortConfig: &types.VMwareDVSPortSetting{
				Vlan:                dvsVlan(pg),
				UplinkTeamingPolicy: dvsTeaming(pg.Teaming),
			},
		})
	}
	if len(pgSpecs) > 0 {
		task, err = dvs.AddPortgroup(ctx, pgSpecs)
		if err != nil {
			return err
		}
		if err := task.Wait(ctx); err != nil {
			return err
		}
	}
	var members []types.DistributedVirtualSwitchHostMemberConfigSpec
	for _, member := range d.Hosts {
		host, ok := inv.hosts[member.Host]
		if !ok {
			return fmt.Errorf("member host %s is not in esxi_hosts", member.Host)
		}
		members = append(members, types.DistributedVirtualSwitchHostMemberConfigSpec{
			Operation: string(types.ConfigSpecOperationAdd),
			Host:      host.Reference(),
		})
	}
	if len(members) > 0 {
		task, err = dvs.Reconfigure(ctx, &types.DVSConfigSpec{Host: members})
		if err != nil {
			return err
		}
		if err := task.Wait(ctx); err != nil {
			return err
		}
	}

	sim := inv.model.Map().Get(ref).(*simulator.DistributedVirtualSwitch)
	config := sim.Config.(*types.VMwareDVSConfigInfo)
	for i, lag := range d.Lags {
		mode, balance, count := lag.Mode, lag.LoadBalance, lag.UplinkCount
		if mode == "" {
			mode = "active"
		}
		if balance == "" {
			balance = "srcDestIpTcpUdpPortVlan"
		}
		if count == 0 {
			count = 2
		}
		var names []string
		for n := int32(0); n < count; n++ {
			names = append(names, fmt.Sprintf("%s-%d", lag.Name, n))
		}
		config.LacpGroupConfig = append(config.LacpGroupConfig, types.VMwareDvsLacpGroupConfig{
			Key:                  fmt.Sprintf("%d", i+1),
			Name:                 lag.Name,
			Mode:                 mode,
			UplinkNum:            count,
			LoadbalanceAlgorithm: balance,
			UplinkName:           names,
		})
	}
	built := &builtDvs{ref: ref, uuid: sim.Uuid, portgroups: map[string]string{}}
	for _, pgRef := range sim.Portgroup {
		pg := inv.model.Map().Get(pgRef).(*simulator.DistributedVirtualPortgroup)
		built.portgroups[pg.Name] = pg.Key
		for _, want := range d.Portgroups {
			if want.Name == pg.Name && want.Backing == "nsx" {
				// NSX creates these (ephemeral, backingType nsx); their teaming is the uplink profile's,
				// not in the vCenter port setting.
				pg.Config.BackingType = "nsx"
				pg.Config.Type = string(types.DistributedVirtualPortgroupPortgroupTypeEphemeral)
				pg.Config.LogicalSwitchUuid = newUUID()
				pg.Config.DefaultPortConfig.(*types.VMwareDVSPortSetting).UplinkTeamingPolicy = nil
			}
		}
		if strings.Contains(pg.Name, "-DVUplinks") {
			pg.Config.Uplink = types.NewBool(true)
			built.uplinkPg = pg.Key
			config.UplinkPortgroup = []types.ManagedObjectReference{pgRef}
			if uplinkPg != nil {
				delete(built.portgroups, pg.Name)
				pg.Name, pg.Config.Name = uplinkPg.Name, uplinkPg.Name
				built.portgroups[pg.Name] = pg.Key
				setting := pg.Config.DefaultPortConfig.(*types.VMwareDVSPortSetting)
				setting.UplinkTeamingPolicy = dvsTeaming(uplinkPg.Teaming)
				if uplinkPg.Lacp != "" {
					// Basic LACP (lacpApiVersion singleLag): VMwareUplinkLacpPolicy on the uplink port group.
					mode := uplinkPg.Lacp
					if mode == "off" {
						mode = "active"
					}
					setting.LacpPolicy = &types.VMwareUplinkLacpPolicy{
						Enable: &types.BoolPolicy{Value: types.NewBool(uplinkPg.Lacp != "off")},
						Mode:   &types.StringPolicy{Value: mode},
					}
				}
			}
		}
	}
	inv.dvs[dvsKey(d.Datacenter, d.Name)] = built
	return nil
}

func prefixMask(prefix int, ip string) string {
	if prefix == 0 {
		return ""
	}
	bits := 32
	if parsed := net.ParseIP(ip); parsed != nil && parsed.To4() == nil {
		bits = 128
	}
	return net.IP(net.CIDRMask(prefix, bits)).String()
}

func (inv *inventory) configureHost(h Host, switches []Dvs) error {
	host := inv.hosts[h.Name]
	network := &types.HostNetworkInfo{}
	for _, p := range h.Pnics {
		nic := types.PhysicalNic{Key: pnicKey(p.Name), Device: p.Name, Pci: p.Pci, Driver: p.Driver, Mac: p.Mac}
		if boolOr(p.LinkUp, true) && p.SpeedMbps > 0 {
			nic.LinkSpeed = &types.PhysicalNicLinkInfo{SpeedMb: p.SpeedMbps, Duplex: p.Duplex != "half"}
		}
		if p.ConfiguredSpeedMbps > 0 {
			nic.Spec.LinkSpeed = &types.PhysicalNicLinkInfo{SpeedMb: p.ConfiguredSpeedMbps, Duplex: p.ConfiguredDuplex != "half"}
		}
		network.Pnic = append(network.Pnic, nic)
	}
	vswitchPolicy := map[string]*types.HostNicTeamingPolicy{}
	for _, vs := range h.VSwitches {
		mtu := vs.Mtu
		if mtu == 0 {
			mtu = 1500
		}
		teaming := hostTeaming(vs.Teaming)
		vswitchPolicy[vs.Name] = teaming
		var pnics, pgs []string
		for _, nic := range vs.Uplinks {
			pnics = append(pnics, pnicKey(nic))
		}
		for _, pg := range h.Portgroups {
			if pg.VSwitch == vs.Name {
				pgs = append(pgs, pgKey(pg.Name))
			}
		}
		network.Vswitch = append(network.Vswitch, types.HostVirtualSwitch{
			Name: vs.Name, Key: vswKey(vs.Name), NumPorts: 128, NumPortsAvailable: 120, Mtu: mtu,
			Portgroup: pgs, Pnic: pnics,
			Spec: types.HostVirtualSwitchSpec{
				NumPorts: 128, Mtu: mtu,
				Bridge: &types.HostVirtualSwitchBondBridge{
					NicDevice:                   vs.Uplinks,
					LinkDiscoveryProtocolConfig: discovery(vs.Discovery),
				},
				Policy: &types.HostNetworkPolicy{NicTeaming: teaming},
			},
		})
	}
	for _, pg := range h.Portgroups {
		vswitch, ok := vswitchPolicy[pg.VSwitch]
		if !ok {
			return fmt.Errorf("port group %s: no vSwitch %s", pg.Name, pg.VSwitch)
		}
		override, computed, err := portgroupTeaming(vswitch, pg)
		if err != nil {
			return fmt.Errorf("port group %s: %w", pg.Name, err)
		}
		network.Portgroup = append(network.Portgroup, types.HostPortGroup{
			Key: pgKey(pg.Name), Vswitch: vswKey(pg.VSwitch),
			ComputedPolicy: types.HostNetworkPolicy{NicTeaming: computed},
			Spec: types.HostPortGroupSpec{
				Name: pg.Name, VlanId: pg.Vlan, VswitchName: pg.VSwitch,
				Policy: types.HostNetworkPolicy{NicTeaming: override},
			},
		})
	}
	for _, vmk := range h.Vmks {
		mtu := vmk.Mtu
		if mtu == 0 {
			mtu = 1500
		}
		nic := types.HostVirtualNic{
			Device: vmk.Name, Key: vnicKey(vmk.Name),
			Spec: types.HostVirtualNicSpec{
				Ip:                  &types.HostIpConfig{IpAddress: vmk.IP, SubnetMask: prefixMask(vmk.Prefix, vmk.IP)},
				Mac:                 vmk.Mac,
				Mtu:                 mtu,
				NetStackInstanceKey: vmk.Netstack,
			},
		}
		if vmk.Network == "opaque" {
			nic.Spec.OpaqueNetwork = &types.HostVirtualNicOpaqueNetworkSpec{
				OpaqueNetworkId: vmk.OpaqueNetwork, OpaqueNetworkType: "nsx.LogicalSwitch",
			}
			if vmk.Portgroup != "" {
				// The segment as the host lists it (config.network.opaqueNetwork): its name.
				network.OpaqueNetwork = append(network.OpaqueNetwork, types.HostOpaqueNetworkInfo{
					OpaqueNetworkId: vmk.OpaqueNetwork, OpaqueNetworkName: vmk.Portgroup, OpaqueNetworkType: "nsx.LogicalSwitch",
				})
			}
		} else if vmk.DvSwitch != "" {
			dvs, ok := inv.dvs[dvsKey(h.Datacenter, vmk.DvSwitch)]
			if !ok {
				return fmt.Errorf("%s: no distributed switch %s", vmk.Name, vmk.DvSwitch)
			}
			key := ""
			if vmk.Portgroup != "" {
				if key, ok = dvs.portgroups[vmk.Portgroup]; !ok {
					return fmt.Errorf("%s: no port group %s on %s", vmk.Name, vmk.Portgroup, vmk.DvSwitch)
				}
			}
			nic.Spec.DistributedVirtualPort = &types.DistributedVirtualSwitchPortConnection{
				SwitchUuid: dvs.uuid, PortgroupKey: key, PortKey: fmt.Sprintf("%d", 100+len(network.Vnic)),
			}
		} else {
			nic.Portgroup = vmk.Portgroup
			nic.Spec.Portgroup = vmk.Portgroup
		}
		network.Vnic = append(network.Vnic, nic)
	}
	for _, d := range switches {
		for _, member := range d.Hosts {
			if member.Host == h.Name {
				network.ProxySwitch = append(network.ProxySwitch, inv.proxySwitch(d, member))
			}
		}
	}
	host.Config.Network = network
	host.Config.VirtualNicManagerInfo = nicManagerInfo(h.Vmks, network.Vnic)
	host.Config.StorageDevice = storageDevice(host.Config.StorageDevice, h.IscsiAdapters, h.Pnics)
	if h.Version != "" {
		host.Config.Product.Version = h.Version
		host.Summary.Config.Product = &host.Config.Product
	}
	host.Hardware.PciDevice = pciDevices(h.PciDevices)
	if h.ConnectionState != "" {
		host.Runtime.ConnectionState = types.HostSystemConnectionState(h.ConnectionState)
	}
	if h.InMaintenance != nil {
		host.Runtime.InMaintenanceMode = *h.InMaintenance
	}

	netSystem := inv.model.Map().Get(*host.ConfigManager.NetworkSystem).(*simulator.HostNetworkSystem)
	netSystem.NetworkInfo = network
	netSystem.QueryNetworkHintResponse.Returnval = hints(h.Pnics)
	inv.model.Map().Put(&hostNetwork{netSystem})

	iscsi := newIscsiManager(h.IscsiAdapters, network.Vnic, h.VSwitches, h.Portgroups)
	ref := inv.model.Map().Put(iscsi).Reference()
	host.ConfigManager.IscsiManager = &ref
	return nil
}

func (inv *inventory) proxySwitch(d Dvs, member DvsHostMember) types.HostProxySwitch {
	built := inv.dvs[dvsKey(d.Datacenter, d.Name)]
	ports := make([]string, 0, len(member.Uplinks))
	for port := range member.Uplinks {
		ports = append(ports, port)
	}
	sort.Strings(ports)
	proxy := types.HostProxySwitch{
		DvsUuid: built.uuid, DvsName: d.Name, Key: built.uuid, NumPorts: 512, NumPortsAvailable: 500, Mtu: d.MaxMtu,
	}
	if member.Mtu != nil {
		proxy.Mtu = *member.Mtu // a host whose proxy switch has not (yet) taken the switch's MTU
	}
	backing := &types.DistributedVirtualSwitchHostMemberPnicBacking{}
	for i, port := range ports {
		key := uplinkPortKey(i)
		proxy.UplinkPort = append(proxy.UplinkPort, types.KeyValue{Key: key, Value: port})
		proxy.Pnic = append(proxy.Pnic, pnicKey(member.Uplinks[port]))
		backing.PnicSpec = append(backing.PnicSpec, types.DistributedVirtualSwitchHostMemberPnicSpec{
			PnicDevice: member.Uplinks[port], UplinkPortKey: key, UplinkPortgroupKey: built.uplinkPg,
		})
	}
	proxy.Spec.Backing = backing
	return proxy
}

func nicManagerInfo(vmks []Vmk, vnics []types.HostVirtualNic) *types.HostVirtualNicManagerInfo {
	nicTypes := append([]string{}, standardNicTypes...)
	for _, vmk := range vmks {
		for _, service := range vmk.Services {
			found := false
			for _, known := range nicTypes {
				found = found || known == service
			}
			if !found {
				nicTypes = append(nicTypes, service)
			}
		}
	}
	info := &types.HostVirtualNicManagerInfo{}
	for _, nicType := range nicTypes {
		config := types.VirtualNicManagerNetConfig{NicType: nicType, MultiSelectAllowed: true}
		for i, vnic := range vnics {
			candidate := vnic
			candidate.Key = nicType + "." + vnic.Key
			config.CandidateVnic = append(config.CandidateVnic, candidate)
			for _, service := range vmks[i].Services {
				if service == nicType {
					config.SelectedVnic = append(config.SelectedVnic, candidate.Key)
				}
			}
		}
		info.NetConfig = append(info.NetConfig, config)
	}
	return info
}

func storageDevice(current *types.HostStorageDeviceInfo, adapters []IscsiAdapter, pnics []Pnic) *types.HostStorageDeviceInfo {
	info := &types.HostStorageDeviceInfo{}
	if current != nil {
		for _, hba := range current.HostBusAdapter {
			if _, isIscsi := hba.(*types.HostInternetScsiHba); !isIscsi {
				info.HostBusAdapter = append(info.HostBusAdapter, hba)
			}
		}
	}
	for _, a := range adapters {
		pci := ""
		for _, p := range pnics {
			if a.Kind == "dependent" && p.Name == a.Pnic {
				pci = p.Pci
			}
		}
		binding := types.HostInternetScsiHbaNetworkBindingSupportTypeOptional
		software := a.Kind == "" || a.Kind == "software"
		switch a.Kind {
		case "dependent":
			binding = types.HostInternetScsiHbaNetworkBindingSupportTypeRequired
		case "independent":
			binding = types.HostInternetScsiHbaNetworkBindingSupportTypeNotsupported
		}
		hba := &types.HostInternetScsiHba{
			HostHostBusAdapter: types.HostHostBusAdapter{
				Key: "key-vim.host.InternetScsiHba-" + a.Name, Device: a.Name, Status: "online",
				Model: "iSCSI Adapter", Driver: "iscsi_vmk", StorageProtocol: "scsi", Pci: pci,
			},
			IsSoftwareBased:       software,
			NetworkBindingSupport: binding,
			IScsiName:             "iqn.1998-01.com.vmware:" + a.Name,
		}
		for _, target := range a.Targets {
			address, port, err := net.SplitHostPort(target)
			if err != nil {
				address, port = target, "3260"
			}
			var portNum int32
			fmt.Sscan(port, &portNum)
			hba.ConfiguredSendTarget = append(hba.ConfiguredSendTarget, types.HostInternetScsiHbaSendTarget{Address: address, Port: portNum})
		}
		info.HostBusAdapter = append(info.HostBusAdapter, hba)
	}
	return info
}

func pciDevices(devices []PciDevice) []types.HostPciDevice {
	var out []types.HostPciDevice
	for _, d := range devices {
		var bus, slot, function byte
		var domain int
		fmt.Sscanf(d.Address, "%x:%x:%x.%x", &domain, &bus, &slot, &function)
		out = append(out, types.HostPciDevice{
			Id: d.Address, ClassId: 0x0200, Bus: bus, Slot: slot, Function: function,
			VendorName: d.Vendor, DeviceName: d.Device, DeviceClassName: d.DeviceClass,
		})
	}
	return out
}

func hints(pnics []Pnic) []types.PhysicalNicHintInfo {
	var out []types.PhysicalNicHintInfo
	for _, p := range pnics {
		hint := types.PhysicalNicHintInfo{Device: p.Name}
		if n := p.Neighbour; n != nil {
			switch n.Protocol {
			case "lldp":
				info := &types.LinkLayerDiscoveryProtocolInfo{ChassisId: n.DeviceID, PortId: n.PortID, TimeToLive: 120}
				for _, kv := range [][2]string{
					{"Port Description", n.PortDescription}, {"System Name", n.SystemName},
					{"Management Address", n.MgmtAddress}, {"System Description", n.Platform},
				} {
					if kv[1] != "" {
						info.Parameter = append(info.Parameter, types.KeyAnyValue{Key: kv[0], Value: kv[1]})
					}
				}
				hint.LldpInfo = info
			default:
				hint.ConnectedSwitchPort = &types.PhysicalNicCdpInfo{
					CdpVersion: 2, Timeout: 60, Ttl: 180, Samples: 10,
					DevId: n.DeviceID, PortId: n.PortID, HardwarePlatform: n.Platform,
					SystemName: n.SystemName, Address: n.MgmtAddress, MgmtAddr: n.MgmtAddress,
					FullDuplex: types.NewBool(true),
				}
			}
		}
		out = append(out, hint)
	}
	return out
}

// dvsVlan is a distributed port group's VLAN setting: one VLAN (the default), a VLAN trunk of
// ranges (`vlan_spec: trunk`) or a private VLAN (`vlan_spec: pvlan`).
func dvsVlan(pg DvPortgroup) types.BaseVmwareDistributedVirtualSwitchVlanSpec {
	switch pg.VlanSpec {
	case "trunk":
		var ranges []types.NumericRange
		for _, r := range pg.TrunkRanges {
			ranges = append(ranges, types.NumericRange{Start: r[0], End: r[1]})
		}
		return &types.VmwareDistributedVirtualSwitchTrunkVlanSpec{VlanId: ranges}
	case "pvlan":
		return &types.VmwareDistributedVirtualSwitchPvlanSpec{PvlanId: pg.Vlan}
	}
	return &types.VmwareDistributedVirtualSwitchVlanIdSpec{VlanId: pg.Vlan}
}

// dvsKey names a distributed switch within the scenario: switch names repeat across datacenters.
func dvsKey(datacenter, name string) string { return datacenter + "/" + name }
