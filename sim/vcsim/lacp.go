package main

// esxcli `network vswitch dvs vmware lacp status get` through vCenter: ExecuteSoap on the host's
// ManagedMethodExecuter with moid `ha-cli-handler-network-vswitch-dvs-vmware-lacp-status` and method
// `vim.EsxCLI.network.vswitch.dvs.vmware.lacp.status.get` (govmomi cli/esx command.go: the moid is
// `ha-cli-handler-` and the namespace joined by dashes, the method `vim.EsxCLI.` and the command
// joined by dots). It takes no arguments. The answer is esxcli's structured output for the
// command, one DataObject per distributed switch LAG on the host, with the fields the command
// prints (vSphere Networking, "LACP Support on a vSphere Distributed Switch"; `esxcli network
// vswitch dvs vmware lacp status get`): DVSwitch, Flags, LAGID, Mode and a Nic List whose items
// hold the Local Information and Partner Information (Admin Key, Flags, Oper Key, Port Number, Port
// Priority, Port State as comma-separated LACP state flags ACT,AGG,SYN,COL,DIST, Partner's Age and
// Device ID), the Nic and its State (Bundled, Independent, Stand-alone, Hot-standby, Down). Field
// names are the printed names without spaces, as esxcli's XML formatter writes them (the diag ping
// answer's `RoundtripAvg` for "Round-trip Avg"). A host with no LAG answers an empty list.

import (
	"fmt"
	"html"
	"sort"
	"strings"
)

const (
	lacpStatusMoid   = "ha-cli-handler-network-vswitch-dvs-vmware-lacp-status"
	lacpStatusMethod = "vim.EsxCLI.network.vswitch.dvs.vmware.lacp.status.get"
)

// LacpNicStatus is one LAG member as the scenario states it (the snapshot's field names).
type LacpNicStatus struct {
	DvSwitch         string   `yaml:"dvswitch"`
	LagID            string   `yaml:"lag_id"`
	Nic              string   `yaml:"nic"`
	State            string   `yaml:"state"`
	StateText        string   `yaml:"state_text"`
	LocalPortState   []string `yaml:"local_port_state"`
	PartnerPortState []string `yaml:"partner_port_state"`
	PartnerDevice    string   `yaml:"partner_device"`
}

// What ESXi prints for each state the snapshot normalises to.
var lacpStateText = map[string]string{
	"bundled": "Bundled", "individual": "Independent", "hot-standby": "Hot-standby", "down": "Down",
}

func lacpByHost(sc *Scenario) map[string][]LacpNicStatus {
	found := map[string][]LacpNicStatus{}
	if sc == nil {
		return found
	}
	for _, h := range sc.Hosts {
		if len(h.LacpStatus) > 0 {
			found[h.Name] = h.LacpStatus
		}
	}
	return found
}

func flags(state []string) string {
	flags := "S"
	for _, s := range state {
		if s == "ACT" {
			flags += "A"
		}
	}
	if !strings.Contains(flags, "A") {
		flags += "P"
	}
	return flags
}

func portInfo(state []string, device string, partner bool) string {
	var b strings.Builder
	b.WriteString(`<DataObject xsi:type="VimEsxCLInetworkvswitchdvsvmwarelacpstatusgetNicListPortInfo">`)
	if partner {
		b.WriteString("<Age>00:00:07</Age>")
	}
	b.WriteString("<AdminKey>9</AdminKey>")
	if partner {
		fmt.Fprintf(&b, "<DeviceID>%s</DeviceID>", html.EscapeString(device))
	}
	fmt.Fprintf(&b, "<Flags>%s</Flags><OperKey>9</OperKey><PortNumber>32768</PortNumber><PortPriority>255</PortPriority>",
		flags(state))
	// ESXi prints the flags with a trailing comma ("ACT,AGG,SYN,COL,DIST,").
	fmt.Fprintf(&b, "<PortState>%s</PortState></DataObject>", html.EscapeString(strings.Join(state, ",")+","))
	return b.String()
}

// lacpStatus answers `lacp status get` for the host behind the executer `mme`.
func (d *diagPing) lacpStatus(mme string) string {
	members := d.lacp[d.hostName(mme)]
	type lag struct{ dvs, id string }
	groups := map[lag][]LacpNicStatus{}
	var order []lag
	for _, m := range members {
		key := lag{m.DvSwitch, m.LagID}
		if _, seen := groups[key]; !seen {
			order = append(order, key)
		}
		groups[key] = append(groups[key], m)
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].dvs < order[j].dvs })
	var b strings.Builder
	b.WriteString(`<obj xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="urn:vim25" versionId="5.0" ` +
		`xsi:type="ArrayOfDataObject">`)
	for _, key := range order {
		fmt.Fprintf(&b, `<DataObject xsi:type="VimEsxCLInetworkvswitchdvsvmwarelacpstatusgetLACPStatus">`+
			`<DVSwitch>%s</DVSwitch><Flags>S - Device is sending Slow LACPDUs, F - Device is sending fast LACPDUs, `+
			`A - Device is in active mode, P - Device is in passive mode</Flags><LAGID>%s</LAGID><Mode>Active</Mode><NicList>`,
			html.EscapeString(key.dvs), html.EscapeString(key.id))
		for _, m := range groups[key] {
			state := m.StateText
			if state == "" {
				state = lacpStateText[m.State]
			}
			b.WriteString(`<DataObject xsi:type="VimEsxCLInetworkvswitchdvsvmwarelacpstatusgetNicList">`)
			b.WriteString("<LocalInformation>" + portInfo(m.LocalPortState, "", false) + "</LocalInformation>")
			fmt.Fprintf(&b, "<Nic>%s</Nic>", html.EscapeString(m.Nic))
			if m.PartnerPortState != nil {
				b.WriteString("<PartnerInformation>" + portInfo(m.PartnerPortState, m.PartnerDevice, true) +
					"</PartnerInformation>")
			}
			fmt.Fprintf(&b, "<State>%s</State></DataObject>", html.EscapeString(state))
		}
		b.WriteString("</NicList></DataObject>")
	}
	b.WriteString("</obj>")
	return executeAnswer(b.String(), "")
}
