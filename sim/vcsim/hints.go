package main

// QueryNetworkHint as ESXi answers it: the hints of the pNICs named in `device`, or of
// every pNIC when none is named. govmomi's simulator returns all of them either way.

import (
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

// hostNetwork is a host's HostNetworkSystem: govmomi's, with QueryNetworkHint answered per
// device and the update methods it lacks (netupdate.go).
type hostNetwork struct {
	*simulator.HostNetworkSystem
}

func (s *hostNetwork) QueryNetworkHint(req *types.QueryNetworkHint) soap.HasFault {
	body := s.HostNetworkSystem.QueryNetworkHint(req)
	answer, ok := body.(*methods.QueryNetworkHintBody)
	if !ok || answer.Res == nil || len(req.Device) == 0 {
		return body
	}
	asked := map[string]bool{}
	for _, device := range req.Device {
		asked[device] = true
	}
	var found []types.PhysicalNicHintInfo
	for _, hint := range answer.Res.Returnval {
		if asked[hint.Device] {
			found = append(found, hint)
		}
	}
	return &methods.QueryNetworkHintBody{Res: &types.QueryNetworkHintResponse{Returnval: found}}
}
