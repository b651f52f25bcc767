package main

import (
	"context"
	"errors"

	"github.com/leaguetui/leaguetui/agents/headless"
)

// runConsole starts the interactive console.
func runConsole(ctx context.Context, opts headless.Options) error {
	return errors.New("the console is not available in this build yet: run with --no-ui")
}
