package referee

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
)

// Another implementation's manager issues no manager_key and sends no
// start_match: league.v2 has the referee start the matches a round
// announcement gives it (protocol.md §5.4 item 6, §9 #3 and #4). Our
// manager does issue a key, and then announcements only inform.

// handleRoundAnnouncement acknowledges a round announcement and, when this
// referee's manager issued no manager_key, takes the matches it assigns
// to this referee, each once however often the announcement comes.
func (r *Referee) handleRoundAnnouncement(ctx context.Context, in protocol.Inbound) (any, error) {
	if !r.ManagerIssuedNoKey() {
		return r.Ack(ctx, in)
	}
	var ann protocol.RoundAnnouncement
	if err := rpc.DecodeParams(in, &ann); err != nil {
		return nil, err
	}
	for _, m := range ann.Matches {
		if r.assignedHere(m) && r.announced.first(m.MatchID) {
			go r.takeAnnounced(ann, m)
		}
	}
	return r.Ack(ctx, in)
}

// assignedHere reports a match the announcement gives this referee: by
// its id, or by its endpoint.
func (r *Referee) assignedHere(m protocol.AnnouncedMatch) bool {
	id, _ := r.Identity()
	if m.RefereeID != "" && id != "" {
		return strings.EqualFold(m.RefereeID, id)
	}
	mine, err := protocol.NormalizeEndpoint(r.Endpoint())
	theirs, err2 := protocol.NormalizeEndpoint(m.RefereeEndpoint)
	return err == nil && err2 == nil && mine == theirs
}

// takeAnnounced plays an announced match as if start_match had given it.
func (r *Referee) takeAnnounced(ann protocol.RoundAnnouncement, m protocol.AnnouncedMatch) {
	ctx := r.Lifetime()
	start := protocol.StartMatch{Envelope: ann.Envelope, GameType: m.GameType, PlayerAID: m.PlayerAID, PlayerBID: m.PlayerBID,
		PlayerAEndpoint: m.PlayerAEndpoint, PlayerBEndpoint: m.PlayerBEndpoint}
	start.MatchID, start.AuthToken = m.MatchID, ""
	start.RefereeID, _ = r.Identity()
	if start.GameType == "" {
		start.GameType = r.opts.Config.GameType
	}
	if start.LeagueID == "" {
		start.LeagueID = r.Layout().LeagueID
	}
	if err := r.findEndpoints(ctx, &start); err != nil {
		r.skipAnnounced(m.MatchID, err)
		return
	}
	if _, err := r.begin(start); err != nil {
		r.skipAnnounced(m.MatchID, err)
		return
	}
	r.Log.Info("announced match taken", "event_type", "ANNOUNCED_MATCH_TAKEN", "match_id", m.MatchID)
}

// skipAnnounced says, in the log and on stderr, that an announced match is
// not taken and why (most often: the manager published no player
// endpoints). A manager of another implementation waits for its result,
// and its operator reads the referee's stderr (leaguetui copies it to the
// agent's log), not its data folder. One line a match: each announced
// match is taken, or skipped, once.
func (r *Referee) skipAnnounced(matchID string, err error) {
	r.Log.Warn("announced match not taken", "event_type", "ANNOUNCED_MATCH_SKIPPED", "match_id", matchID, "err", err)
	fmt.Fprintf(r.Stderr, "leaguetui referee: announced match %s not taken: %s\n", protocol.Printable(matchID),
		protocol.Printable(err.Error()))
}

// findEndpoints fills in the players' endpoints the announcement did not
// carry: from the manager (league_query GET_PLAYERS), else from the config
// folder's agents/agents_config.json.
func (r *Referee) findEndpoints(ctx context.Context, start *protocol.StartMatch) error {
	if start.PlayerAEndpoint != "" && start.PlayerBEndpoint != "" {
		return nil
	}
	for _, book := range []func(context.Context) map[string]string{r.queryPlayers, r.phoneBook} {
		known := book(ctx)
		if start.PlayerAEndpoint == "" {
			start.PlayerAEndpoint = known[start.PlayerAID]
		}
		if start.PlayerBEndpoint == "" {
			start.PlayerBEndpoint = known[start.PlayerBID]
		}
		if start.PlayerAEndpoint != "" && start.PlayerBEndpoint != "" {
			return nil
		}
	}
	return fmt.Errorf("no endpoint for %s or %s in the announcement, from the manager (GET_PLAYERS) or in agents/agents_config.json",
		start.PlayerAID, start.PlayerBID)
}

// playerEntry is a player as managers and phone books list it.
type playerEntry struct {
	PlayerID        string `json:"player_id"`
	ContactEndpoint string `json:"contact_endpoint"`
	Endpoint        string `json:"endpoint"`
	DefaultEndpoint string `json:"default_endpoint"`
}

func endpointsOf(list []playerEntry) map[string]string {
	out := map[string]string{}
	for _, p := range list {
		for _, e := range []string{p.ContactEndpoint, p.Endpoint, p.DefaultEndpoint} {
			if e != "" && p.PlayerID != "" {
				out[p.PlayerID] = e
				break
			}
		}
	}
	return out
}

// queryPlayers asks the manager for its players' endpoints.
func (r *Referee) queryPlayers(ctx context.Context) map[string]string {
	q := &protocol.LeagueQuery{Envelope: r.Envelope(protocol.TypeLeagueQuery, "conv-players"), QueryType: protocol.QueryPlayers}
	var resp struct {
		protocol.Envelope
		Data struct {
			Players []playerEntry `json:"players"`
		} `json:"data"`
		Players []playerEntry `json:"players"`
	}
	if err := r.Client.Do(ctx, rpc.Call{Endpoint: r.opts.ManagerURL, Message: q, Timeout: r.opts.Config.Timeouts.Query}, &resp); err != nil {
		r.Log.Info("the manager did not list its players", "event_type", "QUERY_FAILED", "err", err)
		return nil
	}
	return endpointsOf(append(resp.Data.Players, resp.Players...))
}

// phoneBook reads the players' endpoints from the config folder's
// agents/agents_config.json (protocol.md §6), when there is one.
func (r *Referee) phoneBook(context.Context) map[string]string {
	if r.opts.Config.Dir == "" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(r.opts.Config.Dir, "agents", "agents_config.json"))
	if err != nil {
		return nil
	}
	var book struct {
		Players []playerEntry `json:"players"`
	}
	if json.Unmarshal(data, &book) != nil {
		return nil
	}
	return endpointsOf(book.Players)
}

// onceEach remembers the matches already taken from announcements.
type onceEach struct {
	mu   sync.Mutex
	seen map[string]bool
}

// first reports whether id is new, and remembers it.
func (o *onceEach) first(id string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.seen[id] {
		return false
	}
	if o.seen == nil {
		o.seen = map[string]bool{}
	}
	o.seen[id] = true
	return true
}
