package referee

import (
	"net/http"

	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/agents/protocol"
)

// serveMatchFile answers GET /matches/{id} with the file of a match this
// referee played, from its own data folder: a manager whose data folder is
// apart from the referee's (another machine, another pod) fetches it from
// here, so every transcript reaches the manager.
func (r *Referee) serveMatchFile(w http.ResponseWriter, req *http.Request) {
	path, err := r.Layout().Match(req.PathValue("id"))
	if err != nil {
		http.Error(w, "no such match", http.StatusNotFound)
		return
	}
	node.ServeFile(w, path, protocol.MaxMatchFile, "no file of that match here")
}
