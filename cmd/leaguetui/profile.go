package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
)

// CPUProfileEnv names a folder: an agent started with it set writes a CPU
// profile of its whole run there when it stops cleanly (SIGTERM), as
// <role>-<pid>.pprof, for go tool pprof. The bench's children inherit it,
// so one bench run profiles the manager, every referee and every player.
const CPUProfileEnv = "LEAGUETUI_CPUPROFILE"

// profileCPU starts the CPU profile when CPUProfileEnv is set and returns
// what stops it; without the variable it does nothing.
func profileCPU(role string) (stop func(), err error) {
	dir := os.Getenv(CPUProfileEnv)
	if dir == "" {
		return func() {}, nil
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%s-%d.pprof", role, os.Getpid())))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", CPUProfileEnv, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", CPUProfileEnv, err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
