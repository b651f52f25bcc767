package engine

// The provider errors of the seed's taxonomy: a model player's provider
// failed, so the player made no move of its own. The model errors
// (ErrorNoToolCall, ErrorInvalidTool, ErrorInvalidLink, ErrorGeneration)
// are beside the link race's statuses.
const (
	ErrorRateLimit       = "PROVIDER_RATE_LIMIT"
	ErrorProviderTimeout = "PROVIDER_TIMEOUT"
	ErrorProviderAPI     = "PROVIDER_API_ERROR"
)

// ModelErrorStatus is the game status a model error of the seed's taxonomy
// ends its player's game with: LOST_INVALID_MOVE for a move the model got
// wrong, ERROR when the model or its provider failed. ok is false for a
// name outside the taxonomy.
func ModelErrorStatus(errorType string) (status string, ok bool) {
	switch errorType {
	case ErrorNoToolCall, ErrorInvalidTool, ErrorInvalidLink:
		return RaceLostInvalidMove, true
	case ErrorGeneration, ErrorRateLimit, ErrorProviderTimeout, ErrorProviderAPI:
		return RaceError, true
	}
	return "", false
}
