//go:build !linux

// Command sandboxprobe tries each way out of leaguetui's sandbox from
// inside it; the sandbox is Linux's (Landlock, seccomp, cgroups), so
// elsewhere there is nothing to probe.
package main

import (
	"fmt"
	"os"
	"runtime"
)

func main() {
	fmt.Fprintf(os.Stderr, "sandboxprobe: the sandbox is not available on %s: nothing to probe\n", runtime.GOOS)
	os.Exit(2)
}
