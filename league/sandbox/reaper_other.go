//go:build !linux

package sandbox

import "sync"

// BecomeSubreaper does nothing: only Linux has subreapers
// (PR_SET_CHILD_SUBREAPER). A program's orphans are not adopted here.
func BecomeSubreaper() {}

// ReapOrphans does nothing: no orphan comes to this process here.
func ReapOrphans(lock sync.Locker, keep func(pid int) bool) {}

// SweepOrphans does nothing: no orphan comes to this process here.
func SweepOrphans(keep func(pid int) bool) {}

// Orphans are the orphans this process adopted: none here.
func Orphans(keep func(pid int) bool) []int { return nil }
