package web

import (
	"context"
	"fmt"
	"io"
	"time"
)

// Serve serves the live web view of the manager at managerURL on addr
// until ctx ends, and says where on progress. The view it returns is for
// Finish, once the league has ended.
func Serve(ctx context.Context, managerURL, addr string, progress io.Writer) (*Server, error) {
	s := New(managerURL)
	url, err := s.Start(ctx, addr)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(progress, "leaguetui: web view at %s\n", url)
	return s, nil
}

// FinishTimeout bounds how long a league that has ended waits for its
// web view's streams to take the final standings (Finish) before its
// manager stops.
const FinishTimeout = 5 * time.Second
