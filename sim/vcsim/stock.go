package main

// The stock inventory: govmomi's own default model (vCenter: clusters of hosts with the
// simulator's stock ESXi networking, storage adapters and PCI devices, VMs and a distributed
// switch; or one standalone ESXi host), served as it is, with no scenario written into it.
// The fast-parser differential test and the benchmark's stock-like inventory use it.

import (
	"fmt"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25"
)

// BuildStock creates the default model: `clusters` clusters of `hosts` hosts each and `vms`
// virtual machines per host and per cluster (govmomi's Machine count), or the standalone ESXi
// host with `vms` VMs when esx is set.
func BuildStock(esx bool, clusters, hosts, vms int) (*simulator.Model, func(), error) {
	if clusters < 0 || hosts < 0 || vms < 0 {
		return nil, nil, fmt.Errorf("stock counts must not be negative")
	}
	model := simulator.ESX()
	if !esx {
		model = simulator.VPX()
		model.Cluster = clusters
		model.ClusterHost = hosts
	}
	model.Machine = vms
	model.Autostart = false
	if err := model.Create(); err != nil {
		return nil, nil, err
	}
	about := &model.Map().Get(vim25.ServiceInstance).(*simulator.ServiceInstance).Content.About
	about.Version, about.ApiVersion, about.Build = "8.0.3", "8.0.3.0", "24022515"
	about.FullName = fmt.Sprintf("%s 8.0.3 build-24022515 (hostlint vcsim, stock)", about.Name)
	return model, model.Remove, nil
}
