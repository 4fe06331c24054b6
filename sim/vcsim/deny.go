package main

// Refused retrievals: -deny TYPE=PRIVILEGE answers every RetrievePropertiesEx that asks for
// properties of TYPE with the NoPermission fault a vCenter sends when the user lacks PRIVILEGE,
// as a user without System.Read on part of the inventory sees it.
//
// Refused calls: -deny METHOD=PRIVILEGE (a method name, e.g. QueryNetworkHint=Host.Config.Network)
// answers every call of METHOD with NoPermission naming PRIVILEGE and the object called (_this),
// as vCenter refuses a method the user's role lacks the privilege for (vSphere Web Services API
// reference, NoPermission: "object" and "privilegeId").

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
)

type denyFlag map[string]string

func (d denyFlag) String() string { return fmt.Sprint(map[string]string(d)) }

func (d denyFlag) Set(value string) error {
	kind, privilege, found := strings.Cut(value, "=")
	if !found || kind == "" || privilege == "" {
		return fmt.Errorf("want TYPE=PRIVILEGE, got %q", value)
	}
	d[kind] = privilege
	return nil
}

const noPermissionFault = `<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<soapenv:Body><soapenv:Fault><faultcode>ServerFaultCode</faultcode>
<faultstring>Permission to perform this operation was denied.</faultstring>
<detail><NoPermissionFault xmlns="urn:vim25" xsi:type="NoPermission">
<object type="%s">%s</object><privilegeId>%s</privilegeId>
</NoPermissionFault></detail></soapenv:Fault></soapenv:Body></soapenv:Envelope>`

// wrap refuses the retrievals named in d; `root` is the object named in the fault (the root folder).
func (d denyFlag) wrap(next http.Handler, root string) http.Handler {
	if len(d) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			m := soapMethod.FindSubmatch(body)
			if m == nil {
				next.ServeHTTP(w, r)
				return
			}
			method := string(m[1])
			if privilege, ok := d[method]; ok {
				kind, object := "Folder", root
				if this := soapThis.FindSubmatch(body); this != nil {
					kind, object = string(this[1]), string(this[2])
				}
				refuse(w, kind, object, privilege)
				return
			}
			if method == "RetrievePropertiesEx" {
				for kind, privilege := range d {
					if bytes.Contains(body, []byte("<type>"+kind+"</type>")) {
						refuse(w, "Folder", root, privilege)
						return
					}
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// soapThis finds the object a SOAP call is made on: <_this type="HostNetworkSystem">networkSystem-7</_this>.
var soapThis = regexp.MustCompile(`<_this[^>]*type="([A-Za-z0-9_]+)"[^>]*>([^<]+)</_this>`)

func refuse(w http.ResponseWriter, kind, object, privilege string) {
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	w.WriteHeader(http.StatusInternalServerError)
	_, _ = fmt.Fprintf(w, noPermissionFault, kind, object, privilege)
}
