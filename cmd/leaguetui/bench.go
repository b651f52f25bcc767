package main

import (
	"context"
	"errors"
	"io"
)

// runBench measures the league's throughput against the machine's.
func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("bench: not built yet")
}
