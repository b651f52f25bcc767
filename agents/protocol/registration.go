package protocol

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/leaguetui/leaguetui/engine"
)

// Limits on what an agent's registration makes the manager keep: each of
// these strings lives as long as the league and goes out in standings and
// round messages, so none may grow the manager or a broadcast at will.
const (
	maxDisplayName = 64 // characters
	maxMetaString  = 64 // bytes of a version or a game type
	maxGameTypes   = 16
)

// CheckEnvelope applies leaguetui's manager's envelope rules: the fields
// it needs to authenticate must be there, and a timestamp with a non-UTC
// offset is refused (E021). Naive timestamps, which the specification's
// own sample player sends, pass.
func CheckEnvelope(env Envelope) error {
	if env.Sender == "" {
		return Reject(CodeMissingField, "sender is required")
	}
	if env.Protocol != "" && env.Protocol != Version {
		return Reject(CodeProtocolVersion, "protocol %q is not %s", env.Protocol, Version)
	}
	if HasNonUTCOffset(env.Timestamp) {
		return Reject(CodeInvalidTimestamp, "timestamp %q is not in UTC", env.Timestamp)
	}
	return nil
}

// CheckRegistration is what leaguetui's manager refuses a registration of
// role for before it looks at the league, with the error its sender gets:
// a malformed envelope, or metadata the league cannot keep or show
// safely. It writes meta's endpoint in the one spelling that makes one
// endpoint one agent. `leaguetui check` holds registrations to it too.
func CheckRegistration(env Envelope, meta *AgentMeta, role engine.Role) error {
	env.Sender = RegistrationSender(env, *meta, role)
	if err := CheckEnvelope(env); err != nil {
		return err
	}
	if meta.ContactEndpoint == "" {
		return Reject(CodeMissingField, "%s_meta.contact_endpoint is required", role)
	}
	return checkMeta(role, meta)
}

// RegistrationSender is a registration's sender, or, for a newcomer's
// that sends none (volo10's player, protocol.md "where other
// implementations differ"), the one its message says: its role, and the
// display name it registers under. A newcomer's sender proves nothing and
// gives nothing (its id, token and seat come from the league, its name
// is held to the same rules), so deriving it admits no one an explicit
// sender would not. One that presents an auth_token keeps needing its
// sender: the token is checked against the agent the sender names. So
// does one that does not say it speaks league.v2 (no "protocol"): that is
// an envelope missing its fields, not a peer that leaves its name out.
func RegistrationSender(env Envelope, meta AgentMeta, role engine.Role) string {
	if env.Sender != "" || env.AuthToken != "" || env.Protocol == "" || role == engine.RoleManager {
		return env.Sender
	}
	return RoleSender(role, meta.DisplayName)
}

// checkMeta refuses an agent's metadata with E003 (the specification has
// no code for an invalid field; a valid one is what is missing).
func checkMeta(role engine.Role, meta *AgentMeta) error {
	endpoint, err := NormalizeEndpoint(meta.ContactEndpoint)
	if err != nil {
		return Reject(CodeMissingField, "%s_meta.contact_endpoint: %v", role, err)
	}
	meta.ContactEndpoint = endpoint
	if err := checkDisplayName(meta.DisplayName); err != nil {
		return Reject(CodeMissingField, "%s_meta.display_name %s", role, err)
	}
	if len(meta.GameTypes) > maxGameTypes {
		return Reject(CodeMissingField, "%s_meta.game_types lists more than %d games", role, maxGameTypes)
	}
	for _, s := range append([]string{meta.Version, meta.ProtocolVersion}, meta.GameTypes...) {
		if len(s) > maxMetaString || Printable(s) != s {
			return Reject(CodeMissingField, "%s_meta: %q is not a printable string of at most %d bytes",
				role, Printable(clipString(s, maxMetaString)), maxMetaString)
		}
	}
	return nil
}

// checkDisplayName accepts at most maxDisplayName printable characters of
// valid UTF-8: no control character, no escape sequence, no invisible
// format character. Empty is allowed: the agent's id stands in for it.
func checkDisplayName(name string) error {
	switch {
	case utf8.RuneCountInString(name) > maxDisplayName:
		return errors.New("is longer than 64 characters")
	case Printable(name) != name:
		return errors.New("holds characters that are not printable (control characters, escape sequences or invalid UTF-8): " +
			Printable(clipString(name, 4*maxDisplayName)))
	case strings.TrimSpace(name) != name:
		return errors.New("begins or ends with spaces")
	}
	return nil
}

func clipString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
