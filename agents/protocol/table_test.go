package protocol

import (
	"slices"
	"testing"
)

// Every method name and message_type spelling in the table routes to its
// entry's message type, and no name is claimed by two entries.
func TestMessageTableRoutesEveryName(t *testing.T) {
	claimed := map[string]string{}
	for _, m := range Messages {
		if got, _ := Spec(m.Type); got.Type != m.Type {
			t.Errorf("%s: no entry by its type", m.Type)
		}
		for _, name := range append(append(slices.Clone(m.Methods), m.Also...), m.TypeAliases...) {
			if other, dup := claimed[name]; dup {
				t.Errorf("%q is claimed by %s and %s", name, other, m.Type)
			}
			claimed[name] = m.Type
		}
		for _, method := range append(slices.Clone(m.Methods), m.Also...) {
			if got := TypeForMethod(method); got != m.Type {
				t.Errorf("method %q routes to %q, want %s", method, got, m.Type)
			}
		}
		for _, alias := range append([]string{m.Type}, m.TypeAliases...) {
			if got := (head{MessageType: alias}).messageType(); got != m.Type {
				t.Errorf("message_type %q routes to %q, want %s", alias, got, m.Type)
			}
		}
	}
}

func TestServedByAndSender(t *testing.T) {
	player := ServedBy(PlayerRole)
	if !slices.Contains(player, TypeGameInvitation) || slices.Contains(player, TypeStartMatch) {
		t.Errorf("a player serves %v", player)
	}
	for role, want := range map[Role]string{ManagerRole: SenderManager, RefereeRole: "referee:REF01", PlayerRole: "player:REF01"} {
		if got := RoleSender(role, "REF01"); got != want {
			t.Errorf("RoleSender(%s) = %q, want %q", role, got, want)
		}
	}
}
