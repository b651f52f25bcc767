package web

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// docCache keeps the last read of one document of the manager's, with the
// feed's sequence number when the read began: the document is at least as
// new as every event up to it.
type docCache struct {
	mu  sync.Mutex
	raw []byte
	seq int64
	at  time.Time
}

// read is one read of the document and the feed's position before it.
type read struct {
	raw []byte
	seq int64
}

// get is the document, read again when the feed has events the cached
// read may not show or when it is older than ttl; concurrent reads are
// one. A page that saw league_completed on its stream thus always gets
// standings read after it.
func (c *docCache) get(ctx context.Context, f *feed, ttl time.Duration, group *singleflight.Group, fetch func(context.Context) ([]byte, error)) ([]byte, error) {
	for range 2 { // a shared read may have begun before the event this request saw
		seq := f.snapshotStatus().LastSeq
		c.mu.Lock()
		if c.raw != nil && c.seq >= seq && time.Since(c.at) < ttl {
			raw := c.raw
			c.mu.Unlock()
			return raw, nil
		}
		c.mu.Unlock()
		ch := group.DoChan("standings", func() (any, error) {
			began := f.snapshotStatus().LastSeq
			fetchCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), fetchTimeout)
			defer cancel()
			raw, err := fetch(fetchCtx)
			if err != nil {
				return nil, err
			}
			c.mu.Lock()
			c.raw, c.seq, c.at = raw, began, time.Now()
			c.mu.Unlock()
			return read{raw: raw, seq: began}, nil
		})
		select {
		case res := <-ch:
			if res.Err != nil {
				return nil, res.Err
			}
			if got := res.Val.(read); got.seq >= seq {
				return got.raw, nil
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return c.latest(), nil
}

func (c *docCache) latest() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.raw
}
