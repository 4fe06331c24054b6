package main

// esxcli `network diag ping` through vCenter, as `hostlint probe` sends it: ExecuteSoap on the
// host's ManagedMethodExecuter (moid `ha-cli-handler-network-diag`, method
// `vim.EsxCLI.network.diag.ping`), after `vim.CLIInfo.FetchCLIInfo` told the client the declared
// order of the arguments. govmomi's simulator serves RetrieveManagedMethodExecuter but knows no
// `network diag` namespace; this file answers both calls for it.
//
// The ping is real: with -diag-ping FILE, the vmk a request names is a Linux interface in a
// network namespace (FILE: {"HOST": {"vmk1": {"netns": "NS", "dev": "DEV"}}}), and the simulator
// runs `ip netns exec NS ping -M do|dont -s SIZE -c COUNT -W WAIT -i INTERVAL -I DEV HOST`
// there, so the kernel enforces every MTU on the path. The answer has the shape of ESXi's
// (vSphere CLI reference, `esxcli network diag ping`: a Summary with Transmitted, Recieved [sic],
// Duplicated, PacketLost, Round-trip Min/Avg/Max, and a Trace per reply); a probe larger than the
// source interface's MTU with don't-fragment set is the esxcli fault `sendto() failed (Message too
// long)`, as vmkping reports it.
//
// `-deny RetrieveManagedMethodExecuter=Host.Config.Settings` (deny.go) refuses the executor as a
// vCenter does for a user without the privilege (field reports name Host.Config.Settings for esxcli
// through vCenter).

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/types"
)

// pingParams is the declared order of `esxcli network diag ping`'s parameters (its --help lists
// them by long name: count, debug, df, host, interface, interval, ipv4, ipv6, netstack, nexthop,
// size, ttl, wait). ESXi refuses an argument array out of this order with InvalidArgument.
var pingParams = []struct{ name, kind string }{
	{"count", "long"}, {"debug", "boolean"}, {"df", "boolean"}, {"host", "string"},
	{"interface", "string"}, {"interval", "string"}, {"ipv4", "boolean"}, {"ipv6", "boolean"},
	{"netstack", "string"}, {"nexthop", "string"}, {"size", "long"}, {"ttl", "long"}, {"wait", "string"},
}

type pingTarget struct {
	Netns string `json:"netns"`
	Dev   string `json:"dev"`
}

// diagPing answers the network diag calls; `targets` maps host name -> vmk -> where it lives.
type diagPing struct {
	model     *simulator.Model
	targets   map[string]map[string]pingTarget
	pingLimit chan struct{}
	// host name -> its LAG members, for `lacp status get` (lacp.go)
	lacp map[string][]LacpNicStatus
	// What GET /hostlint/diag-stats reports: pings answered and the most ever in flight at once.
	mu          sync.Mutex
	inFlight    int
	maxInFlight int
	pings       int
}

func loadDiagPing(model *simulator.Model, path string) (*diagPing, error) {
	d := &diagPing{model: model, targets: map[string]map[string]pingTarget{}, pingLimit: make(chan struct{}, 16)}
	if path == "" {
		return d, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &d.targets); err != nil {
		return nil, fmt.Errorf("-diag-ping %s: %w", path, err)
	}
	return d, nil
}

type soapArgument struct {
	Name string `xml:"name"`
	Val  string `xml:"val"`
}

type executeSoap struct {
	This     string         `xml:"_this"`
	Moid     string         `xml:"moid"`
	Method   string         `xml:"method"`
	Argument []soapArgument `xml:"argument"`
}

func (d *diagPing) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hostlint/diag-stats" {
			d.mu.Lock()
			answer, _ := json.Marshal(map[string]int{"pings": d.pings, "max_in_flight": d.maxInFlight})
			d.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(answer)
			return
		}
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		m := soapMethod.FindSubmatch(body)
		if m == nil {
			next.ServeHTTP(w, r)
			return
		}
		switch string(m[1]) {
		case "ExecuteSoap":
			if req, ok := decodeExecuteSoap(body); ok {
				if answer, handled := d.execute(req); handled {
					writeSoap(w, http.StatusOK, answer)
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

func decodeExecuteSoap(body []byte) (*executeSoap, bool) {
	decoder := xml.NewDecoder(bytes.NewReader(body))
	for {
		token, err := decoder.Token()
		if err != nil {
			return nil, false
		}
		if start, ok := token.(xml.StartElement); ok && start.Name.Local == "ExecuteSoap" {
			req := &executeSoap{}
			if decoder.DecodeElement(req, &start) != nil {
				return nil, false
			}
			return req, true
		}
	}
}

var argumentValue = regexp.MustCompile(`(?s)^\s*<(\w+)>(.*)</(\w+)>\s*$`)

// execute answers the network diag calls and leaves every other esxcli call to govmomi.
func (d *diagPing) execute(req *executeSoap) (string, bool) {
	args := map[string]string{}
	var names []string
	for _, arg := range req.Argument {
		value := arg.Val
		if m := argumentValue.FindStringSubmatch(value); m != nil && m[1] == m[3] {
			value = html.UnescapeString(m[2])
		}
		args[arg.Name] = value
		names = append(names, arg.Name)
	}
	switch {
	case req.Method == "vim.CLIInfo.FetchCLIInfo" && args["typeName"] == "vim.EsxCLI.network.diag":
		return executeAnswer(cliInfo(), ""), true
	case req.Moid == "ha-cli-handler-network-diag" && req.Method == "vim.EsxCLI.network.diag.ping":
		if position, ok := outOfOrder(names); !ok {
			return invalidArgumentFault(position), true
		}
		return d.ping(strings.TrimSpace(req.This), args), true
	case req.Moid == lacpStatusMoid && req.Method == lacpStatusMethod:
		if len(names) > 0 {
			return invalidArgumentFault(0), true
		}
		return d.lacpStatus(strings.TrimSpace(req.This)), true
	}
	return "", false
}

// outOfOrder returns the index of the first argument out of the declared order (or unknown).
func outOfOrder(names []string) (int, bool) {
	next := 0
	for i, name := range names {
		found := false
		for j := next; j < len(pingParams); j++ {
			if pingParams[j].name == name {
				next, found = j+1, true
				break
			}
		}
		if !found {
			return i, false
		}
	}
	return 0, true
}

func cliInfo() string {
	var params strings.Builder
	for _, p := range pingParams {
		fmt.Fprintf(&params, "<param><name>%s</name><type>%s</type><flag>false</flag></param>", p.name, p.kind)
	}
	return `<obj xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="urn:vim25" versionId="5.0" xsi:type="VimCLIInfo">` +
		`<name>vim.EsxCLI.network.diag</name><method><name>ping</name>` + params.String() +
		`</method></obj>`
}

func (d *diagPing) hostName(mme string) string {
	obj := d.model.Map().Get(types.ManagedObjectReference{Type: "HostSystem", Value: mme})
	if host, ok := obj.(*simulator.HostSystem); ok {
		return host.Name
	}
	return ""
}

var (
	pingReply   = regexp.MustCompile(`(?m)^(\d+) bytes from ([^:]+): icmp_seq=(\d+) ttl=(\d+) time=([\d.]+) ms`)
	pingCounts  = regexp.MustCompile(`(\d+) packets transmitted, (\d+) received(?:, \+(\d+) duplicates)?`)
	pingRtt     = regexp.MustCompile(`= ([\d.]+)/([\d.]+)/([\d.]+)/`)
	pingTooLong = regexp.MustCompile(`(?i)message too long`)
)

func (d *diagPing) ping(mme string, args map[string]string) string {
	d.mu.Lock()
	d.pings++
	d.inFlight++
	d.maxInFlight = max(d.maxInFlight, d.inFlight)
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		d.inFlight--
		d.mu.Unlock()
	}()
	host := d.hostName(mme)
	vmk := args["interface"]
	target, ok := d.targets[host][vmk]
	if !ok {
		return executeAnswer("", fmt.Sprintf("Unknown interface '%s'", vmk))
	}
	count := intArg(args["count"], 3)
	size := intArg(args["size"], 56)
	wait := intArg(args["wait"], 1)
	interval := args["interval"]
	if interval == "" {
		interval = "1"
	}
	mode := "dont"
	if args["df"] == "true" {
		mode = "do"
	}
	d.pingLimit <- struct{}{}
	defer func() { <-d.pingLimit }()
	command := exec.Command("ip", "netns", "exec", target.Netns, "ping", "-n", "-M", mode, "-s", strconv.Itoa(size),
		"-c", strconv.Itoa(count), "-W", strconv.Itoa(wait), "-i", interval, "-I", target.Dev, args["host"])
	output, _ := command.CombinedOutput()
	text := string(output)
	if pingTooLong.MatchString(text) && !pingReply.MatchString(text) {
		return executeAnswer("", "sendto() failed (Message too long)")
	}
	counts := pingCounts.FindStringSubmatch(text)
	if counts == nil {
		return executeAnswer("", "ping failed: "+strings.TrimSpace(text))
	}
	transmitted, _ := strconv.Atoi(counts[1])
	received, _ := strconv.Atoi(counts[2])
	duplicated, _ := strconv.Atoi(counts[3])
	lost := 100
	if transmitted > 0 {
		lost = 100 * (transmitted - received) / transmitted
	}
	var trace strings.Builder
	for _, reply := range pingReply.FindAllStringSubmatch(text, -1) {
		micros := microseconds(reply[5])
		fmt.Fprintf(&trace, `<Trace xsi:type="VimEsxCLInetworkdiagpingTrace"><Detail></Detail><Dup>false</Dup>`+
			`<Host>%s</Host><ICMPSeq>%s</ICMPSeq><ReceivedBytes>%s</ReceivedBytes><RoundtripTime>%d</RoundtripTime>`+
			`<RoundtripTimeMS>%d</RoundtripTimeMS><TTL>%s</TTL></Trace>`,
			html.EscapeString(reply[2]), reply[3], reply[1], micros, micros/1000, reply[4])
	}
	minimum, average, maximum := 0, 0, 0
	if rtt := pingRtt.FindStringSubmatch(text); rtt != nil {
		minimum, average, maximum = microseconds(rtt[1]), microseconds(rtt[2]), microseconds(rtt[3])
	}
	summary := fmt.Sprintf(`<Summary xsi:type="VimEsxCLInetworkdiagpingSummary"><Duplicated>%d</Duplicated>`+
		`<HostAddr>%s</HostAddr><PacketLost>%d</PacketLost><Recieved>%d</Recieved>`+
		`<RoundtripAvg>%d</RoundtripAvg><RoundtripAvgMS>%d</RoundtripAvgMS>`+
		`<RoundtripMax>%d</RoundtripMax><RoundtripMaxMS>%d</RoundtripMaxMS>`+
		`<RoundtripMin>%d</RoundtripMin><RoundtripMinMS>%d</RoundtripMinMS>`+
		`<Transmitted>%d</Transmitted></Summary>`,
		duplicated, html.EscapeString(args["host"]), lost, received, average, average/1000, maximum, maximum/1000,
		minimum, minimum/1000, transmitted)
	return executeAnswer(`<obj xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="urn:vim25" versionId="5.0" `+
		`xsi:type="VimEsxCLInetworkdiagpingPingResult">`+summary+trace.String()+`</obj>`, "")
}

func intArg(text string, fallback int) int {
	if value, err := strconv.Atoi(strings.TrimSpace(text)); err == nil {
		return value
	}
	return fallback
}

func microseconds(ms string) int {
	value, err := strconv.ParseFloat(ms, 64)
	if err != nil {
		return 0
	}
	return int(value * 1000)
}

// executeAnswer is an ExecuteSoapResponse: the esxcli answer (escaped XML) or an esxcli fault.
func executeAnswer(response, fault string) string {
	var returnval string
	if fault != "" {
		returnval = "<fault><faultMsg>" + html.EscapeString(fault) + "</faultMsg><faultDetail>" +
			html.EscapeString(`<obj xmlns="urn:vim25" versionId="5.0"><errMsg>`+html.EscapeString(fault)+`</errMsg></obj>`) +
			"</faultDetail></fault>"
	} else {
		returnval = "<response>" + html.EscapeString(response) + "</response>"
	}
	return `<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<soapenv:Body><ExecuteSoapResponse xmlns="urn:vim25"><returnval>` + returnval +
		`</returnval></ExecuteSoapResponse></soapenv:Body></soapenv:Envelope>`
}

func invalidArgumentFault(position int) string {
	return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<soapenv:Body><soapenv:Fault><faultcode>ServerFaultCode</faultcode>
<faultstring>A specified parameter was not correct: argument[%d]</faultstring>
<detail><InvalidArgumentFault xmlns="urn:vim25" xsi:type="InvalidArgument"><invalidProperty>argument[%d]</invalidProperty></InvalidArgumentFault></detail>
</soapenv:Fault></soapenv:Body></soapenv:Envelope>`, position, position)
}

func writeSoap(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}
