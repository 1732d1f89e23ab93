package mapimg

import (
	"bytes"
	"sync"
	"testing"

	"herald/engine"
)

func forgetGrounds() {
	grounds.Lock()
	defer grounds.Unlock()
	clear(grounds.byKey)
	grounds.lru.Init()
	grounds.bytes = 0
}

// A ground from the cache gives the same pixels as one drawn afresh, and
// PNG the same bytes, from any number of goroutines at once.
func TestGroundCacheSamePixels(t *testing.T) {
	sc, before, after, events := busy(t)
	opts := []Options{ForMail(Marks(sc, before, after, events)), ForMail(Marks(sc, after, after, nil)), {}, {Crop: true, HexSize: 30, Margin: 1}}
	var want [][]byte
	for _, opt := range opts {
		forgetGrounds()
		fresh, err := Render(sc, after, opt)
		if err != nil {
			t.Fatal(err)
		}
		cached, _ := Render(sc, after, opt)
		if !bytes.Equal(fresh.Pix, cached.Pix) {
			t.Errorf("%+v: the cached ground changes the image", opt)
		}
		b, _ := PNG(sc, after, opt)
		want = append(want, b)
	}
	forgetGrounds()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range len(opts) {
				k := (g + i) % len(opts)
				if b, err := PNG(sc, after, opts[k]); err != nil || !bytes.Equal(b, want[k]) {
					t.Errorf("goroutine %d, options %d: other bytes (%v)", g, k, err)
				}
			}
		})
	}
	wg.Wait()
	// A changed map is a new ground.
	river := *sc
	river.Map.Hexsides = append([]engine.Hexside{{A: hx("1208"), B: hx("1209"), Feature: "river"}}, sc.Map.Hexsides...)
	if b, _ := PNG(&river, after, opts[2]); bytes.Equal(b, want[2]) {
		t.Error("the river's map came from the cache of the map without it")
	}
	grounds.Lock()
	defer grounds.Unlock()
	if grounds.bytes > groundCacheBytes || grounds.lru.Len() != len(grounds.byKey) {
		t.Errorf("cache of %d bytes, %d entries, %d keys", grounds.bytes, grounds.lru.Len(), len(grounds.byKey))
	}
}
