package bench

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// SampleExchange returns the body of a real CHOOSE_PARITY_CALL request and of
// its CHOOSE_PARITY_RESPONSE, framed as JSON-RPC the way agents frame them,
// with ids, tokens and timestamps as long as the league's. The raw measure
// sends these, so that its bytes per exchange match the league's.
func SampleExchange() (request, response []byte, err error) {
	const (
		league = "league_2025_even_odd"
		match  = "R12M7"
		conv   = "conv-" + match + "-" + league
	)
	token := "tok-" + strings.Repeat("5f", 32) // 32 random bytes in hex, as the manager issues
	now := time.Now()

	call := protocol.MoveCall{
		Envelope: envelope(protocol.TypeChooseParityCall, "referee:REF03", conv, token, now),
		PlayerID: "P17",
		GameType: "even_odd",
		Context: protocol.MoveContext{OpponentID: "P42", RoundID: 12,
			YourStandings: protocol.Standing{Wins: 5, Losses: 4, Draws: 2}},
		Deadline:    protocol.FormatTime(now.Add(30 * time.Second)),
		MoveRequest: &protocol.MoveRequest{MoveType: "parity", ValidOptions: []string{"even", "odd"}},
	}
	call.RoundID, call.MatchID, call.LeagueID = 12, match, league
	request, err = protocol.EncodeRequest("choose_parity", &call, 123456)
	if err != nil {
		return nil, nil, err
	}

	reply := protocol.MoveAnswer{
		Envelope: envelope(protocol.TypeChooseParityResponse, "player:P17", conv, token, now),
		PlayerID: "P17",
		Choice:   "even",
	}
	reply.RoundID, reply.MatchID, reply.LeagueID = 12, match, league
	response, err = protocol.EncodeResult(json.RawMessage("123456"), &reply)
	if err != nil {
		return nil, nil, err
	}
	return request, response, nil
}

func envelope(messageType, sender, conv, token string, now time.Time) protocol.Envelope {
	env := protocol.NewEnvelope(messageType, sender, conv)
	env.Timestamp = protocol.FormatTime(now)
	env.AuthToken = token
	return env
}
