// Command vcsim serves a hostlint scenario (the ESXi part of a snapshot, YAML or
// JSON) as a simulated vCenter or ESXi host over real SOAP and TLS on 127.0.0.1,
// built on govmomi's simulator. It prints one JSON line on stdout, {"url": ...,
// "cert": ...}, once it accepts connections, and exits cleanly on SIGTERM or SIGINT.
//
// The password comes from the environment (VCSIM_PASSWORD), not the command line.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/vmware/govmomi/simulator"
)

func main() {
	scenario := flag.String("scenario", "", "scenario file (YAML or JSON): esxi_hosts and distributed_switches")
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on")
	user := flag.String("user", "", "the only user name accepted (default administrator@vsphere.local, root with -esx)")
	certDir := flag.String("cert-dir", "", "folder for the self-signed certificate and key (default: a temporary folder)")
	esx := flag.Bool("esx", false, "serve a standalone ESXi host instead of a vCenter")
	delay := flag.Int("delay-ms", 0, "delay every SOAP call by this many milliseconds (network latency)")
	methodDelays := methodDelayFlag{}
	flag.Var(methodDelays, "method-delay", "METHOD=MS: delay one SOAP method (repeatable), e.g. a hung RetrievePropertiesEx")
	denied := denyFlag{}
	flag.Var(denied, "deny", "TYPE=PRIVILEGE: refuse retrievals of TYPE, or METHOD=PRIVILEGE: calls of METHOD, with NoPermission (repeatable)")
	diagPingTargets := flag.String("diag-ping", "", "JSON file: host name -> vmk -> {netns, dev}: where `network diag ping` runs a real ping (diagping.go)")
	stock := flag.Bool("stock", false, "serve govmomi's default inventory instead of a scenario")
	stockClusters := flag.Int("stock-clusters", 1, "with -stock: clusters")
	stockHosts := flag.Int("stock-hosts", 3, "with -stock: hosts per cluster")
	stockVms := flag.Int("stock-vms", 2, "with -stock: virtual machines per host and per cluster")
	record := flag.String("record", "", "append every exchange served to this file (JSON lines), for -replay")
	replay := flag.String("replay", "", "serve the exchanges recorded in this file (-record) instead of a simulated inventory")
	flag.Parse()
	if *replay != "" {
		if *scenario != "" || *stock || *record != "" {
			log.Fatal("vcsim: -replay takes no -scenario, -stock or -record")
		}
		signals := make(chan os.Signal, 1)
		signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
		if err := runReplay(*replay, *listen, *certDir, *delay, signals); err != nil {
			log.Fatalf("vcsim: -replay: %v", err)
		}
		return
	}
	if (*scenario == "") == !*stock {
		log.Fatal("vcsim: give either -scenario or -stock")
	}
	if *user == "" {
		*user = "administrator@vsphere.local"
		if *esx {
			*user = "root"
		}
	}
	password := os.Getenv("VCSIM_PASSWORD")
	if password == "" {
		password = "vcsim-password"
	}

	started := time.Now()
	var model *simulator.Model
	var cleanup func()
	var err error
	hosts := 0
	var sc *Scenario
	if *stock {
		model, cleanup, err = BuildStock(*esx, *stockClusters, *stockHosts, *stockVms)
	} else {
		if sc, err = LoadScenario(*scenario); err != nil {
			log.Fatalf("vcsim: %v", err)
		}
		hosts = len(sc.Hosts)
		model, cleanup, err = Build(context.Background(), sc, *esx)
	}
	if err != nil {
		log.Fatalf("vcsim: building the inventory: %v", err)
	}
	defer cleanup()
	if *stock {
		hosts = len(model.Map().All("HostSystem"))
	}

	dir := *certDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "vcsim-cert-"); err != nil {
			log.Fatalf("vcsim: %v", err)
		}
		defer os.RemoveAll(dir)
	}
	tlsConfig, certPath, err := selfSignedTLS(dir)
	if err != nil {
		log.Fatalf("vcsim: certificate: %v", err)
	}

	model.Service.Listen = &url.URL{Host: *listen, User: url.UserPassword(*user, password)}
	model.Service.TLS = tlsConfig
	if *delay > 0 {
		model.DelayConfig.Delay = *delay
	}
	if len(methodDelays) > 0 {
		model.DelayConfig.MethodDelay = methodDelays
	}
	server := model.Service.NewServer()
	// No request can arrive before the URL is printed below.
	stats := &callStats{methods: map[string]int{}}
	rootFolder := "group-d1"
	if *esx {
		rootFolder = "ha-folder-root"
	}
	diag, err := loadDiagPing(model, *diagPingTargets)
	if err != nil {
		log.Fatalf("vcsim: %v", err)
	}
	diag.lacp = lacpByHost(sc)
	handler := denied.wrap(diag.wrap(server.Config.Handler), rootFolder)
	if *record != "" {
		rec, err := newRecorder(*record)
		if err != nil {
			log.Fatalf("vcsim: -record: %v", err)
		}
		defer rec.close()
		// Inside the counting: what a client got is recorded, the statistics endpoint excepted.
		handler = rec.wrap(handler)
	}
	server.Config.Handler = stats.wrap(handler)

	// Catch the signals before telling anyone where we are, so a quick stop is still clean.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	endpoint := *server.URL
	endpoint.User = nil
	ready, _ := json.Marshal(map[string]any{
		"url":      endpoint.String(),
		"cert":     certPath,
		"hosts":    hosts,
		"build_ms": time.Since(started).Milliseconds(),
	})
	fmt.Println(string(ready))

	<-signals
	// server.Close waits for every request in progress: one held back by -method-delay would keep it waiting.
	closed := make(chan struct{})
	go func() {
		server.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(2 * time.Second):
	}
}

// methodDelayFlag collects -method-delay METHOD=MS values.
type methodDelayFlag map[string]int

func (m methodDelayFlag) String() string { return fmt.Sprint(map[string]int(m)) }

func (m methodDelayFlag) Set(value string) error {
	method, ms, found := strings.Cut(value, "=")
	if !found || method == "" {
		return fmt.Errorf("want METHOD=MS, got %q", value)
	}
	delay, err := strconv.Atoi(ms)
	if err != nil || delay < 0 {
		return fmt.Errorf("want METHOD=MS with MS a whole number of milliseconds, got %q", value)
	}
	m[method] = delay
	return nil
}
