// Package tlsconf holds the TLS settings a leaguetui process shares: the
// certificate authorities its HTTP clients trust (the system's, plus those of
// --tls-ca) and the certificate its agent serves with --tls-cert/--tls-key.
//
// The trusted roots are one per process, like the system pool they extend:
// every client of the process (league calls, the manager's MCP checks, the
// console's and headless run's control client, health probes) must trust the
// same agents. TrustCA is called once at start, before clients are built.
package tlsconf

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
)

// roots is the pool clients verify servers against once TrustCA added to
// the system's; nil until then, which crypto/tls reads as the system's.
var (
	roots     atomic.Pointer[x509.CertPool]
	rootsOnce sync.Once
	trustMu   sync.Mutex // serialises TrustCA's read-modify-write of roots
)

// pool returns the current trusted roots: the system's at first, loaded
// here for TrustCA to add to.
func pool() *x509.CertPool {
	rootsOnce.Do(func() {
		system, err := x509.SystemCertPool()
		if err != nil || system == nil {
			system = x509.NewCertPool() // no system roots: trust only what TrustCA adds
		}
		roots.CompareAndSwap(nil, system)
	})
	return roots.Load()
}

// TrustCA adds the PEM certificates in file to the roots this process's
// clients trust. The pool is replaced, never changed in place, so clients
// built earlier keep verifying safely against the pool they hold.
func TrustCA(file string) error {
	pem, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("--tls-ca: %w", err)
	}
	trustMu.Lock()
	defer trustMu.Unlock()
	next := pool().Clone()
	if !next.AppendCertsFromPEM(pem) {
		return fmt.Errorf("--tls-ca: %s holds no PEM certificate", file)
	}
	roots.Store(next)
	return nil
}

// Client is the TLS configuration for an HTTP client of this process.
// Without --tls-ca its RootCAs is nil, the system's roots, which crypto/x509
// loads at the first handshake: loading them when a client is built cost
// every agent about 15 ms of CPU at start, TLS or not.
func Client() *tls.Config {
	return &tls.Config{RootCAs: roots.Load(), MinVersion: tls.VersionTLS12}
}

// Server loads the certificate an agent serves. Both files empty means
// plain HTTP (nil config); one without the other is an error.
func Server(certFile, keyFile string) (*tls.Config, error) {
	if certFile == "" && keyFile == "" {
		return nil, nil
	}
	if certFile == "" || keyFile == "" {
		return nil, errors.New("--tls-cert and --tls-key go together")
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("cannot load --tls-cert %s / --tls-key %s: %w", certFile, keyFile, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// LooseKey is a one-line warning when keyFile's mode lets its group or
// other users read it (a private key any local user may copy), "" when
// only its owner may, or when it cannot be read (Server says so). The key
// is still used: refusing it would stop a league over a mode an operator
// may have chosen on a single-user machine.
func LooseKey(keyFile string) string {
	if keyFile == "" {
		return ""
	}
	info, err := os.Stat(keyFile)
	if err != nil || info.Mode().Perm()&0o044 == 0 {
		return ""
	}
	return fmt.Sprintf("warning: --tls-key %s is readable by other users (mode %04o): chmod 600 it", keyFile, info.Mode().Perm())
}

// Setup applies a process's TLS flags: it trusts caFile if one is given.
func Setup(caFile string) error {
	if caFile == "" {
		return nil
	}
	return TrustCA(caFile)
}
