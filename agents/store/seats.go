package store

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// SeatsFile is DATA/seats.json: a league's MCP-client seats, where an MCP
// client takes them (MCPURL) and each seat's name and join code. The
// organiser hands each code to one client; the seat host reads the same
// file to know its seats. It is readable by its owner only.
type SeatsFile struct {
	MCPURL string     `json:"mcp_url"`
	Seats  []SeatCode `json:"seats"`
}

// SeatCode is one MCP-client seat: the display name its player registers
// under and the join code that takes it.
type SeatCode struct {
	Name     string `json:"name"`
	JoinCode string `json:"join_code"`
}

// Seats is where a league leaguetui started keeps its MCP-client seats,
// beside the join codes, mode 0600.
func (l Layout) Seats() string {
	return filepath.Join(l.Root, "seats.json")
}

// SaveSeats writes the seats file at path, private to its owner.
func SaveSeats(path string, f SeatsFile) error {
	if err := writeAtomic(path, IndentedJSON(func() any { return f }), secretFilePerm, dirPerm); err != nil {
		return fmt.Errorf("cannot write the seats file: %w", err)
	}
	return nil
}

// LoadSeats reads the seats file at path; every code in it is kept out of
// the logs.
func LoadSeats(path string) (SeatsFile, error) {
	var f SeatsFile
	data, err := os.ReadFile(path)
	if err != nil {
		return f, fmt.Errorf("seats file: %w", err)
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return f, fmt.Errorf("seats file: %s is not a JSON object with mcp_url and seats: %w", path, err)
	}
	for _, s := range f.Seats {
		if s.Name == "" || s.JoinCode == "" {
			return f, fmt.Errorf("seats file: %s: every seat needs a name and a join_code", path)
		}
		Redact(s.JoinCode)
	}
	return f, nil
}
