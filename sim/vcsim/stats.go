package main

// SOAP call counting, so a benchmark can report round trips as the server saw them.

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"sync"
)

var soapMethod = regexp.MustCompile(`<(?:[A-Za-z0-9_]+:)?Body[^>]*>\s*<(?:[A-Za-z0-9_]+:)?([A-Za-z0-9_]+)`)

type callStats struct {
	mu      sync.Mutex
	calls   int
	bytes   int64
	methods map[string]int
	// requests a replay (replay.go) had no recorded answer for; always 0 for the simulator
	unmatched int
}

func (s *callStats) unmatch() {
	s.mu.Lock()
	s.unmatched++
	s.mu.Unlock()
}

type countingWriter struct {
	http.ResponseWriter
	n int64
}

func (w *countingWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	w.n += int64(n)
	return n, err
}

// wrap counts every SOAP request and serves the counters at /hostlint/stats
// (GET to read, POST to read and reset).
func (s *callStats) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hostlint/stats" {
			s.mu.Lock()
			out, _ := json.Marshal(map[string]any{"calls": s.calls, "response_bytes": s.bytes, "methods": s.methods, "unmatched": s.unmatched})
			if r.Method == http.MethodPost {
				s.calls, s.bytes, s.methods, s.unmatched = 0, 0, map[string]int{}, 0
			}
			s.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(out)
			return
		}
		method := ""
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if m := soapMethod.FindSubmatch(body); m != nil {
				method = string(m[1])
			}
		}
		cw := &countingWriter{ResponseWriter: w}
		next.ServeHTTP(cw, r)
		if method == "" {
			return
		}
		s.mu.Lock()
		s.calls++
		s.bytes += cw.n
		s.methods[method]++
		s.mu.Unlock()
	})
}
