package seat

import "github.com/leaguetui/leaguetui/agents/node"

// Memory is the seat host process's collector pacing (node.SetMemory).
// The MCP SDK reads every JSON value it decodes (a message, its request's
// meta, its batch, its parameters: some ten a move across a seat's two
// tool calls) through a decoder of its own with a fresh 32 KB buffer, so a
// host makes some 0.35 MB of garbage a move over a live heap of a few MB.
// At Go's default GOGC of 100 it collected every few moves, and collecting
// took well over half of its CPU (BenchmarkMoveThroughSeat, docs/
// benchmark.md); at 400 the heap grows to five times what is live before
// a collection, and the soft limit (the manager's too) bounds a host
// whose live heap grows.
var Memory = node.Memory{GCPercent: 400, SoftLimit: node.SoftLimit}
