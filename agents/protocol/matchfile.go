package protocol

import (
	"strconv"
)

// A match file written by hand. Its referee writes one for every match:
// encoding/json walked the head by reflection, indented it in a second
// pass and encoded each exchange's head line apart. The file's shape is
// fixed, so it is written here in one pass with the very bytes
// json.MarshalIndent wrote (TestMatchFileAsEncodingJSON and
// FuzzMatchFile hold it to that).

// appendMatchFile appends f with transcript in the place of its
// transcript, as encodeMatchFileThroughJSON writes it; it is false where
// the result is left to encoding/json (see appendMatchResult).
func appendMatchFile(dst []byte, f *MatchFile, transcript []TranscriptRecord) ([]byte, bool) {
	dst = appendField(dst, "{\n  \"schema_version\": ", f.SchemaVersion)
	dst = appendField(dst, ",\n  \"match_id\": ", f.MatchID)
	dst = appendField(dst, ",\n  \"league_id\": ", f.LeagueID)
	dst = strconv.AppendInt(append(dst, ",\n  \"round_id\": "...), int64(f.RoundID), 10)
	dst = appendField(dst, ",\n  \"game_type\": ", f.GameType)
	dst = appendPlayers(append(dst, ",\n  \"players\": "...), f.Players)
	dst = appendField(dst, ",\n  \"referee_id\": ", f.RefereeID)
	dst = appendField(dst, ",\n  \"lifecycle\": {\n    \"state\": ", f.Lifecycle.State)
	dst = appendField(dst, ",\n    \"created_at\": ", f.Lifecycle.CreatedAt)
	dst = appendField(dst, ",\n    \"started_at\": ", f.Lifecycle.StartedAt)
	dst = appendField(dst, ",\n    \"finished_at\": ", f.Lifecycle.FinishedAt)
	dst = appendTranscript(append(dst, "\n  },\n  \"transcript\": "...), transcript)
	// The result is written compact, then indented at its depth: its shape
	// is the game's.
	var room [512]byte
	result, ok := appendMatchResult(room[:0], f.Result)
	if !ok {
		return dst, false
	}
	dst = appendIndented(append(dst, ",\n  \"result\": "...), result, 1)
	return append(dst, "\n}\n"...), true
}

// appendField appends what goes before a string member's value, and the
// value.
func appendField(dst []byte, before, value string) []byte {
	return AppendString(append(dst, before...), value)
}

// appendPlayers appends the players' map as json.MarshalIndent writes it
// at the file's first depth: its keys sorted, each on a line.
func appendPlayers(dst []byte, players map[string]string) []byte {
	switch {
	case players == nil:
		return append(dst, "null"...)
	case len(players) == 0:
		return append(dst, "{}"...)
	}
	var room [4]string
	keys := SortedKeys(players, room[:])
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(append(dst, "\n    "...), k)
		dst = AppendString(append(dst, ": "...), players[k])
	}
	return append(dst, "\n  }"...)
}

// appendTranscript appends the transcript, one exchange a line, null when
// there is none.
func appendTranscript(dst []byte, transcript []TranscriptRecord) []byte {
	if len(transcript) == 0 {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i := range transcript {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendTranscriptLine(append(dst, "\n    "...), &transcript[i])
	}
	return append(dst, "\n  ]"...)
}

// appendTranscriptLine appends one exchange as json.Marshal writes its
// head, its content added as the last member.
func appendTranscriptLine(dst []byte, e *TranscriptRecord) []byte {
	dst = strconv.AppendInt(append(dst, `{"seq":`...), int64(e.Seq), 10)
	dst = appendField(dst, `,"timestamp":`, e.Timestamp)
	dst = appendField(dst, `,"message_type":`, e.MessageType)
	dst = appendField(dst, `,"from":`, e.From)
	dst = appendField(dst, `,"to":`, e.To)
	dst = append(dst, `,"content":`...)
	if len(e.Content) == 0 {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, e.Content...)
	}
	return append(dst, '}')
}

// appendIndented appends compact, JSON as encoding/json writes it, as
// json.MarshalIndent indents it with the indent "  " when it stands at
// depth inside the whole: a line for each member and element, an empty
// object or array kept on its own line.
func appendIndented(dst, compact []byte, depth int) []byte {
	open := false // the last byte opened an object or an array
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		if open && c != '}' && c != ']' {
			open = false
			depth++
			dst = appendNewline(dst, depth)
		}
		switch c {
		case '"':
			end := stringEnd(compact, i)
			dst = append(dst, compact[i:end]...)
			i = end - 1
		case '{', '[':
			open = true
			dst = append(dst, c)
		case ',':
			dst = appendNewline(append(dst, c), depth)
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				dst = appendNewline(dst, depth)
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// stringEnd is the index just past the string that opens at compact[i].
func stringEnd(compact []byte, i int) int {
	for i++; i < len(compact); i++ {
		switch compact[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(compact)
}

func appendNewline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	for range depth {
		dst = append(dst, "  "...)
	}
	return dst
}

// View is the game's drawing of what the asked seat sees, as a move call
// carries it (move_request.context.text, a game program's board), or ""
// when the entry carries none. It comes from the game: a terminal or a
// page shows it only made printable, a line at a time.
func (e TranscriptEntry) View() string {
	request, _ := e.Content["move_request"].(map[string]any)
	context, _ := request["context"].(map[string]any)
	view, _ := context["text"].(string)
	return view
}
