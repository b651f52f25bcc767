package store

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestDataFolderLock: a second owner of a data folder is refused at once,
// naming the first; once the first lets go, the folder can be taken again.
func TestDataFolderLock(t *testing.T) {
	root := t.TempDir()
	first, err := LockDataFolder(root)
	if err != nil {
		t.Fatal(err)
	}
	_, err = LockDataFolder(root)
	if !errors.Is(err, ErrDataFolderInUse) || !strings.Contains(err.Error(), fmt.Sprintf("PID %d (", os.Getpid())) {
		t.Fatalf("second lock: %v; want ErrDataFolderInUse naming PID %d", err, os.Getpid())
	}
	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	again, err := LockDataFolder(root)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	again.Release()
}
