package manager

import (
	"net"
	"net/http"
	"net/http/pprof"
	"os"

	"github.com/leaguetui/leaguetui/agents/rpc"
)

// servePprof serves net/http/pprof on the address in LEAGUETUI_PPROF (for
// example 127.0.0.1:6060) when it is set, to profile a manager under load
// with go tool pprof. It is off by default and never on the league's port.
func (m *Manager) servePprof() {
	addr := os.Getenv("LEAGUETUI_PPROF")
	if addr == "" {
		return
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		m.Log.Warn("cannot serve pprof", "event_type", "PPROF_FAILED", "addr", addr, "err", err)
		return
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	m.Log.Info("serving pprof", "event_type", "PPROF_SERVING", "addr", ln.Addr().String())
	// No write deadline: a CPU profile is written for as long as it is asked.
	srv := rpc.NewHTTPServer(mux, rpc.DefaultReadTimeout, m.Log)
	go func() { _ = srv.Serve(ln) }()
}
