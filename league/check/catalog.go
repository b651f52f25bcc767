// Package check is `leaguetui check`: it tests one league.v2 agent, a
// player or a referee written by anyone, against the protocol, by playing
// the roles around it (the manager and a referee for a player; the manager
// and two players for a referee) over real HTTP, and says per check what
// passed, what failed and why.
//
// Every check has a stable id named by its protocol area (register/…,
// invite/…, move/…), a level (PLAYS checks, the verdict "plays in a
// leaguetui league", decide the exit status; MUST and SHOULD checks, the
// league.v2 conformance verdict, count only with --strict) and the section of the documentation
// that explains it. The catalogue below is the one list of them:
// docs/check.md is checked against it.
package check

import (
	"fmt"
	"io"
	"strings"
)

// Level says how much a check counts.
type Level string

// The levels of a check, the words of RFC 2119.
const (
	Must   Level = "MUST"
	Should Level = "SHOULD"
	// Plays is the other verdict: not what league.v2 asks, but whether a
	// league of leaguetui would play the agent without a technical loss.
	Plays Level = "PLAYS"
)

// Role is the kind of agent checked.
type Role string

// The roles the checker plays around.
const (
	PlayerRole  Role = "player"
	RefereeRole Role = "referee"
)

// Def describes one check.
type Def struct {
	ID      string
	Level   Level
	Roles   []Role
	Summary string // what it checks, one sentence
	Doc     string // where the documentation explains it
	// Guide is the section of docs/joining.md, the player's guide, where a
	// player's author meets the rule, with the check's id beside it ("" for
	// a referee's check): a test holds the guide to it.
	Guide string
}

var (
	both    = []Role{PlayerRole, RefereeRole}
	player  = []Role{PlayerRole}
	referee = []Role{RefereeRole}
)

// Documentation sections the checks point at.
const (
	docTickets   = "docs/check.md#match-tickets"
	docJSONRPC   = "docs/protocol.md#json-rpc-framing"
	docTimeouts  = "docs/protocol.md#timeouts"
	docMCP       = "docs/mcp.md#mcp"
	docHealth    = "docs/check.md#health-and-mcp"
	docPlayerReg = "docs/protocol.md#league_register_request"
	docInvite    = "docs/protocol.md#game_invitation"
	docJoinAck   = "docs/protocol.md#game_join_ack"
	docParity    = "docs/protocol.md#choose_parity_call"
	docMoveCall  = "docs/protocol.md#game_move_call"
	docGameOver  = "docs/protocol.md#game_over"
	docReport    = "docs/protocol.md#match_result_report"
	docStart     = "docs/protocol.md#start_match"
	docNotify    = "docs/protocol.md#round_announcement"
	docLeague    = "docs/check.md#two-verdicts"
	docGame      = "docs/check.md#checking-a-game"
	docGameProto = "docs/games.md#the-protocol"
)

// gameRole is a game program's checks (GameRole, --game FILE.json).
var gameRole = []Role{GameRole}

// Catalogue lists every check, in the order they run and are printed.
var Catalogue = []Def{
	{"plays/registers", Plays, both, "a leaguetui manager admits the registration, read as it reads one (every field spelling it takes)", docPlayerReg, "docs/joining.md#registering"},
	{"plays/even_odd", Plays, player, "an even/odd match played as a leaguetui referee plays it (its method fallbacks, its reading of answers, its deadlines and retries) is no technical loss of the player's", docLeague, "docs/joining.md#a-whole-evenodd-match"},
	{"plays/link_race", Plays, player, "a link race played as a leaguetui referee plays it is no technical loss of the player's", docLeague, "docs/joining.md#a-whole-link-race"},
	{"plays/referees-matches", Plays, referee, "the referee takes start_match (or declines it and plays from the round announcement), invites and asks both players, and plays each match to a result that follows the moves and the deadlines, in a report the manager takes: what a leaguetui manager needs of it", docLeague, ""},
	{"register/request-is-well-formed", Must, both, "the register request carries the full envelope and the metadata league.v2 requires (display_name, version, game_types, contact_endpoint)", docPlayerReg, "docs/joining.md#registering"},
	{"register/refusal-is-handled", Must, both, "refused once (status REJECTED), the agent registers again, exits or stays idle; it does not carry on as if it had been admitted", docPlayerReg, "docs/joining.md#registering"},
	{"register/uses-assigned-id", Must, both, "after registration the agent's messages carry the id the manager gave it (sender and player_id)", docPlayerReg, "docs/joining.md#registering"},
	{"health/answers", Should, both, "GET /health on the agent's host answers 200 with JSON", docHealth, "docs/joining.md#health-optional"},
	{"mcp/tools-list", Should, both, "an MCP tools/list lists the tools of the agent's role, each with an object inputSchema", docMCP, "docs/joining.md#what-a-player-is"},
	{"rpc/unknown-method-is-32601", Must, both, "a request for a method nobody serves gets the JSON-RPC error -32601", docJSONRPC, "docs/joining.md#what-a-player-is"},
	{"rpc/notification-gets-no-reply", Must, both, "a JSON-RPC notification (no id) is answered with no JSON-RPC response", docJSONRPC, "docs/joining.md#what-a-player-is"},
	{"rpc/id-echoed", Must, both, "a reply is a JSON-RPC 2.0 response that echoes the request's id exactly, whatever its type", docJSONRPC, "docs/joining.md#what-a-player-is"},
	{"notify/acks", Must, both, "ROUND_ANNOUNCEMENT, LEAGUE_STANDINGS_UPDATE and ROUND_COMPLETED each get a result, not an error", docNotify, "docs/joining.md#what-a-player-receives"},
	{"ticket/refuses-a-stranger", Should, player, "an invitation that does not carry the match ticket of its match and referee is refused", docTickets, "docs/joining.md#tickets-optional-to-check"},
	{"invite/ack-within-deadline", Must, player, "GAME_INVITATION is answered within the join deadline (5 s)", docInvite, "docs/joining.md#a-whole-evenodd-match"},
	{"invite/ack-is-well-formed", Must, player, "the answer is GAME_JOIN_ACK with accept true, the match id, the player's id and the conversation id echoed", docJoinAck, "docs/joining.md#a-whole-evenodd-match"},
	{"move/answer-within-deadline", Must, player, "a move call is answered before its deadline", docTimeouts, "docs/joining.md#timeouts-retries-and-technical-losses"},
	{"move/parity-is-even-or-odd", Must, player, "even_odd: parity_choice is exactly \"even\" or \"odd\"", docParity, "docs/joining.md#a-whole-evenodd-match"},
	{"move/link-is-on-the-page", Must, player, "link_race: the move is navigate to a link of the current page", docMoveCall, "docs/joining.md#a-whole-link-race"},
	{"move/response-is-well-formed", Must, player, "the answer is CHOOSE_PARITY_RESPONSE (GAME_MOVE_RESPONSE for other games) with the match id and the player's id", docParity, "docs/joining.md#a-whole-evenodd-match"},
	{"result/ack", Must, player, "GAME_OVER is acknowledged with a result within 5 s", docGameOver, "docs/joining.md#a-whole-evenodd-match"},
	{"rpc/malformed-json-is-32700", Should, both, "a body that is not JSON gets the JSON-RPC error -32700", docJSONRPC, "docs/joining.md#what-a-player-is"},
	{"rpc/survives-malformed-json", Must, both, "after a body that is not JSON the agent still answers correctly", docJSONRPC, "docs/joining.md#what-a-player-is"},
	{"rpc/survives-oversize-body", Must, both, "after a 4 MiB request body the agent still answers correctly", docJSONRPC, "docs/joining.md#what-a-player-is"},
	{"move/late-call-is-harmless", Must, player, "a move call for a match already over does not bring the agent down", docParity, "docs/joining.md#what-a-player-receives"},
	{"move/foreign-match-is-harmless", Must, player, "a move call for a match the agent is not in does not bring the agent down", docParity, "docs/joining.md#what-a-player-receives"},
	{"referee/acks-start-match", Must, referee, "start_match is acknowledged with a result within 10 s", docStart, ""},
	{"referee/invites-both", Must, referee, "both players get a GAME_INVITATION with their own role, the opponent and the match id", docInvite, ""},
	{"referee/asks-both-for-a-move", Must, referee, "once both joined, both players get a move call with their id and a deadline", docParity, ""},
	{"referee/result-matches-moves", Must, referee, "GAME_OVER to both players and the report to the manager agree with the moves and the game's rules", docGameOver, ""},
	{"referee/reports-once", Must, referee, "each match is reported to the manager exactly once", docReport, ""},
	{"referee/technical-loss-only-after-deadline", Must, referee, "a move that comes late but within the deadline counts; a player that never answers loses technically, and not before its deadline", docTimeouts, ""},
	{gameDeterministic, Plays, gameRole, "the same match and league seed, played twice with the same moves, gives the same messages from the program, every one", docGame, docGameProto},
	{gameLegalMoves, Plays, gameRole, "in seeded matches of random moves drawn from each turn's options, every listed move is accepted", docGame, docGameProto},
	{gameGarbage, Plays, gameRole, "answers that are no move (an unknown word, an empty string, 64 KiB, broken JSON) are each refused as not_a_move and the match goes on to its end", docGame, docGameProto},
	{gameTurnLimit, Plays, gameRole, "every seeded match ends within the turn limit (1000 turns: the manifest names none)", docGame, docGameProto},
	{gameHidden, Plays, gameRole, "in a turn asking both seats, what a seat is told when its answer is refused is the same before and after the other seat's move", docGame, docGameProto},
	{gameTurnTime, Plays, gameRole, "the program's answers' median and longest time, reported; it fails only past the manifest's deadlines", docGame, "docs/games.md#the-manifest"},
	{"register/presents-saved-credentials", Should, both, "stopped and started again, the agent registers presenting the id and token it was given (sender and auth_token), so that the manager gives it its id back", docPlayerReg, "docs/joining.md#registering"},
}

// Lookup returns a check's definition.
func Lookup(id string) (Def, bool) {
	for _, d := range Catalogue {
		if d.ID == id {
			return d, true
		}
	}
	return Def{}, false
}

// Selected lists the checks a run of role reports: its MUST checks, and
// its SHOULD checks too when strict.
func Selected(role Role, strict bool) []Def {
	var out []Def
	for _, d := range Catalogue {
		if (d.Level != Should || strict) && hasRole(d.Roles, role) {
			out = append(out, d)
		}
	}
	return out
}

func hasRole(roles []Role, r Role) bool {
	for _, x := range roles {
		if x == r {
			return true
		}
	}
	return false
}

// Markdown is the catalogue as the table of docs/check.md: id, level,
// roles, what it checks, and the section that explains it (a link
// relative to docs/).
func Markdown() string {
	var b strings.Builder
	b.WriteString("| check | level | roles | what it checks | explained in |\n|---|---|---|---|---|\n")
	for _, d := range Catalogue {
		roles := make([]string, len(d.Roles))
		for i, r := range d.Roles {
			roles[i] = string(r)
		}
		link := strings.TrimPrefix(d.Doc, "docs/")
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | [%s](%s) |\n", d.ID, d.Level, strings.Join(roles, ", "), d.Summary, link, link)
	}
	return b.String()
}

// List writes the catalogue for people: one check a line.
func List(w io.Writer) {
	for _, d := range Catalogue {
		roles := make([]string, len(d.Roles))
		for i, r := range d.Roles {
			roles[i] = string(r)
		}
		fmt.Fprintf(w, "%-6s %-44s %-15s %s\n", d.Level, d.ID, strings.Join(roles, ","), d.Summary)
	}
}
