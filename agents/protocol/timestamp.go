package protocol

import (
	"sync/atomic"
	"time"
)

// timestampLayout is the one timestamp form we send: second precision,
// UTC, "Z". Strict peers reject fractional seconds.
const timestampLayout = "2006-01-02T15:04:05Z"

// FormatTime writes t in the one timestamp form we send (timestampLayout).
//
// Every message's envelope, every transcript record and every move's
// deadline carries one, some 25 a match in a referee, nearly all of them
// of the same few seconds. The text of a second, once written, is kept
// and given again: a timestamp costs no formatting and no new string
// while its second lasts. Each second has its slot among a few, so that
// now and a deadline some seconds ahead do not push each other out.
func FormatTime(t time.Time) string {
	second := t.Unix() // the second t falls in, whatever its zone: all the text says
	slot := &recentStamps[uint64(second)%uint64(len(recentStamps))]
	if last := slot.Load(); last != nil && last.second == second {
		return last.text
	}
	text := t.UTC().Format(timestampLayout)
	slot.Store(&stamp{second: second, text: text})
	return text
}

// stamp is one second's text.
type stamp struct {
	second int64
	text   string
}

// recentStamps are the seconds last written, each in the slot its
// number gives it.
var recentStamps [16]atomic.Pointer[stamp]
