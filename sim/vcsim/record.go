package main

// Recording: with -record FILE every HTTP exchange the simulator serves is appended to FILE, one JSON
// object a line (the request's method, path and body; the answer's status, headers and body), for
// -replay (replay.go) to serve again without the simulator's inventory or its CPU.

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"sync"
)

// exchange is one recorded request and its answer. Bodies are []byte (base64 in the JSON): replayed
// byte for byte, whatever they hold.
type exchange struct {
	Method  string              `json:"method"`
	Path    string              `json:"path"`
	Request []byte              `json:"request"`
	Status  int                 `json:"status"`
	Header  map[string][]string `json:"header"`
	Body    []byte              `json:"body"`
}

// Headers the HTTP server sets for each answer itself: not recorded.
var unrecordedHeaders = map[string]bool{"Date": true, "Content-Length": true, "Transfer-Encoding": true, "Connection": true}

type recorder struct {
	mu   sync.Mutex
	file *os.File
}

type capturingWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (w *capturingWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

func (w *capturingWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}

func newRecorder(path string) (*recorder, error) {
	file, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	return &recorder{file: file}, nil
}

// wrap records every exchange but the simulator's own /hostlint/ endpoints; each line is written
// (unbuffered) once its answer is complete, so a stopped simulator leaves whole lines only.
func (rec *recorder) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		cw := &capturingWriter{ResponseWriter: w}
		next.ServeHTTP(cw, r)
		header := map[string][]string{}
		for name, values := range w.Header() {
			if !unrecordedHeaders[name] {
				header[name] = values
			}
		}
		status := cw.status
		if status == 0 {
			status = http.StatusOK
		}
		line, err := json.Marshal(exchange{r.Method, r.URL.Path, body, status, header, cw.body.Bytes()})
		if err != nil {
			return
		}
		rec.mu.Lock()
		defer rec.mu.Unlock()
		_, _ = rec.file.Write(append(line, '\n'))
	})
}

func (rec *recorder) close() { _ = rec.file.Close() }
