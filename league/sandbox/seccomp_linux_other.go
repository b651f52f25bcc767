//go:build linux && !amd64 && !arm64

package sandbox

// The filter is written for amd64 and arm64 only (little-endian, their
// ABIs known): elsewhere no filter is installed and Support says so.
const (
	nativeArch = 0
	foreignNr  = 0
)
