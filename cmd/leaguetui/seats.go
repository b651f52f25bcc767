package main

import (
	"cmp"
	"context"
	"fmt"
	"io"

	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/agents/seat"
	"github.com/leaguetui/leaguetui/agents/store"
)

const seatsHelp = `leaguetui seats: host a league's MCP-client seats, which MCP clients take to play the league through tools.

An MCP client (an assistant, an agent written with any MCP SDK) connects to the endpoint this prints (Streamable HTTP) and plays through four tools: take_seat with its join code, then wait_for_turn and submit_move until the league is completed, and get_standings. Behind each seat a player registers with the manager under the seat's name and join code when a client first takes it; a client that comes back with its code keeps its seat. The seats file is the data folder's seats.json that a league started with --mcp-seats writes (see docs/joining.md#mcp-client-seats).

Flags:
`

func runSeats(ctx context.Context, args []string, stdout io.Writer) error {
	fs, cf := newFlagSet("leaguetui seats", seatsHelp, stdout)
	af := agentFlags{port: fs.Int("port", 0, "port of the MCP endpoint (0 takes a free one)"), data: fs.String("data", "./data", "data `folder`"),
		manager: fs.String("manager", "http://127.0.0.1:8000/mcp", "the league manager's /mcp `URL`")}
	seatsFile := fs.String("seats", "", "the seats `file` (JSON: seats, each a name and a join_code; the data folder's seats.json)")
	cfg, err := parse(fs, cf, args)
	if err != nil {
		return err
	}
	if err := cmp.Or(checkAgentFlags(af), checkGame(cf, cfg)); err != nil {
		return err
	}
	if *seatsFile == "" {
		return &usageError{"--seats: name the seats file (the data folder's seats.json)"}
	}
	seats, err := store.LoadSeats(*seatsFile)
	if err != nil {
		return &usageError{fmt.Sprintf("--seats %s: %v", *seatsFile, err)}
	}
	node.SetMemory(seat.Memory)
	host, err := seat.New(seat.Options{Config: cfg, DataDir: *af.data, Port: *af.port, ManagerURL: *af.manager,
		Seats: seats.Seats, Stdout: stdout})
	if err != nil {
		return &usageError{fmt.Sprintf("--seats %s: %v", *seatsFile, err)}
	}
	return serve(ctx, "seats", host)
}
