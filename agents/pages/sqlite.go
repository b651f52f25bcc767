package pages

import (
	"database/sql"
	"encoding/json"
	"fmt"

	_ "modernc.org/sqlite" // pure-Go SQLite driver, registered as "sqlite"

	"github.com/leaguetui/leaguetui/engine"
)

// LoadSQLite reads the WikiRace Arena schema: core_articles(title TEXT,
// links_json TEXT), links_json a JSON array of titles. The file is opened
// read-only.
func LoadSQLite(path string) (*Graph, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return nil, fmt.Errorf("page graph %s: %w", path, err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT title, links_json FROM core_articles")
	if err != nil {
		return nil, fmt.Errorf("page graph %s: want a table core_articles(title, links_json): %w", path, err)
	}
	defer rows.Close()
	var pages []engine.Page
	for rows.Next() {
		var title string
		var links sql.NullString
		if err := rows.Scan(&title, &links); err != nil {
			return nil, fmt.Errorf("page graph %s: %w", path, err)
		}
		p := engine.Page{Title: title}
		if links.Valid && links.String != "" {
			if err := json.Unmarshal([]byte(links.String), &p.Links); err != nil {
				return nil, fmt.Errorf("page graph %s: links_json of %q is not a JSON array of titles: %w", path, title, err)
			}
		}
		pages = append(pages, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("page graph %s: %w", path, err)
	}
	return nonEmpty(path, NewGraph(pages))
}
