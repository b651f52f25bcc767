package protocol

import (
	"slices"
	"testing"

	"github.com/leaguetui/leaguetui/engine"
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

// Each move type has its own call and answer, and each answer routes to
// itself: even/odd's are league.v2's own (CHOOSE_PARITY_*), every other
// game's the generic GAME_MOVE_* pair. No game's answer is read as
// another's, and a posted move of either form is a move answer.
func TestMovesOfEachGame(t *testing.T) {
	for moveType, want := range map[string]MoveMessages{
		engine.EvenOdd{}.MoveType(): {Call: TypeChooseParityCall, Answer: TypeChooseParityResponse},
		engine.NavigateMove:         {Call: TypeGameMoveCall, Answer: TypeGameMoveResponse},
		"a game yet to come":        {Call: TypeGameMoveCall, Answer: TypeGameMoveResponse},
	} {
		got := MovesOf(moveType)
		if got != want {
			t.Errorf("MovesOf(%q) = %+v, want %+v", moveType, got, want)
		}
		for _, messageType := range []string{got.Call, got.Answer} {
			if routed := (head{MessageType: messageType}).messageType(); routed != messageType {
				t.Errorf("%s routes to %s", messageType, routed)
			}
		}
		if !IsMoveAnswer(got.Answer) || IsMoveAnswer(got.Call) {
			t.Errorf("%s: IsMoveAnswer does not tell its answer (%s) from its call (%s)", moveType, got.Answer, got.Call)
		}
	}
}
