package main

// The simulator has no IscsiManager; this one answers QueryBoundVnics from the
// scenario's port bindings, as ESXi does: each bound vmk with its switch, port
// group and the one active uplink of its (effective) teaming.

import (
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

type IscsiManager struct {
	mo.IscsiManager

	bound map[string][]types.IscsiPortInfo
}

func activeUplink(vmk types.HostVirtualNic, vswitches []VSwitch, portgroups []PortGroup) (string, string) {
	for _, pg := range portgroups {
		if pg.Name != vmk.Portgroup {
			continue
		}
		teaming := pg.Teaming
		for _, vs := range vswitches {
			if vs.Name == pg.VSwitch && teaming == nil {
				teaming = vs.Teaming
			}
		}
		if teaming != nil && len(teaming.Active) > 0 {
			return pg.VSwitch, teaming.Active[0]
		}
		return pg.VSwitch, ""
	}
	return "", ""
}

func newIscsiManager(adapters []IscsiAdapter, vnics []types.HostVirtualNic,
	vswitches []VSwitch, portgroups []PortGroup) *IscsiManager {
	m := &IscsiManager{bound: map[string][]types.IscsiPortInfo{}}
	byName := map[string]types.HostVirtualNic{}
	for _, vnic := range vnics {
		byName[vnic.Device] = vnic
	}
	for _, a := range adapters {
		ports := []types.IscsiPortInfo{}
		for _, name := range a.BoundVmks {
			vnic, ok := byName[name]
			if !ok {
				continue
			}
			switchName, pnic := activeUplink(vnic, vswitches, portgroups)
			port := types.IscsiPortInfo{
				VnicDevice: name, Vnic: &vnic, PnicDevice: pnic, SwitchName: switchName,
				PortgroupName: vnic.Portgroup, PathStatus: "active",
			}
			if dvp := vnic.Spec.DistributedVirtualPort; dvp != nil {
				port.SwitchUuid, port.PortgroupKey, port.PortKey = dvp.SwitchUuid, dvp.PortgroupKey, dvp.PortKey
			}
			ports = append(ports, port)
		}
		m.bound[a.Name] = ports
	}
	return m
}

func (m *IscsiManager) QueryBoundVnics(req *types.QueryBoundVnics) soap.HasFault {
	ports, ok := m.bound[req.IScsiHbaName]
	if !ok {
		return &methods.QueryBoundVnicsBody{Fault_: simulator.Fault("", &types.NotFound{})}
	}
	return &methods.QueryBoundVnicsBody{Res: &types.QueryBoundVnicsResponse{Returnval: ports}}
}
