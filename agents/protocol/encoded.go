package protocol

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/segmentio/encoding/json"
)

// Encoded is a message encoded before it is sent, for one that goes alike
// to many peers (a round's broadcasts): encoded once, each copy costs no
// encoding. It is sent as the bytes Marshal makes of the message.
// Its Envelope is the message's, for whoever reads the header (the client
// picks the method by its message type); JSON must not change once sent.
type Encoded struct {
	Envelope
	JSON json.RawMessage
}

// Encode encodes msg once for many sends.
func Encode(msg Message) (*Encoded, error) {
	data, err := Marshal(msg)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", msg.Header().MessageType, err)
	}
	return &Encoded{Envelope: *msg.Header(), JSON: data}, nil
}

// MarshalJSON gives the message's bytes, for a form that wraps the message.
func (e *Encoded) MarshalJSON() ([]byte, error) { return e.JSON, nil }

// request frames the message as EncodeRequest frames params, copying its
// bytes instead of checking them again: they are Marshal's own.
func (e *Encoded) request(method string, id int64) ([]byte, error) {
	return appendRequest(make([]byte, 0, requestRoom(method, e.JSON)), method, e.JSON, id), nil
}

// appendRequest appends the request json.Marshal writes of outgoingRequest
// with params already encoded: the framing's names are plain, the method
// is written as encoding/json writes a string (AppendString) and the id as
// it writes an int64.
func appendRequest(dst []byte, method string, params []byte, id int64) []byte {
	dst = AppendString(append(dst, `{"jsonrpc":"2.0","method":`...), method)
	dst = append(append(dst, `,"params":`...), params...)
	return append(strconv.AppendInt(append(dst, `,"id":`...), id, 10), '}')
}

// requestRoom is what a request framing params costs, room for the
// longest id included (a method with escapes may need more).
func requestRoom(method string, params []byte) int {
	return len(`{"jsonrpc":"2.0","method":"","params":,"id":-9223372036854775808}`) + len(method) + len(params)
}

// WithAuthToken is a copy of the message that carries token as its
// auth_token, for a broadcast whose every copy is signed for its
// recipient: the bytes are e's with the field put first, nothing encoded
// again but the token. e must carry no auth_token of its own.
func (e *Encoded) WithAuthToken(token string) *Encoded {
	quoted, _ := Marshal(token) // a string always encodes
	out := make([]byte, 0, len(e.JSON)+len(quoted)+len(`"auth_token":,`))
	out = append(append(out, `{"auth_token":`...), quoted...)
	if rest := e.JSON[1:]; len(bytes.TrimSpace(rest)) > 1 { // more than the closing brace
		out = append(out, ',')
	}
	out = append(out, e.JSON[1:]...)
	signed := &Encoded{Envelope: e.Envelope, JSON: out}
	signed.AuthToken = token
	return signed
}
