// Package bench measures how close a league runs to what the machine can do.
//
// It takes two figures on the same machine in the same run. Raw is the
// ceiling: a minimal Go HTTP server and client on loopback exchanging a
// JSON-RPC request and response the size of a real league message, with
// keep-alive, at the league's concurrency. League is the real thing: a whole
// league of separate agent processes, from which it counts matches and HTTP
// exchanges per second, match durations and the manager's peak memory. The
// ratio of the two exchange rates says how much of the machine's HTTP
// capacity the league turns into league traffic; what is missing goes to
// JSON, logging, journaling, scheduling and waiting.
package bench
