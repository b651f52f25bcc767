package node

import (
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
)

// ServeFile answers a GET with the JSON file at path, at most limit bytes
// of it; a file that is not there is 404 with missing as its text. The
// manager serves match files this way, and so does a referee the files of
// the matches it played, which the manager fetches when their folders are
// apart.
func ServeFile(w http.ResponseWriter, path string, limit int64, missing string) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		http.Error(w, missing, http.StatusNotFound)
		return
	}
	if err != nil {
		http.Error(w, "cannot read the file", http.StatusInternalServerError)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.Copy(w, io.LimitReader(f, limit))
}
