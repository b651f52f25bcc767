package protocol

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/segmentio/encoding/json"

	"github.com/leaguetui/leaguetui/agents/protocol/internal/wirejson"
)

// Request is a JSON-RPC 2.0 request as it arrives. ID stays raw so that we
// echo it exactly as received, once ParseRequest found it a valid id.
type Request struct {
	JSONRPC string          `json:"jsonrpc"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
	ID      json.RawMessage `json:"id,omitempty"`

	// paramsHead is the head of Params, read by ParseRequest on its pass
	// over the body when headRead (see Route).
	paramsHead head
	headRead   bool
}

// Route routes the request as Route(r.Method, r.Params) does, without
// reading the params a second time when ParseRequest read their head
// already. (A request whose Params changed since is routed afresh.)
func (r *Request) Route() (Inbound, bool) {
	if r.headRead {
		return route(r.Method, r.Params, &r.paramsHead)
	}
	return Route(r.Method, r.Params)
}

// IsNotification reports a request without an id ("id": null is an id).
// JSON-RPC 2.0 acts on a notification but never answers it.
func (r *Request) IsNotification() bool { return len(r.ID) == 0 }

// Response is a JSON-RPC 2.0 response.
type Response struct {
	JSONRPC string          `json:"jsonrpc"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
	ID      json.RawMessage `json:"id"`
}

// outgoingRequest is what we send: an integer id, as strict peers require.
type outgoingRequest struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
	ID      int64  `json:"id"`
}

// EncodeRequest frames params as a JSON-RPC request with an integer id.
func EncodeRequest(method string, params any, id int64) ([]byte, error) {
	if encoded, ok := params.(*Encoded); ok {
		return encoded.request(method, id)
	}
	return json.Marshal(outgoingRequest{JSONRPC: "2.0", Method: method, Params: params, ID: id})
}

// ParseRequest checks the JSON-RPC framing of a request body. It is the one
// time a request body is decoded: params stay raw for routing. A missing
// "jsonrpc" is tolerated (naive peers omit it); a wrong one is not. When the
// framing is wrong but the id could be read, the returned request carries it
// so that the error can echo it.
func ParseRequest(body []byte) (*Request, *RPCError) {
	return ParseRequestInto(body, new(Request))
}

// ParseRequestInto is ParseRequest reading into into, which it returns
// (nil where ParseRequest returns no request): a server that keeps the
// request on its stack makes none on the heap for each one.
func ParseRequestInto(body []byte, into *Request) (*Request, *RPCError) {
	trimmed := bytes.TrimSpace(body)
	if IsBatch(trimmed) {
		if !Valid(trimmed) {
			return nil, NewRPCError(CodeParseError, "", "parse error: not valid JSON")
		}
		return nil, NewRPCError(CodeInvalidRequest, "", "batch requests are not supported")
	}
	req := into
	var err error
	if *req, err = decodeRequest(trimmed); err != nil {
		var typeErr *json.UnmarshalTypeError
		if !errors.As(err, &typeErr) {
			return nil, NewRPCError(CodeParseError, "", "parse error: %v", err)
		}
		return withValidID(req), NewRPCError(CodeInvalidRequest, "", "invalid request: %v", err)
	}
	if !validID(req.ID) {
		return withValidID(req), NewRPCError(CodeInvalidRequest, "", "id must be a string of valid UTF-8, a number or null")
	}
	if req.JSONRPC != "" && req.JSONRPC != "2.0" {
		return req, NewRPCError(CodeInvalidRequest, "", `jsonrpc must be "2.0"`)
	}
	if req.Method == "" {
		return req, NewRPCError(CodeInvalidRequest, "", "method is missing")
	}
	if len(req.Params) > 0 && req.Params[0] != '{' && !bytes.Equal(req.Params, []byte("null")) {
		return req, NewRPCError(CodeInvalidParams, "", "params must be an object")
	}
	return req, nil
}

// scanRequest reads a request's members in one pass, the way
// json.Unmarshal into Request reads them, and the head of its params on
// that same pass (wirejson's RawValueMembers). It is false for anything
// unusual, such as a method that is not a string, or a key
// wirejson.ScanObject would leave to encoding/json: encoding/json then
// decodes the body again, so that the error is its own.
func scanRequest(body []byte) (req Request, ok bool) {
	s := wirejson.NewScanner(body)
	ok = s.Object(func(key []byte, plain bool) bool {
		if !plain {
			return false
		}
		if bytes.EqualFold(key, []byte("params")) {
			var r headReader
			var ok bool
			req.Params, req.headRead, ok = s.RawValueMembers(r.take)
			req.paramsHead = r.head()
			return ok
		}
		raw, ok := s.RawValue()
		if !ok {
			return false
		}
		switch {
		case bytes.EqualFold(key, []byte("jsonrpc")):
			return wirejson.ReadString(raw, &req.JSONRPC)
		case bytes.EqualFold(key, []byte("method")):
			return wirejson.ReadString(raw, &req.Method)
		case bytes.EqualFold(key, []byte("id")):
			req.ID = raw
		}
		return true
	}) && s.End()
	return req, ok
}

// decodeRequest reads body with scanRequest, or, where scanRequest
// leaves it (a frame that is wrong or odd), with encoding/json itself:
// unlike the wire codec it reads on past a member of the wrong type, so
// the error can echo the id the frame does carry.
func decodeRequest(body []byte) (Request, error) {
	if req, ok := scanRequest(body); ok {
		return req, nil
	}
	var req Request
	err := stdjson.Unmarshal(body, &req)
	return req, err
}

// IsBatch reports a JSON-RPC batch: an array at the top. Neither league.v2
// nor MCP since its 2025-06-18 revision has them.
func IsBatch(body []byte) bool {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	return len(trimmed) > 0 && trimmed[0] == '['
}

// validID: JSON-RPC ids are strings, numbers or null (or absent). The id
// is echoed byte for byte, so a string must be valid UTF-8: JSON text is,
// and a peer must not be able to make us send it anything else.
func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return true
	}
	switch c := id[0]; {
	case c == '"':
		return utf8.Valid(id)
	case c == 'n', c == '-', c >= '0' && c <= '9':
		return true
	}
	return false
}

// withValidID drops an id that could not be echoed.
func withValidID(req *Request) *Request {
	if !validID(req.ID) {
		req.ID = nil
	}
	return req
}

// EncodeResult frames a successful response.
func EncodeResult(id json.RawMessage, result any) ([]byte, error) {
	return json.Marshal(outgoingResponse{JSONRPC: "2.0", Result: result, ID: nullID(id)})
}

// outgoingResponse is Response with its result not yet encoded: the reply
// is encoded in one pass, its result inside it.
type outgoingResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	Result  any             `json:"result"`
	ID      json.RawMessage `json:"id"`
}

// EncodeError frames an error response.
func EncodeError(id json.RawMessage, rpcErr *RPCError) []byte {
	out, _ := json.Marshal(Response{JSONRPC: "2.0", Error: rpcErr, ID: nullID(id)})
	return out
}

func nullID(id json.RawMessage) json.RawMessage {
	if len(id) == 0 {
		return json.RawMessage("null")
	}
	return id
}

// ParseReply extracts the league message from a reply body, in any of the
// forms peers answer with (protocol.md §1 and §9 #18): a JSON-RPC result, a
// bare message with message_type and no wrapper (or a bare acknowledgement
// {"status":"ok"}, as the SPEC's sample player sends), or an MCP tools/call result
// (structuredContent, else content[0].text holding JSON). A JSON-RPC error
// comes back as *RPCError, a LEAGUE_ERROR result as *LeagueError.
func ParseReply(body []byte) (json.RawMessage, error) {
	frame, ok := scanReply(body)
	if !ok {
		var err error
		if frame, err = decodeReply(body); err != nil {
			return nil, err
		}
	}
	switch {
	case frame.Error != nil:
		return nil, frame.Error
	case len(frame.Result) > 0 && !bytes.Equal(frame.Result, []byte("null")):
		return unwrapResult(frame.Result)
	case frame.MessageType != "":
		return unwrapResult(body)
	case frame.Method != "" && readHead(frame.Params).MessageType != "":
		// A reply shaped like a request, which players of another
		// implementation send: {"method":"game_join_ack","params":{…
		// "message_type":"GAME_JOIN_ACK"…},"id":2}. The message is params.
		return unwrapResult(frame.Params)
	case frame.JSONRPC == "" && len(frame.Status) > 0:
		// The bare acknowledgement of the same naive peers: {"status":"ok"}.
		return body, nil
	}
	return nil, fmt.Errorf("reply has neither result nor error: %s", truncate(body))
}

// replyFrame is what ParseReply reads of a reply's top level.
type replyFrame struct {
	JSONRPC     string          `json:"jsonrpc"`
	Result      json.RawMessage `json:"result"`
	Error       *RPCError       `json:"error"`
	MessageType string          `json:"message_type"`
	Status      json.RawMessage `json:"status"`
	Method      string          `json:"method"` // a reply shaped like a request
	Params      json.RawMessage `json:"params"`
}

// scanReply reads a reply's frame in one pass (wirejson.ScanObject), the way
// json.Unmarshal into replyFrame reads it, without encoding/json's
// reflection on the hot path of every call. It is false for anything
// unusual, an error reply included: encoding/json then decodes the body.
func scanReply(body []byte) (frame replyFrame, ok bool) {
	var rpcErr []byte
	ok = wirejson.ScanObject(body, func(key, raw []byte) bool {
		switch {
		case bytes.EqualFold(key, []byte("jsonrpc")):
			return wirejson.ReadString(raw, &frame.JSONRPC)
		case bytes.EqualFold(key, []byte("result")):
			frame.Result = raw
		case bytes.EqualFold(key, []byte("error")):
			rpcErr = raw
		case bytes.EqualFold(key, []byte("message_type")):
			return wirejson.ReadString(raw, &frame.MessageType)
		case bytes.EqualFold(key, []byte("status")):
			frame.Status = raw
		case bytes.EqualFold(key, []byte("method")):
			return wirejson.ReadString(raw, &frame.Method)
		case bytes.EqualFold(key, []byte("params")):
			frame.Params = raw
		}
		return true
	})
	return frame, ok && (rpcErr == nil || string(rpcErr) == "null")
}

// decodeReply reads a reply's frame with encoding/json, where scanReply
// leaves it to it.
func decodeReply(body []byte) (frame replyFrame, err error) {
	if err := Unmarshal(body, &frame); err != nil {
		return replyFrame{}, fmt.Errorf("reply is not JSON: %w", err)
	}
	return frame, nil
}

// unwrapResult looks inside an MCP tool result and turns LEAGUE_ERROR into an error.
func unwrapResult(result json.RawMessage) (json.RawMessage, error) {
	if h, ok := scanHead(result); ok && h.MessageType != "" && h.MessageType != TypeLeagueError {
		// A league message as it is, the usual reply: nothing inside to
		// look at (unwrapProbe would give it back as it is).
		return result, nil
	}
	return unwrapProbe(result)
}

// unwrapProbe is unwrapResult through encoding/json, for every form.
func unwrapProbe(result json.RawMessage) (json.RawMessage, error) {
	var probe struct {
		MessageType       string          `json:"message_type"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		Content           []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool            `json:"isError"`
		Message json.RawMessage `json:"message"`
	}
	if Unmarshal(result, &probe) != nil {
		return result, nil // not an object: a peer's plain value such as "ok"
	}
	if probe.MessageType == "" && readHead(probe.Message).MessageType != "" {
		// The wrapped dialect's answer: the reply as result.message.
		return unwrapResult(probe.Message)
	}
	if probe.MessageType == "" {
		if len(probe.StructuredContent) > 0 {
			return unwrapResult(probe.StructuredContent)
		}
		if len(probe.Content) > 0 && Valid([]byte(probe.Content[0].Text)) {
			return unwrapResult(json.RawMessage(probe.Content[0].Text))
		}
		if probe.IsError && len(probe.Content) > 0 {
			return nil, fmt.Errorf("tool error: %s", probe.Content[0].Text)
		}
	}
	if probe.MessageType == TypeLeagueError {
		var le LeagueError
		if err := Unmarshal(result, &le); err != nil {
			return nil, fmt.Errorf("unreadable LEAGUE_ERROR: %w", err)
		}
		return nil, &le
	}
	return result, nil
}
