// Command pcclient is the compiled baseline for bench/vsphere.py: the same bulk retrieval
// as hostlint's collector (one paged PropertyCollector query through a ContainerView for
// the hosts, one for distributed switches and port groups, run side by side), then the
// same per-host QueryNetworkHint / QueryBoundVnics calls with the same concurrency,
// decoded into govmomi's types. It prints one JSON line: seconds, hosts, calls.
//
// The password comes from VCSIM_PASSWORD, never the command line.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vmware/govmomi/session"
	"github.com/vmware/govmomi/vim25"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

var hostProperties = []string{
	"name", "runtime.connectionState", "config.product.version", "config.network",
	"config.virtualNicManagerInfo", "config.storageDevice.hostBusAdapter",
	"configManager.networkSystem", "configManager.iscsiManager", "hardware.pciDevice",
}

var vmProperties = []string{
	"name", "runtime.host", "config.template", "config.hardware.numCPU", "config.cpuHotAddEnabled",
	"config.hardware.device",
}

var calls atomic.Int64

func retrieve(ctx context.Context, c *vim25.Client, kinds map[string][]string, page int32) ([]types.ObjectContent, error) {
	var typeNames []string
	var propSet []types.PropertySpec
	for kind, paths := range kinds {
		typeNames = append(typeNames, kind)
		propSet = append(propSet, types.PropertySpec{Type: kind, PathSet: paths})
	}
	view, err := methods.CreateContainerView(ctx, c, &types.CreateContainerView{
		This: *c.ServiceContent.ViewManager, Container: c.ServiceContent.RootFolder, Type: typeNames, Recursive: true,
	})
	calls.Add(1)
	if err != nil {
		return nil, err
	}
	defer func() {
		_, _ = methods.DestroyView(ctx, c, &types.DestroyView{This: view.Returnval})
		calls.Add(1)
	}()
	spec := types.PropertyFilterSpec{
		ObjectSet: []types.ObjectSpec{{
			Obj: view.Returnval, Skip: types.NewBool(true),
			SelectSet: []types.BaseSelectionSpec{&types.TraversalSpec{Type: "ContainerView", Path: "view", Skip: types.NewBool(false)}},
		}},
		PropSet: propSet,
	}
	pc := c.ServiceContent.PropertyCollector
	res, err := methods.RetrievePropertiesEx(ctx, c, &types.RetrievePropertiesEx{
		This: pc, SpecSet: []types.PropertyFilterSpec{spec}, Options: types.RetrieveOptions{MaxObjects: page},
	})
	calls.Add(1)
	if err != nil || res.Returnval == nil {
		return nil, err
	}
	objects, token := res.Returnval.Objects, res.Returnval.Token
	for token != "" {
		next, err := methods.ContinueRetrievePropertiesEx(ctx, c, &types.ContinueRetrievePropertiesEx{This: pc, Token: token})
		calls.Add(1)
		if err != nil {
			return nil, err
		}
		objects, token = append(objects, next.Returnval.Objects...), next.Returnval.Token
	}
	return objects, nil
}

func hints(ctx context.Context, c *vim25.Client, host mo.HostSystem) (int, error) {
	if host.Runtime.ConnectionState != types.HostSystemConnectionStateConnected {
		return 0, nil
	}
	found := 0
	if ns := host.ConfigManager.NetworkSystem; ns != nil {
		res, err := methods.QueryNetworkHint(ctx, c, &types.QueryNetworkHint{This: *ns})
		calls.Add(1)
		if err != nil {
			return 0, err
		}
		found += len(res.Returnval)
	}
	if host.Config == nil || host.Config.StorageDevice == nil || host.ConfigManager.IscsiManager == nil {
		return found, nil
	}
	for _, hba := range host.Config.StorageDevice.HostBusAdapter {
		if iscsi, ok := hba.(*types.HostInternetScsiHba); ok {
			res, err := methods.QueryBoundVnics(ctx, c, &types.QueryBoundVnics{This: *host.ConfigManager.IscsiManager, IScsiHbaName: iscsi.Device})
			calls.Add(1)
			if err != nil {
				return found, err
			}
			found += len(res.Returnval)
		}
	}
	return found, nil
}

func main() {
	server := flag.String("url", "", "https://127.0.0.1:PORT/sdk")
	user := flag.String("user", "administrator@vsphere.local", "user name")
	caFile := flag.String("ca", "", "PEM file of the CA to trust")
	page := flag.Int("page-size", 500, "objects per retrieval page")
	concurrency := flag.Int("concurrency", 8, "parallel per-host calls")
	flag.Parse()

	ctx := context.Background()
	u, err := url.Parse(*server)
	if err != nil {
		log.Fatal(err)
	}
	started := time.Now()
	soapClient := soap.NewClient(u, false)
	if err := soapClient.SetRootCAs(*caFile); err != nil {
		log.Fatal(err)
	}
	c, err := vim25.NewClient(ctx, soapClient)
	if err != nil {
		log.Fatal(err)
	}
	sessions := session.NewManager(c)
	if err := sessions.Login(ctx, url.UserPassword(*user, os.Getenv("VCSIM_PASSWORD"))); err != nil {
		log.Fatal(err)
	}
	calls.Store(0)
	collectStarted := time.Now()

	var hostObjects, dvsObjects, vmObjects []types.ObjectContent
	var dvsErr, vmErr error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		dvsObjects, dvsErr = retrieve(ctx, c, map[string][]string{
			"DistributedVirtualSwitch":    {"name", "uuid", "config"},
			"DistributedVirtualPortgroup": {"name", "key", "config.distributedVirtualSwitch", "config.defaultPortConfig", "config.uplink"},
		}, int32(*page))
	}()
	go func() {
		defer wg.Done()
		vmObjects, vmErr = retrieve(ctx, c, map[string][]string{"VirtualMachine": vmProperties}, int32(*page))
	}()
	hostObjects, err = retrieve(ctx, c, map[string][]string{"HostSystem": hostProperties}, int32(*page))
	wg.Wait()
	if err != nil || dvsErr != nil || vmErr != nil {
		log.Fatalf("pcclient: retrieve: %v %v %v", err, dvsErr, vmErr)
	}
	var hosts []mo.HostSystem
	if err := mo.LoadObjectContent(hostObjects, &hosts); err != nil {
		log.Fatal(err)
	}
	retrieved := time.Since(collectStarted)

	work := make(chan mo.HostSystem)
	var hintCount atomic.Int64
	var firstErr error
	var errOnce sync.Once
	for i := 0; i < *concurrency; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for host := range work {
				n, err := hints(ctx, c, host)
				if err != nil {
					errOnce.Do(func() { firstErr = err })
				}
				hintCount.Add(int64(n))
			}
		}()
	}
	for _, host := range hosts {
		work <- host
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		log.Fatalf("pcclient: hints: %v", firstErr)
	}
	out, _ := json.Marshal(map[string]any{
		"seconds":          time.Since(collectStarted).Seconds(),
		"retrieve_seconds": retrieved.Seconds(),
		"login_seconds":    collectStarted.Sub(started).Seconds(),
		"hosts":            len(hosts),
		"dvs_objects":      len(dvsObjects),
		"vms":              len(vmObjects),
		"hints":            hintCount.Load(),
		"calls":            calls.Load(),
	})
	fmt.Println(string(out))
	_ = sessions.Logout(ctx)
}
