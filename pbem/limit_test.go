package pbem

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 3, 18, 0, 0, 0, time.UTC)

func TestLimiterMails(t *testing.T) {
	l := NewLimiter(3)
	for i := 0; i < 3; i++ {
		if ok, _ := l.Allow("alice@example.org", t0); !ok {
			t.Fatalf("mail %d refused", i+1)
		}
	}
	steps := []struct {
		addr       string
		at         time.Duration
		ok, notify bool
		why        string
	}{
		{"Alice+x@Example.org", 0, false, true, "the fourth mail, plus-tagged: one notice"},
		{"alice@example.org", time.Minute, false, false, "the fifth: refused silently"},
		{"bruno@example.fr", 0, true, false, "another sender"},
		{"alice@example.org", 61 * time.Minute, true, false, "an hour later"},
		{"alice@example.org", 61 * time.Minute, true, false, "two"},
		{"alice@example.org", 61 * time.Minute, true, false, "three"},
		{"alice@example.org", 62 * time.Minute, false, true, "stopped again: a new notice"},
	}
	for _, s := range steps {
		if ok, notify := l.Allow(s.addr, t0.Add(s.at)); ok != s.ok || notify != s.notify {
			t.Errorf("%s: ok %v notify %v, want %v %v", s.why, ok, notify, s.ok, s.notify)
		}
	}
}

func TestLimiterFailures(t *testing.T) {
	l := NewLimiter(100)
	for i := 1; i < MaxFailures; i++ {
		game := "crecy-4f2a"
		if i%2 == 0 {
			game = "poitiers-77c1"
		}
		if n := l.FailGame("mallory@evil.example", game, t0); n != (i+1)/2 && game == "crecy-4f2a" {
			t.Errorf("failure %d: %d in crecy-4f2a", i, n)
		}
	}
	if n := l.Failures("Mallory+x@evil.example", "", t0); n != MaxFailures-1 {
		t.Errorf("Failures: %d, want %d", n, MaxFailures-1)
	}
	if ok, _ := l.Allow("mallory@evil.example", t0); !ok {
		t.Error("stopped before MaxFailures")
	}
	l.Fail("mallory@evil.example", t0)
	if ok, notify := l.Allow("mallory@evil.example", t0); ok || !notify {
		t.Errorf("after %d failures: ok %v notify %v", MaxFailures, ok, notify)
	}
	if n := l.Failures("mallory@evil.example", "crecy-4f2a", t0.Add(time.Hour)); n != 0 {
		t.Errorf("failures an hour later: %d", n)
	}
	if ok, _ := l.Allow("mallory@evil.example", t0.Add(time.Hour+time.Second)); !ok {
		t.Error("still stopped an hour later")
	}
}

// Many senders over a long time: idle ones are forgotten, so the limiter
// does not grow with every address that ever wrote.
func TestLimiterForgetsIdleSenders(t *testing.T) {
	l := NewLimiter(5)
	for i := 0; i < 3*sweepEvery; i++ {
		l.Allow(fmt.Sprintf("s%d@example.org", i), t0.Add(time.Duration(i)*time.Minute))
	}
	if n := len(l.senders); n > sweepEvery+60 {
		t.Errorf("%d senders kept", n)
	}
}

func TestLimiterConcurrent(t *testing.T) {
	l := NewLimiter(50)
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed, notices := 0, 0
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				ok, notify := l.Allow("alice@example.org", t0)
				l.FailGame("eve@example.org", "crecy-4f2a", t0)
				mu.Lock()
				if ok {
					allowed++
				}
				if notify {
					notices++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if allowed != 50 || notices != 1 {
		t.Errorf("allowed %d, notices %d; want 50 and 1", allowed, notices)
	}
	if n := l.Failures("eve@example.org", "crecy-4f2a", t0); n != 160 {
		t.Errorf("failures %d, want 160", n)
	}
}
