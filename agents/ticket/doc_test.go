package ticket_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/ticket"
)

// readPage reads a page of docs/.
func readPage(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("../../docs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// tableRow is the cells of the first markdown table row whose last cell
// starts with prefix, backquotes removed.
func tableRow(t *testing.T, page, prefix string) []string {
	t.Helper()
	for _, line := range strings.Split(page, "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
			cells = append(cells, strings.Trim(strings.TrimSpace(c), "`"))
		}
		if strings.HasPrefix(cells[len(cells)-1], prefix) {
			return cells
		}
	}
	t.Fatalf("no table row ends with a %s… value", prefix)
	return nil
}

// hmacOf is HMAC-SHA256 under key of the parts, each followed by a NUL
// byte, in lower-case hex: the computation the pages describe.
func hmacOf(key string, parts []string) string {
	h := hmac.New(sha256.New, []byte(key))
	for _, p := range parts {
		h.Write([]byte(p + "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestJoiningTicketVector computes joining.md's test vector the way its
// Python snippet says, parts in the snippet's order, and compares it with
// the page's ticket and with the ticket the code mints.
func TestJoiningTicketVector(t *testing.T) {
	page := readPage(t, "joining.md")
	row := tableRow(t, page, "mt-")
	key, league, match, referee, want := row[0], row[1], row[2], row[3], row[4]
	list := regexp.MustCompile(`for p in\s*\[([^\]]*)\]`).FindStringSubmatch(page)
	if list == nil {
		t.Fatal("joining.md's snippet lists no parts")
	}
	values := map[string]string{"league_id": league, "match_id": match, "referee_id": referee}
	var parts []string
	for _, name := range strings.Split(list[1], ",") {
		name = strings.TrimSpace(name)
		if lit, ok := strings.CutPrefix(name, `"`); ok {
			parts = append(parts, strings.TrimSuffix(lit, `"`))
			continue
		}
		v, ok := values[name]
		if !ok {
			t.Fatalf("the snippet names %q, which the vector does not give", name)
		}
		parts = append(parts, v)
	}
	if got := "mt-" + hmacOf(key, parts); got != want {
		t.Errorf("the snippet's computation gives %s; the page says %s", got, want)
	}
	if got := ticket.Mint(key, league, match, referee); got != want {
		t.Errorf("the code mints %s; the page says %s", got, want)
	}
	if !ticket.Valid(key, want, league, match, referee) {
		t.Error("the page's ticket is not valid")
	}
}

// TestSecurityManagerKeyVector computes security.md's manager key vector
// as the page words it (the label, the league, the role, the id and the
// hex SHA-256 of the token) and compares it with the page and the code.
func TestSecurityManagerKeyVector(t *testing.T) {
	page := readPage(t, "security.md")
	row := tableRow(t, page, "mk-")
	secret, league, role, id, token, want := row[0], row[1], row[2], row[3], row[4], row[5]
	if !strings.Contains(page, "the string `manager_key`,\nthe league id, the agent's role") {
		t.Fatal("security.md no longer words the manager key's parts as this test reads them")
	}
	sum := sha256.Sum256([]byte(token))
	tokenHash := hex.EncodeToString(sum[:])
	if got := "mk-" + hmacOf(secret, []string{"manager_key", league, role, id, tokenHash}); got != want {
		t.Errorf("the page's computation gives %s; the page says %s", got, want)
	}
	if got := ticket.ManagerKey(secret, league, role, id, tokenHash); got != want {
		t.Errorf("the code gives %s; the page says %s", got, want)
	}
}

// TestEveryPageNamesTheLabels: each page that gives the ticket's formula
// puts the "match_ticket" label first, as the code does, and each that
// gives the ticket key's names its "match_ticket_key" label.
func TestEveryPageNamesTheLabels(t *testing.T) {
	for _, name := range []string{"joining.md", "security.md", "running.md", "check.md"} {
		page := strings.Join(strings.Fields(readPage(t, name)), " ")
		if !strings.Contains(page, "of the string `match_ticket`,") {
			t.Errorf("%s gives the ticket without the string match_ticket first", name)
		}
	}
	for _, name := range []string{"security.md", "running.md"} {
		page := strings.Join(strings.Fields(readPage(t, name)), " ")
		if !strings.Contains(page, "of the string `match_ticket_key`, the league id and the player's id") {
			t.Errorf("%s gives the ticket key without its label, league and player", name)
		}
	}
}
