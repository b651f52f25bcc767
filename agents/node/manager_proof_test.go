package node

import "testing"

// A referee takes its matches from round announcements only under a
// manager that registered it and issued no key: ours issues one and starts
// matches itself.
func TestManagerIssuedNoKey(t *testing.T) {
	var p managerProof
	if p.issuedNoKey() {
		t.Error("no key said before registration")
	}
	p.set("mk-123")
	if p.issuedNoKey() {
		t.Error("no key said under a manager that issued one")
	}
	p.set("")
	if !p.issuedNoKey() {
		t.Error("a key assumed under a manager that issued none")
	}
}
