package mapimg

import (
	"sync"

	"herald/engine"
)

// The caches of maps are keyed by digests of what they depend on: a
// battle's palette by battleKey, a ground by its map's mapSum. Both read
// the whole battle (battleKey marshals it), and were taken for every
// map: 2% of a daemon's time with maps. They are remembered by the
// battle's address instead. A battle is not changed once made: the
// embedded ones are shared read-only (data.Scenario), one from a file is
// parsed afresh, and one changed is a copy at another address, which
// gets digests of its own. A remembered address is held, so it is not
// reused for another battle while it is remembered.

// digestMemo remembers digests by the address of what they digest.
type digestMemo[K comparable] struct {
	sync.Mutex
	m map[K][16]byte
}

// digestMemoMax bounds the addresses remembered: a club's battles are a
// handful, and a battle parsed afresh for each map only fills the memo,
// which then starts again.
const digestMemoMax = 64

// get is k's digest, remembered or taken by sum now.
func (d *digestMemo[K]) get(k K, sum func(K) [16]byte) [16]byte {
	d.Lock()
	v, ok := d.m[k]
	d.Unlock()
	if ok {
		return v
	}
	v = sum(k)
	d.Lock()
	defer d.Unlock()
	if d.m == nil || len(d.m) >= digestMemoMax {
		d.m = map[K][16]byte{}
	}
	d.m[k] = v
	return v
}

var (
	battleKeys digestMemo[*engine.Scenario]
	mapSums    digestMemo[*engine.Map]
)
