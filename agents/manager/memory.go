package manager

import "github.com/leaguetui/leaguetui/agents/node"

// Memory is the manager process's collector pacing (node.SetMemory): a
// soft memory limit. Without one, the garbage collector lets the heap grow
// to twice what is live before it collects, so a manager of 1,000 players
// and half a million matches would sit at twice its live heap; with one,
// it collects more often as the heap nears the limit instead.
var Memory = node.Memory{SoftLimit: node.SoftLimit}
