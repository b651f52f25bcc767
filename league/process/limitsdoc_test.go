package process

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/config"
)

// TestLimitsPageMatchesCode: docs/limits.md's caps of a program are the
// ones leaguetui applies.
func TestLimitsPageMatchesCode(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "limits.md"))
	if err != nil {
		t.Fatal(err)
	}
	d := config.DefaultProgramLimits
	for _, row := range []string{
		fmt.Sprintf("| private memory | %d MiB |", d.MemoryMB),
		fmt.Sprintf("| processes and threads | %d (", d.Processes),
		fmt.Sprintf("| one file | %d MiB |", d.FileMB),
		fmt.Sprintf("| its data and temporary folders together | %d MiB, or less on a small disk: 1/%d of the free space", d.DiskMB, diskFreeShare),
		fmt.Sprintf("at least every %s whatever it hears: a deleted file is counted within %[1]s", diskCheckEvery),
		fmt.Sprintf("| %d MiB, then rotated once (%d MiB at most) |", LogMaxMB, LogMaxMB*(1+logMaxBackups)),
	} {
		if !strings.Contains(strings.Join(strings.Fields(string(page)), " "), row) { // lines wrapped anywhere
			t.Errorf("docs/limits.md lacks %q", row)
		}
	}
}
