package main

// Virtual machines: created through the API (the simulator needs a datastore for their
// files), then given the scenario's vNICs directly, because the simulator only attaches
// vNICs to networks it knows as inventory objects and standard port groups here are host
// configuration only.

import (
	"context"
	"fmt"
	"os"

	"github.com/vmware/govmomi/object"
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/types"
)

const vmDatastore = "vcsim-vms"

// addVms creates every scenario VM on its host; the returned folder holds their files.
func (inv *inventory) addVms(ctx context.Context, hosts []Host) (string, error) {
	var first *simulator.HostSystem
	for _, h := range hosts {
		if len(h.Vms) > 0 && first == nil {
			first = inv.hosts[h.Name]
		}
	}
	if first == nil {
		return "", nil
	}
	dir, err := os.MkdirTemp("", "vcsim-vms-")
	if err != nil {
		return "", err
	}
	datastores := object.NewHostDatastoreSystem(inv.client, *first.ConfigManager.DatastoreSystem)
	if _, err := datastores.CreateLocalDatastore(ctx, vmDatastore, dir); err != nil {
		return dir, fmt.Errorf("datastore for VMs: %w", err)
	}
	dc := inv.model.Map().Any("Datacenter")
	folders, err := object.NewDatacenter(inv.client, dc.Reference()).Folders(ctx)
	if err != nil {
		return dir, err
	}
	for _, h := range hosts {
		host := inv.hosts[h.Name]
		for _, vm := range h.Vms {
			if err := inv.addVm(ctx, folders, host, h, vm); err != nil {
				return dir, fmt.Errorf("VM %s on %s: %w", vm.Name, h.Name, err)
			}
		}
	}
	return dir, nil
}

func (inv *inventory) addVm(ctx context.Context, folders *object.DatacenterFolders, host *simulator.HostSystem, h Host, vm Vm) error {
	cpus := vm.Vcpus
	if cpus == 0 {
		cpus = 1
	}
	spec := types.VirtualMachineConfigSpec{
		Name:             vm.Name,
		GuestId:          string(types.VirtualMachineGuestOsIdentifierOtherGuest64),
		NumCPUs:          cpus,
		CpuHotAddEnabled: types.NewBool(vm.CpuHotAdd),
		Files:            &types.VirtualMachineFileInfo{VmPathName: fmt.Sprintf("[%s]", vmDatastore)},
	}
	hostRef := host.Reference()
	pool := object.NewResourcePool(inv.client, *hostParentPool(inv, host))
	task, err := folders.VmFolder.CreateVM(ctx, spec, pool, object.NewHostSystem(inv.client, hostRef))
	if err != nil {
		return err
	}
	info, err := task.WaitForResult(ctx, nil)
	if err != nil {
		return err
	}
	machine := inv.model.Map().Get(info.Result.(types.ManagedObjectReference)).(*simulator.VirtualMachine)
	var devices object.VirtualDeviceList
	for i, nic := range vm.Nics {
		device, err := devices.CreateEthernetCard(nic.Model, inv.nicBacking(h, nic.Portgroup))
		if err != nil {
			return err
		}
		card := device.(types.BaseVirtualEthernetCard).GetVirtualEthernetCard()
		card.Key = int32(4000 + i)
		card.MacAddress = nic.Mac
		card.DeviceInfo = &types.Description{Label: nic.Label, Summary: nic.Portgroup}
		machine.Config.Hardware.Device = append(machine.Config.Hardware.Device, device)
	}
	return nil
}

func hostParentPool(inv *inventory, host *simulator.HostSystem) *types.ManagedObjectReference {
	parent := inv.model.Map().Get(*host.Parent)
	switch cr := parent.(type) {
	case *simulator.ClusterComputeResource:
		return cr.ResourcePool
	case *mo.ComputeResource:
		return cr.ResourcePool
	}
	return nil
}

// nicBacking is a distributed port group when the host is a member of a switch that has
// one by that name, a standard port group otherwise.
func (inv *inventory) nicBacking(h Host, portgroup string) types.BaseVirtualDeviceBackingInfo {
	for _, dvs := range inv.dvs {
		if key, ok := dvs.portgroups[portgroup]; ok {
			return &types.VirtualEthernetCardDistributedVirtualPortBackingInfo{
				Port: types.DistributedVirtualSwitchPortConnection{SwitchUuid: dvs.uuid, PortgroupKey: key},
			}
		}
	}
	return &types.VirtualEthernetCardNetworkBackingInfo{
		VirtualDeviceDeviceBackingInfo: types.VirtualDeviceDeviceBackingInfo{DeviceName: portgroup},
	}
}
