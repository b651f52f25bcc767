//go:build !linux

package sandbox

// Held is what the deleted files a program's processes still hold take
// on disk. Linux tells it from /proc; here it is not measured, and a
// program's disk cap counts the files in its folders only.
type Held struct {
	Bytes   uint64
	Hidden  int
	Partial bool
}

// HeldDeleted measures nothing here: there is no /proc to read.
func HeldDeleted(pids []int, folders []string) Held { return Held{} }

// Tree is pid alone: without /proc its descendants are not listed.
func Tree(pid int) []int { return []int{pid} }
