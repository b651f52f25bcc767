package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// versionLine says which leaguetui this is: the module version ("(devel)"
// when built from a checkout), the source revision and whether the tree had
// changes, as the Go toolchain recorded them in the binary.
func versionLine() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "leaguetui (no build information) " + runtime.Version()
	}
	line := "leaguetui " + info.Main.Version
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		line += " revision " + rev
		if t := settings["vcs.time"]; t != "" {
			line += fmt.Sprintf(" (%s)", t)
		}
		if settings["vcs.modified"] == "true" {
			line += " with local changes"
		}
	} else {
		line += " (no source revision recorded)"
	}
	return line + " " + info.GoVersion
}
