//go:build !linux

package sandbox

import "errors"

// Cgroup is a program's cgroup, which only Linux makes: Probe's
// CgroupBase is always "" here, so none is ever made, and its methods do
// nothing.
type Cgroup struct{}

// NewCgroup fails: there are no cgroups here.
func NewCgroup(s Support, name string, l Limits) (*Cgroup, error) {
	return nil, errors.New(unavailable + ": no cgroups")
}

// Join are the v1 cgroups a program joins: none.
func (c *Cgroup) Join() []string { return nil }

// FD is the cgroup's folder's descriptor: none.
func (c *Cgroup) FD() int { return -1 }

// Started does nothing.
func (c *Cgroup) Started() {}

// Kill does nothing.
func (c *Cgroup) Kill() {}

// Populated says no process is in it.
func (c *Cgroup) Populated() bool { return false }

// Pids are its processes: none.
func (c *Cgroup) Pids() []int { return nil }

// Remove does nothing.
func (c *Cgroup) Remove() {}
