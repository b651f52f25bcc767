package noui

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/league/launcher"
)

// finalStandings makes a completed league's standings.json final before
// leaguetui exits 0, so that what it printed and the file agree. The
// manager writes the file as the league completes and again as it stops,
// but a manager killed in between (right after its journal took
// league_completed) leaves the file of before, saying running. So the
// manager is stopped first, to write its own; if the file still lags the
// document the manager served (the one printed, which it derived from its
// journal: the same encoding, its time aside), that document is written in
// its place. Where even that cannot be written, the run fails rather than
// exit 0 over a file that says otherwise. It runs while leaguetui still
// holds the data folder's lock.
func finalStandings(l *launcher.League, spec launcher.Spec, served protocol.StandingsFile, progress io.Writer) error {
	_ = l.Manager.Stop(10 * time.Second) // it writes its files as it stops
	path := spec.StandingsPath()
	if onDisk, err := readStandings(path); err == nil && onDisk.State == served.State && onDisk.Version >= served.Version {
		return nil
	}
	if err := store.WriteJSON(path, served); err != nil {
		return fmt.Errorf("the league completed, but its manager did not write the final %s, and neither could leaguetui: %w", path, err)
	}
	fmt.Fprintf(progress, "leaguetui: the manager exited before it wrote the final standings; %s written from the standings it served\n", path)
	return nil
}

// readStandings reads a standings file.
func readStandings(path string) (protocol.StandingsFile, error) {
	var doc protocol.StandingsFile
	data, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(data, &doc)
	}
	return doc, err
}
