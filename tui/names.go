package tui

// Display names: a roster names its players ("alice", "bob"); the league
// knows them by ids (P01, P02). Every pane that shows a player shows the
// name beside the id when the two differ, and on a short line shortens the
// name rather than dropping it.

// displayName is a player's (or referee's) display name when it differs
// from its id, "" when it has none of its own.
func (c *programContext) displayName(id string) string {
	if a := c.State.Agent(id); a != nil && a.DisplayName != "" && a.DisplayName != id {
		return a.DisplayName
	}
	return ""
}

// named reports whether any player has a display name of its own.
func (c *programContext) named() bool {
	for _, a := range c.State.Players() {
		if a.DisplayName != "" && a.DisplayName != a.ID {
			return true
		}
	}
	return false
}

// idName is "P01 alice" in at most n cells: the id whole and the name cut
// to what is left; where not even the id and two cells of the name fit,
// the name alone, shortened. Without a name, the id.
func idName(id, name string, n int) string {
	if name == "" || name == id {
		return truncate(id, n)
	}
	full := id + " " + name
	if visibleWidth(full) <= n {
		return full
	}
	if room := n - visibleWidth(id) - 1; room >= 3 {
		return id + " " + truncate(name, room)
	}
	return truncate(name, n)
}

// who is idName for a player the state knows.
func (c *programContext) who(id string, n int) string { return idName(id, c.displayName(id), n) }

// called is a player in a sentence: "alice (P01)", or "P01" without a name.
func (c *programContext) called(id string) string {
	if name := c.displayName(id); name != "" {
		return name + " (" + id + ")"
	}
	return id
}
