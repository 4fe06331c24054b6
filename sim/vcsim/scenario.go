package main

// A scenario is the ESXi part of a hostlint snapshot (the same field names), so a
// lab's hosts.json can be served as a simulated vCenter as it is, and a collection
// from that vCenter can be compared with the file it was built from.

import (
	"fmt"
	"os"

	"gopkg.in/yaml.v3"
)

type Scenario struct {
	Hosts               []Host `yaml:"esxi_hosts"`
	DistributedSwitches []Dvs  `yaml:"distributed_switches"`
	// The vCenter's instance UUID (about.instanceUuid); default a new random one, as two real vCenters differ.
	InstanceUuid string `yaml:"instance_uuid"`
	// Optional API properties this scenario leaves unset, as a real server may (see Unset).
	Unset []Unset `yaml:"unset"`
}

// Unset names one optional vSphere API property left unset on one object, a shape real servers
// return and the simulator never does: `config.network` of a host, `config` of a distributed switch,
// `uplinkNum` of a LAG (dvs and lag), `maxMtu`, `healthCheckConfig` or `runtime` of a distributed switch (one of
// the default datacenter).
type Unset struct {
	Host     string `yaml:"host"`
	Dvs      string `yaml:"dvs"`
	Lag      string `yaml:"lag"`
	Property string `yaml:"property"`
}

type Teaming struct {
	Policy           string   `yaml:"policy"`
	Active           []string `yaml:"active"`
	Standby          []string `yaml:"standby"`
	Unused           []string `yaml:"unused"`
	FailureDetection string   `yaml:"failure_detection"`
	NotifySwitches   *bool    `yaml:"notify_switches"`
	Failback         *bool    `yaml:"failback"`
}

type Discovery struct {
	Protocol  string `yaml:"protocol"`
	Operation string `yaml:"operation"`
}

type VSwitch struct {
	Name      string     `yaml:"name"`
	Mtu       int32      `yaml:"mtu"`
	Uplinks   []string   `yaml:"uplinks"`
	Teaming   *Teaming   `yaml:"teaming"`
	Discovery *Discovery `yaml:"discovery"`
}

// TeamingSet says, per teaming field, "pinned" (set in the port group) or "inherited" (from the vSwitch).
type TeamingSet struct {
	Policy           string `yaml:"policy"`
	FailureDetection string `yaml:"failure_detection"`
	NotifySwitches   string `yaml:"notify_switches"`
	Failback         string `yaml:"failback"`
	Order            string `yaml:"order"`
}

type PortGroup struct {
	Name       string      `yaml:"name"`
	VSwitch    string      `yaml:"vswitch"`
	Vlan       int32       `yaml:"vlan"`
	Teaming    *Teaming    `yaml:"teaming"`
	TeamingSet *TeamingSet `yaml:"teaming_set"`
}

type Vmk struct {
	Name      string   `yaml:"name"`
	Portgroup string   `yaml:"portgroup"`
	DvSwitch  string   `yaml:"dvswitch"`
	Mtu       int32    `yaml:"mtu"`
	IP        string   `yaml:"ip"`
	Prefix    int      `yaml:"prefix"`
	Mac       string   `yaml:"mac"`
	Services  []string `yaml:"services"`
	Netstack  string   `yaml:"netstack"`
	// "opaque": on an NSX-T segment of an N-VDS (spec.opaqueNetwork), OpaqueNetwork its id and Portgroup
	// its name (listed in config.network.opaqueNetwork; unset: not listed). A vmk with a dvswitch and no
	// portgroup sits on a distributed port of no port group.
	Network       string `yaml:"network"`
	OpaqueNetwork string `yaml:"opaque_network"`
}

type Neighbour struct {
	Protocol    string `yaml:"protocol"`
	DeviceID    string `yaml:"device_id"`
	PortID      string `yaml:"port_id"`
	SystemName  string `yaml:"system_name"`
	MgmtAddress string `yaml:"mgmt_address"`
	Platform    string `yaml:"platform"`
	// LLDP Port Description (TLV 4): Junos sends the interface name here and its ifIndex as port ID.
	PortDescription string `yaml:"port_description"`
}

type Pnic struct {
	Name                string     `yaml:"name"`
	Driver              string     `yaml:"driver"`
	Mac                 string     `yaml:"mac"`
	Pci                 string     `yaml:"pci"`
	LinkUp              *bool      `yaml:"link_up"`
	SpeedMbps           int32      `yaml:"speed_mbps"`
	Duplex              string     `yaml:"duplex"`
	ConfiguredSpeedMbps int32      `yaml:"configured_speed_mbps"`
	ConfiguredDuplex    string     `yaml:"configured_duplex"`
	Neighbour           *Neighbour `yaml:"neighbour"`
}

type IscsiAdapter struct {
	Name      string   `yaml:"name"`
	Kind      string   `yaml:"kind"`
	BoundVmks []string `yaml:"bound_vmks"`
	Pnic      string   `yaml:"pnic"`
	Targets   []string `yaml:"targets"`
}

type PciDevice struct {
	Address     string `yaml:"address"`
	Vendor      string `yaml:"vendor"`
	Device      string `yaml:"device"`
	DeviceClass string `yaml:"device_class"`
}

type VmNic struct {
	Label     string `yaml:"label"`
	Model     string `yaml:"model"`
	Portgroup string `yaml:"portgroup"`
	Mac       string `yaml:"mac"`
}

type Vm struct {
	Name      string  `yaml:"name"`
	Vcpus     int32   `yaml:"vcpus"`
	CpuHotAdd bool    `yaml:"cpu_hot_add"`
	Nics      []VmNic `yaml:"nics"`
}

type Host struct {
	Name            string         `yaml:"name"`
	Datacenter      string         `yaml:"datacenter"`
	Version         string         `yaml:"version"`
	ConnectionState string         `yaml:"connection_state"`
	InMaintenance   *bool          `yaml:"in_maintenance_mode"`
	VSwitches       []VSwitch      `yaml:"vswitches"`
	Portgroups      []PortGroup    `yaml:"portgroups"`
	Vmks            []Vmk          `yaml:"vmks"`
	Pnics           []Pnic         `yaml:"pnics"`
	IscsiAdapters   []IscsiAdapter `yaml:"iscsi_adapters"`
	PciDevices      []PciDevice    `yaml:"pci_devices"`
	Vms             []Vm           `yaml:"vms"`
	// ESXi's own LACP view, answered to `esxcli network vswitch dvs vmware lacp status get` (lacp.go).
	LacpStatus []LacpNicStatus `yaml:"lacp_status"`
}

type Lag struct {
	Name        string `yaml:"name"`
	Mode        string `yaml:"mode"`
	LoadBalance string `yaml:"load_balance"`
	UplinkCount int32  `yaml:"uplink_count"`
}

type DvPortgroup struct {
	Name        string     `yaml:"name"`
	Vlan        int32      `yaml:"vlan"`
	VlanSpec    string     `yaml:"vlan_spec"`
	TrunkRanges [][2]int32 `yaml:"trunk_ranges"`
	Teaming     *Teaming   `yaml:"teaming"`
	// Uplink names the switch's uplink port group (the simulator creates it; this renames it and sets its teaming).
	Uplink bool `yaml:"uplink"`
	// Backing "nsx": a port group NSX created on a VDS 7+ (config.backingType), its teaming left to NSX.
	Backing string `yaml:"backing"`
	// Lacp on the uplink port group: basic (single-LAG) LACP, "active" or "passive" enabled, "off" disabled.
	Lacp string `yaml:"lacp"`
}

type DvsHostMember struct {
	Host    string            `yaml:"host"`
	Uplinks map[string]string `yaml:"uplinks"`
	Mtu     *int32            `yaml:"mtu"`
	// The switch's health check results for this host (healthcheck.go).
	Health *MemberHealth `yaml:"health"`
}

type Dvs struct {
	Name           string          `yaml:"name"`
	Datacenter     string          `yaml:"datacenter"`
	MaxMtu         int32           `yaml:"max_mtu"`
	LacpApiVersion string          `yaml:"lacp_api_version"`
	Lags           []Lag           `yaml:"lags"`
	Portgroups     []DvPortgroup   `yaml:"portgroups"`
	Hosts          []DvsHostMember `yaml:"hosts"`
	Discovery      *Discovery      `yaml:"discovery"`
	HealthCheck    *HealthCheck    `yaml:"health_check"`
}

// LoadScenario reads YAML or JSON (JSON is YAML too).
func LoadScenario(path string) (*Scenario, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var sc Scenario
	if err := yaml.Unmarshal(raw, &sc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(sc.Hosts) == 0 {
		return nil, fmt.Errorf("%s: no esxi_hosts", path)
	}
	return &sc, nil
}
