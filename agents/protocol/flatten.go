package protocol

// GAME_OVER's result and MATCH_RESULT_REPORT's details written by hand.
// Each carries a game's facts flat beside its own fields, which
// wirejson.Flatten wrote by encoding the fields, scanning them back and
// encoding each fact apart, for both players' GAME_OVER and the report of
// every match. Flatten's bytes are those of one map[string]any: without
// facts, the struct as encoding/json writes it; with facts, the fields
// as they read back from their encoding and the facts as they are, keys
// sorted. The writers below give the same bytes in one pass for what a
// game's facts hold (see appendValue), and are false for anything else,
// which Flatten still writes (FuzzEncode holds the two to the same bytes).

// appendGameResult appends r as GameResult.MarshalJSON writes it through
// wirejson.Flatten, and is false where it cannot be sure to.
func appendGameResult(dst []byte, r *GameResult) ([]byte, bool) {
	var stack [16]resultMember
	if len(r.Details) == 0 {
		return appendMembers(dst, gameResultFields(stack[:0], r, false))
	}
	return appendSortedMembers(dst, withFacts(gameResultFields(stack[:0], r, true), r.Details, false))
}

// appendReportDetails appends d as ReportDetails.MarshalJSON writes it
// through wirejson.Flatten, and is false where it cannot be sure to.
func appendReportDetails(dst []byte, d *ReportDetails) ([]byte, bool) {
	decoded := len(d.Game) > 0 // Flatten reads the fields back only to merge facts
	var stack [16]resultMember
	members := append(stack[:0], resultMember{"choices", d.Choices, decoded})
	if d.TechnicalLoss { // the fields' omitempty
		members = append(members, resultMember{"technical_loss", true, decoded})
	}
	if d.Reason != "" {
		members = append(members, resultMember{"reason", &d.Reason, decoded})
	}
	if d.OffendingPlayer != "" {
		members = append(members, resultMember{"offending_player", &d.OffendingPlayer, decoded})
	}
	if len(d.Offenders) > 0 {
		members = append(members, resultMember{"offending_players", &d.Offenders, decoded})
	}
	if !decoded {
		return appendMembers(dst, members)
	}
	return appendSortedMembers(dst, withFacts(members, d.Game, false))
}
