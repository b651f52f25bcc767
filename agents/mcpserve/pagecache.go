package mcpserve

import (
	"container/list"
	"sync"

	"github.com/leaguetui/leaguetui/engine"
)

// pageCache keeps pages up to a number of bytes, dropping the least
// recently used first. A count of entries would not bound memory: one
// page of a hostile server may hold far more than thousands of real ones.
// (hashicorp/golang-lru counts entries, not their sizes.)
type pageCache struct {
	mu      sync.Mutex
	limit   int64
	used    int64
	order   *list.List // of *cached, most recently used at the front
	byTitle map[string]*list.Element
}

type cached struct {
	page engine.Page
	size int64
}

func newPageCache(limit int64) *pageCache {
	return &pageCache{limit: limit, order: list.New(), byTitle: map[string]*list.Element{}}
}

// pageSize estimates what a page holds in memory: its strings and the
// headers that point at them.
func pageSize(p engine.Page) int64 {
	const header = 16 // a string's pointer and length
	size := int64(len(p.Title) + len(p.Summary) + 4*header)
	for _, l := range p.Links {
		size += int64(len(l) + header)
	}
	return size
}

func (c *pageCache) get(title string) (engine.Page, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byTitle[title]
	if !ok {
		return engine.Page{}, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cached).page, true
}

// put keeps p, dropping older pages until the cache fits; a page larger
// than the whole cache is not kept.
func (c *pageCache) put(p engine.Page) {
	size := pageSize(p)
	if size > c.limit {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byTitle[p.Title]; ok {
		c.remove(e)
	}
	c.byTitle[p.Title] = c.order.PushFront(&cached{page: p, size: size})
	c.used += size
	for c.used > c.limit {
		c.remove(c.order.Back())
	}
}

func (c *pageCache) remove(e *list.Element) {
	entry := c.order.Remove(e).(*cached)
	delete(c.byTitle, entry.page.Title)
	c.used -= entry.size
}

// bytes is what the cache holds now, by pageSize.
func (c *pageCache) bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}
