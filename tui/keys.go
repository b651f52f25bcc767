package tui

import "github.com/charmbracelet/bubbles/key"

// globalKeys are the keys the root model handles whatever pane has focus.
type globalKeys struct {
	Start    key.Binding
	Pause    key.Binding
	Stop     key.Binding
	NextPane key.Binding
	PrevPane key.Binding
	Filter   key.Binding
	Help     key.Binding
	Quit     key.Binding
	ForceQ   key.Binding
}

func newGlobalKeys() globalKeys {
	return globalKeys{
		Start:    key.NewBinding(key.WithKeys("s", " "), key.WithHelp("s/space", "start/resume")),
		Pause:    key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause")),
		Stop:     key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "stop")),
		NextPane: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "pane")),
		PrevPane: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "prev pane")),
		Filter:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Help:     key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "keys")),
		Quit:     key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQ:   key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit now")),
	}
}

// listKeys move a cursor through a pane's rows; every list pane shares them.
type listKeys struct {
	Up     key.Binding
	Down   key.Binding
	PgUp   key.Binding
	PgDown key.Binding
	Top    key.Binding
	Bottom key.Binding
	Open   key.Binding
	Back   key.Binding
}

func newListKeys() listKeys {
	return listKeys{
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:   key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PgUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup/ctrl+u", "page up")),
		PgDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn/ctrl+d", "page down")),
		Top:    key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "top")),
		Bottom: key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "bottom")),
		Open:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Back:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	}
}

// confirmKeys answer a question such as "stop the league?".
type confirmKeys struct {
	Yes key.Binding
	No  key.Binding
}

func newConfirmKeys() confirmKeys {
	return confirmKeys{
		Yes: key.NewBinding(key.WithKeys("y", "Y", "enter"), key.WithHelp("y", "yes")),
		No:  key.NewBinding(key.WithKeys("n", "N", "esc", "q"), key.WithHelp("n/esc", "no")),
	}
}

// keyHelp is a help.KeyMap made of a short line and full columns.
type keyHelp struct {
	short []key.Binding
	full  [][]key.Binding
}

func (k keyHelp) ShortHelp() []key.Binding  { return k.short }
func (k keyHelp) FullHelp() [][]key.Binding { return k.full }
