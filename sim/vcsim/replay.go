package main

// Replay: -replay FILE serves the exchanges a simulator recorded with -record FILE (record.go), with
// no inventory behind them. A request is answered with what was recorded for the same HTTP method,
// path and body, byte for byte; a request recorded more than once gets its recorded answers in turn
// (two logins, two container views of one kind). A client that asks what the recorded one asked (a
// collection by the same code, same user and password) is answered what the simulator answered:
// references and retrieval tokens come from the recorded answers and go back in the requests, so they
// match. Session cookies are replayed as recorded and not checked. Anything else is a SOAP fault,
// counted as "unmatched" in /hostlint/stats. -delay-ms sleeps before each SOAP answer, as the
// simulator's delay does; the CPU per answer is a map look-up and a TLS write, a fraction of what the
// simulator spends building it.

import (
	"bufio"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"sync"
	"time"
)

type replayAnswer struct {
	status int
	header map[string][]string
	body   []byte
}

type replayer struct {
	mu       sync.Mutex
	answers  map[[32]byte][]replayAnswer
	next     map[[32]byte]int
	delay    time.Duration
	stats    *callStats
	recorded int
}

func replayKey(method, path string, body []byte) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s %s\n", method, path)
	h.Write(body)
	var key [32]byte
	copy(key[:], h.Sum(nil))
	return key
}

func loadReplay(path string) (*replayer, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	rp := &replayer{answers: map[[32]byte][]replayAnswer{}, next: map[[32]byte]int{}}
	scanner := bufio.NewScanner(file)
	scanner.Buffer(make([]byte, 1<<20), 1<<30)
	for scanner.Scan() {
		var ex exchange
		if err := json.Unmarshal(scanner.Bytes(), &ex); err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", path, rp.recorded+1, err)
		}
		key := replayKey(ex.Method, ex.Path, ex.Request)
		rp.answers[key] = append(rp.answers[key], replayAnswer{ex.Status, ex.Header, ex.Body})
		rp.recorded++
	}
	if err := scanner.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if rp.recorded == 0 {
		return nil, fmt.Errorf("%s: no exchange recorded", path)
	}
	return rp, nil
}

const unmatchedFault = `<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><soapenv:Fault>` +
	`<faultcode>ServerFaultCode</faultcode><faultstring>vcsim -replay: no recorded answer for this request</faultstring>` +
	`</soapenv:Fault></soapenv:Body></soapenv:Envelope>`

func (rp *replayer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	key := replayKey(r.Method, r.URL.Path, body)
	rp.mu.Lock()
	answers := rp.answers[key]
	var answer *replayAnswer
	if len(answers) > 0 {
		answer = &answers[rp.next[key]%len(answers)]
		rp.next[key]++
	}
	rp.mu.Unlock()
	if r.Method == http.MethodPost && rp.delay > 0 {
		time.Sleep(rp.delay)
	}
	if answer == nil {
		rp.stats.unmatch()
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(unmatchedFault))
		return
	}
	for name, values := range answer.header {
		w.Header()[name] = values
	}
	w.WriteHeader(answer.status)
	_, _ = w.Write(answer.body) // one write, as the simulator writes its encoded answer
}

// runReplay serves FILE on listen until SIGTERM or SIGINT (signals); it prints the ready line as the
// simulator does.
func runReplay(path, listen, certDir string, delayMs int, signals <-chan os.Signal) error {
	// One thread runs Go code: a replay needs no parallelism, and with more the scheduler spins idle
	// threads awake after every delayed answer (a quarter of a replay's CPU at -delay-ms 50).
	runtime.GOMAXPROCS(1)
	started := time.Now()
	rp, err := loadReplay(path)
	if err != nil {
		return err
	}
	rp.delay = time.Duration(delayMs) * time.Millisecond
	rp.stats = &callStats{methods: map[string]int{}}
	dir := certDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "vcsim-cert-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	tlsConfig, certPath, err := selfSignedTLS(dir)
	if err != nil {
		return fmt.Errorf("certificate: %w", err)
	}
	listener, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	server := &http.Server{Handler: rp.stats.wrap(rp), ReadHeaderTimeout: time.Minute}
	go func() { _ = server.Serve(tls.NewListener(listener, tlsConfig)) }()
	ready, _ := json.Marshal(map[string]any{
		"url":       fmt.Sprintf("https://%s/sdk", listener.Addr().String()),
		"cert":      certPath,
		"exchanges": rp.recorded,
		"build_ms":  time.Since(started).Milliseconds(),
	})
	fmt.Println(string(ready))
	<-signals
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = server.Shutdown(ctx)
	return nil
}
