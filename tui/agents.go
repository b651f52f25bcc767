package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// agentsPane lists the manager, the referees and the players: endpoint,
// state from /health, when last seen, and for the processes this console
// started, their PID and whether they still run.
type agentsPane struct {
	ctx   *programContext
	list  scroller
	width int
}

func newAgentsPane(ctx *programContext) *agentsPane { return &agentsPane{ctx: ctx} }

func (p *agentsPane) Title() string { return "Agents" }

// The last line shows the selected agent's tools.
func (p *agentsPane) SetSize(width, height int) { p.width, p.list.height = width, max(height-2, 1) }

func (p *agentsPane) Help() keyHelp {
	k := p.ctx.ListKeys
	return keyHelp{short: []key.Binding{k.Up, k.Down}, full: [][]key.Binding{{k.Up, k.Down, k.PgUp, k.PgDown, k.Top, k.Bottom}}}
}

// agents lists the rows: the manager, referees, then players that pass the filter.
func (p *agentsPane) agents() []*agentInfo {
	st := p.ctx.State
	out := []*agentInfo{st.manager}
	out = append(out, st.Referees()...)
	for _, a := range st.Players() {
		if p.ctx.matchesFilter(a.ID) {
			out = append(out, a)
		}
	}
	return out
}

func (p *agentsPane) Update(msg tea.KeyMsg) (tea.Cmd, bool) {
	return nil, p.list.move(msg, p.ctx.ListKeys, len(p.agents()))
}

func (p *agentsPane) View() string {
	s := p.ctx.Styles
	agents := p.agents()
	procs := map[string]ChildInfo{}
	if p.ctx.Children != nil {
		for _, c := range p.ctx.Children() {
			procs[childKey(c)] = c
		}
	}
	now := p.ctx.Now()
	heads := agentHeads
	named := p.ctx.named()
	if named {
		heads = namedAgentHeads
	}
	withModels := slices.ContainsFunc(agents, func(a *agentInfo) bool { return a.Model != nil })
	if withModels {
		heads = append(slices.Clone(heads), "model cost")
	}
	cells := make([][]string, len(agents))
	for i, a := range agents {
		proc, started := procs[agentKey(a)]
		cells[i] = []string{roleName(a.Role), a.ID, shortEndpoint(a.Endpoint), agentState(a, proc, started),
			ago(now, a.LastSeen), processText(proc, started)}
		if named {
			cells[i] = slices.Insert(cells[i], 2, a.DisplayName)
		}
		if withModels {
			cells[i] = append(cells[i], modelCostText(a.Model))
		}
	}
	cols := agentColumns(cells, heads, p.width, named)
	lines := []string{s.TableHead.Render(fit(" "+cols.line(heads), p.width))}
	from, to := p.list.window(len(agents))
	for i := from; i < to; i++ {
		lines = append(lines, p.ctx.row(cols.line(cells[i]), i == p.list.cursor, p.width))
	}
	return block(lines, p.width, p.list.height+1) + "\n" + s.Dim.Render(fit(toolsLine(agents, p.list.cursor), p.width))
}

// agentHeads are the agents table's columns; a league with model players
// adds their cost.
var agentHeads = []string{"role", "id", "endpoint", "state", "seen", "pid"}

// namedAgentHeads are the columns where a roster named the players: the
// display name follows the id.
var namedAgentHeads = []string{"role", "id", "name", "endpoint", "state", "seen", "pid"}

// modelCostText is a model player's cost in a few words: tokens in and out,
// their estimated money (or "no price"), the mean latency of a move and the failures ("" for other agents).
func modelCostText(c *protocol.ModelCost) string {
	if c == nil {
		return ""
	}
	text := fmt.Sprintf("%s in %s out · %s", shortCount(c.InputTokens), shortCount(c.OutputTokens), protocol.Money(c.CostUSD))
	if c.Moves > 0 {
		text += fmt.Sprintf(" · %dms/move", c.LatencyMS/int64(c.Moves))
	}
	if c.BudgetSpent != "" {
		text += " · " + c.BudgetSpent + " budget spent"
	}
	if c.Rethinks > 0 {
		text += fmt.Sprintf(" · %d rethinks", c.Rethinks) // asks beyond one a move, apart from the moves
	}
	if c.Failures > 0 {
		text += fmt.Sprintf(" · %d failed", c.Failures)
	}
	return text
}

// shortCount writes a count as 950, 12.3k or 4.1M.
func shortCount(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// columns are the widths of a table's columns; a column of width 0 is
// left out.
type columns []int

// agentColumns sizes the agents table to its widest cells, and when the
// pane is too narrow for all of them leaves out the least needed columns
// (seen, then role) rather than cutting the endpoint or the pid; only if
// that is not enough are the names (with named, the third column) cut,
// to 8 cells at the least, then the endpoint.
func agentColumns(cells [][]string, heads []string, width int, named bool) columns {
	cols := make(columns, len(heads))
	for j, h := range heads {
		cols[j] = visibleWidth(h)
		for _, row := range cells {
			cols[j] = max(cols[j], visibleWidth(row[j]))
		}
	}
	cols[1] = min(cols[1], 10) // ids from the network are cut, not the table
	const role, name = 0, 2
	endpoint, seen := 2, 4
	if named {
		endpoint, seen = 3, 5
		cols[name] = min(cols[name], 20)
	}
	for _, drop := range []int{seen, role} {
		if cols.width() <= width {
			break
		}
		cols[drop] = 0
	}
	if over := cols.width() - width; over > 0 && named {
		cols[name] = max(cols[name]-over, 8)
	}
	if over := cols.width() - width; over > 0 {
		cols[endpoint] = max(cols[endpoint]-over, 8)
	}
	return cols
}

// width is the cells a row takes: the cursor mark, then each column and a space.
func (c columns) width() int {
	w := 1
	for _, n := range c {
		if n > 0 {
			w += n + 1
		}
	}
	return w
}

// line lays out one row's cells in the columns.
func (c columns) line(cells []string) string {
	var b strings.Builder
	for j, n := range c {
		if n == 0 {
			continue
		}
		cell := truncate(cells[j], n)
		b.WriteString(cell + strings.Repeat(" ", n-visibleWidth(cell)+1))
	}
	return strings.TrimRight(b.String(), " ")
}

// childKey and agentKey pair a started process with its agent: by the id
// the manager gave it, or as the manager.
func childKey(c ChildInfo) string {
	if c.ID == "" && strings.HasPrefix(c.Name, "manager") {
		return "manager"
	}
	return c.ID
}

func agentKey(a *agentInfo) string {
	if a.Role == roleManager {
		return "manager"
	}
	return a.ID
}

const roleManager = "manager"

func roleName(role protocol.Role) string {
	if role == "" {
		return "agent"
	}
	return string(role)
}

// agentState is registered / active / suspended / down / no answer, with a
// symbol: an exited process is down, and an agent whose /health this
// console cannot reach (it may be on another machine) has no answer,
// whatever was said before.
func agentState(a *agentInfo, proc ChildInfo, started bool) string {
	switch {
	case a.Suspended: // the league's verdict; the pid column still says if it exited
		return "‖ suspended"
	case started && !proc.Running:
		return "✗ down"
	case a.Down:
		return "✗ no answer"
	}
	switch strings.ToUpper(a.Health) {
	case "ACTIVE":
		return "● active"
	case "INIT": // the manager registers with nobody: INIT is its normal state
		if a.Role == roleManager {
			return "● active"
		}
		return "○ starting"
	case "SUSPENDED":
		return "‖ suspended"
	case "SHUTDOWN": // told the league is over: still up, with nothing left to do
		return "■ finished"
	}
	if a.Role == roleManager { // not probed yet: its feed answering is a sign of life
		if !a.LastSeen.IsZero() {
			return "● active"
		}
		return "? unknown"
	}
	return "○ registered"
}

// processText is a started process's PID and whether it runs; "-" for an
// agent this console did not start.
func processText(proc ChildInfo, started bool) string {
	switch {
	case !started:
		return "-"
	case proc.Running:
		return fmt.Sprintf("%d running", proc.PID)
	}
	return fmt.Sprintf("%d exited", proc.PID)
}

// shortEndpoint drops what every endpoint repeats: the scheme and /mcp.
func shortEndpoint(ep string) string {
	return strings.TrimSuffix(strings.TrimPrefix(ep, "http://"), "/mcp")
}

// toolsLine names the MCP tools of the agent under the cursor.
func toolsLine(agents []*agentInfo, cursor int) string {
	if cursor < 0 || cursor >= len(agents) {
		return ""
	}
	a := agents[cursor]
	name := a.ID
	if name == "" {
		name = roleName(a.Role)
	}
	if len(a.Tools) == 0 {
		return fmt.Sprintf(" tools of %s: not known (no MCP tools on /health)", truncate(name, 12))
	}
	return fmt.Sprintf(" tools of %s: %s", truncate(name, 12), strings.Join(a.Tools, ", "))
}
