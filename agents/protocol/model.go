package protocol

// ModelMove is what a model player says of one move beside it, in the
// "model" field of its CHOOSE_PARITY_RESPONSE or GAME_MOVE_RESPONSE: which
// model chose it, what it cost, and, when the model or its provider
// failed, the seed's error type, the game status it ends with and the
// error's metadata. A Fallback move was chosen by the player's fallback
// strategy because the provider failed; the failure is still named. Other
// implementations may leave the field out.
type ModelMove struct {
	Provider     string         `json:"provider"`
	Model        string         `json:"model"`
	InputTokens  int64          `json:"input_tokens"`
	OutputTokens int64          `json:"output_tokens"`
	LatencyMS    int64          `json:"latency_ms"`
	Fallback     bool           `json:"fallback,omitempty"`
	ErrorType    string         `json:"error_type,omitempty"`
	Status       string         `json:"status,omitempty"`
	Metadata     map[string]any `json:"metadata,omitempty"`
}

// Failed reports whether the model made no valid move of its own.
func (m *ModelMove) Failed() bool { return m != nil && m.ErrorType != "" }
