//go:build linux && !amd64

package main

// otherABIs: the filter is tested here through the native ABI only (a
// 32-bit arm program on arm64 would need arm code to run).
func (r *Report) otherABIs(foreign int, unixPath string) {}
