package launcher

import (
	"context"
	"fmt"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/league/process"
)

// mcpSeatEntries are --mcp-seats' seats, seat-1 to seat-n: entries of
// kind mcp, which an MCP client takes at the league's seat host.
func mcpSeatEntries(n int) []config.RosterEntry {
	entries := make([]config.RosterEntry, n)
	for i := range entries {
		entries[i] = config.RosterEntry{Name: fmt.Sprintf("seat-%d", i+1), MCP: true}
	}
	return entries
}

// mcpSeats are the league's players of kind mcp, in order.
func mcpSeats(players []config.RosterEntry) []config.RosterEntry {
	var seats []config.RosterEntry
	for _, e := range players {
		if e.Kind() == config.KindMCP {
			seats = append(seats, e)
		}
	}
	return seats
}

// startSeatHost starts the one seat host of the league's MCP-client seats
// (`leaguetui seats`), when it has any, and writes the data folder's
// seats.json (mode 0600, the organiser's alone): the MCP URL, and each
// seat's name and join code, the code the manager admits its name with
// (seatArgs made it). Each seat's player registers when a client first
// takes the seat, so the league waits for its clients as it waits for
// external entries.
func (l *launching) startSeatHost(ctx context.Context) error {
	seats := mcpSeats(l.players)
	if len(seats) == 0 {
		return nil
	}
	league := l.league
	file := store.SeatsFile{Seats: make([]store.SeatCode, len(seats))}
	for i, e := range seats {
		code, _ := league.joinCodes.Lookup(e.Name) // every seat is coded (seatArgs)
		file.Seats[i] = store.SeatCode{Name: e.Name, JoinCode: code}
	}
	path := l.layout.Seats()
	if err := store.SaveSeats(path, file); err != nil {
		return err
	}
	args := append([]string{"seats", "--port", "0", "--manager", league.Manager.Endpoint, "--seats", path},
		l.argsFor("seats")...)
	host, err := process.Start(ctx, l.spec.Executable, process.Spec{
		Name: "seat host", OutputPath: l.output("seats"), Args: args, Env: l.spec.Env,
	}, agentReady)
	if err != nil {
		return err
	}
	league.Seats = host
	file.MCPURL = host.Endpoint
	if err := store.SaveSeats(path, file); err != nil {
		return err
	}
	league.SeatsURL, league.SeatsFile = host.Endpoint, path
	league.say(fmt.Sprintf("MCP-client seats at %s: the seats and their join codes are in %s (readable by you only); hand each client its own",
		host.Endpoint, path))
	return nil
}
