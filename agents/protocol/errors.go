package protocol

import (
	"errors"
	"fmt"
)

// League error codes: only those the specification defines (protocol.md §5.3).
const (
	CodeTimeout              = "E001"
	CodeMissingField         = "E003"
	CodeInvalidMove          = "E004"
	CodePlayerNotRegistered  = "E005"
	CodeConnection           = "E009"
	CodeAuthTokenMissing     = "E011"
	CodeAuthTokenInvalid     = "E012"
	CodeRefereeNotRegistered = "E013"
	CodeProtocolVersion      = "E018"
	CodeInvalidTimestamp     = "E021"
)

// ErrorNames maps each code to the name peers branch on.
var ErrorNames = map[string]string{
	CodeTimeout:              "TIMEOUT_ERROR",
	CodeMissingField:         "MISSING_REQUIRED_FIELD",
	CodeInvalidMove:          "INVALID_PARITY_CHOICE",
	CodePlayerNotRegistered:  "PLAYER_NOT_REGISTERED",
	CodeConnection:           "CONNECTION_ERROR",
	CodeAuthTokenMissing:     "AUTH_TOKEN_MISSING",
	CodeAuthTokenInvalid:     "AUTH_TOKEN_INVALID",
	CodeRefereeNotRegistered: "REFEREE_NOT_REGISTERED",
	CodeProtocolVersion:      "PROTOCOL_VERSION_MISMATCH",
	CodeInvalidTimestamp:     "INVALID_TIMESTAMP",
}

// Retryable reports whether the specification lets a caller retry after this code.
func Retryable(code string) bool { return code == CodeTimeout || code == CodeConnection }

// LeagueError is a league-level rejection. A handler returns it as an error;
// the server sends it back as the JSON-RPC result (SPEC 8.10.1), and a client
// that receives one returns it as an error.
type LeagueError struct {
	Envelope
	ErrorCode           string         `json:"error_code"`
	ErrorName           string         `json:"error_name"`
	ErrorDescription    string         `json:"error_description"`
	OriginalMessageType string         `json:"original_message_type,omitempty"`
	Context             map[string]any `json:"context,omitempty"`
	Retryable           bool           `json:"retryable"`
}

// Reject builds a LeagueError for code with a human description.
func Reject(code, format string, args ...any) *LeagueError {
	return &LeagueError{
		ErrorCode:        code,
		ErrorName:        ErrorNames[code],
		ErrorDescription: fmt.Sprintf(format, args...),
		Retryable:        Retryable(code),
	}
}

// RefusalReason is what a log counts refusals with err by (see
// store.RefusedKey): its league error code (E011), never its text, which
// may quote the refused message; "refused" for any other error.
func RefusalReason(err error) string {
	var le *LeagueError
	if errors.As(err, &le) && le.ErrorCode != "" {
		return le.ErrorCode
	}
	return "refused"
}

func (e *LeagueError) Error() string {
	return fmt.Sprintf("%s %s: %s", e.ErrorCode, e.ErrorName, e.ErrorDescription)
}

// JSON-RPC 2.0 error codes.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternal       = -32603
)

// RPCError is a JSON-RPC error object: for transport and shape failures. Data
// carries the league error code where one applies.
type RPCError struct {
	Code    int            `json:"code"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data,omitempty"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("json-rpc error %d: %s", e.Code, e.Message) }

// NewRPCError builds an RPCError; leagueCode may be empty.
func NewRPCError(code int, leagueCode, format string, args ...any) *RPCError {
	e := &RPCError{Code: code, Message: fmt.Sprintf(format, args...)}
	if leagueCode != "" {
		e.Data = map[string]any{"error_code": leagueCode, "error_name": ErrorNames[leagueCode]}
	}
	return e
}
