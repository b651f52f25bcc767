package web

import (
	"context"
	"fmt"
	"io"
)

// Serve serves the live web view of the manager at managerURL on addr
// until ctx ends, and says where on progress.
func Serve(ctx context.Context, managerURL, addr string, progress io.Writer) error {
	url, err := New(managerURL).Start(ctx, addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(progress, "leaguetui: web view at %s\n", url)
	return nil
}
