package pbem

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 3, 18, 0, 0, 0, time.UTC)

func TestLimiterMails(t *testing.T) {
	l := NewLimiter(3, 3)
	for i := 0; i < 3; i++ {
		if ok, _ := l.Allow("crecy-4f2a/English", t0); !ok {
			t.Fatalf("mail %d refused", i+1)
		}
	}
	steps := []struct {
		who        string
		at         time.Duration
		ok, notify bool
		why        string
	}{
		{"crecy-4f2a/English", 0, false, true, "the fourth mail: one notice"},
		{"crecy-4f2a/English", time.Minute, false, false, "the fifth: refused silently"},
		{"crecy-4f2a/French", 0, true, false, "another sender"},
		{"crecy-4f2a/English", 61 * time.Minute, true, false, "an hour later"},
		{"crecy-4f2a/English", 61 * time.Minute, true, false, "two"},
		{"crecy-4f2a/English", 61 * time.Minute, true, false, "three"},
		{"crecy-4f2a/English", 62 * time.Minute, false, true, "stopped again: a new notice"},
	}
	for _, s := range steps {
		if ok, notify := l.Allow(s.who, t0.Add(s.at)); ok != s.ok || notify != s.notify {
			t.Errorf("%s: ok %v notify %v, want %v %v", s.why, ok, notify, s.ok, s.notify)
		}
	}
}

// Answers to mail that did not authenticate are capped per address
// (plus-tags ignored); failures are only counted, and stop nobody.
func TestLimiterAnswersAndFailures(t *testing.T) {
	l := NewLimiter(100, 2)
	for i := 1; i <= 20; i++ {
		game := "crecy-4f2a"
		if i%2 == 0 {
			game = "poitiers-77c1"
		}
		if n := l.FailGame("bob@example.org", game, t0); n != (i+1)/2 {
			t.Errorf("failure %d: %d in %s", i, n, game)
		}
	}
	if n := l.Failures("Bob+x@example.org", "", t0); n != 20 {
		t.Errorf("Failures: %d, want 20", n)
	}
	if ok, _ := l.Allow("crecy-4f2a/French", t0); !ok {
		t.Error("failures in bob's name stopped bob's keyed mail")
	}
	for i, want := range []bool{true, true, false, false} {
		if got := l.Answer("Bob+tag@example.org", t0); got != want {
			t.Errorf("answer %d: %v, want %v", i+1, got, want)
		}
	}
	if !l.Answer("alice@example.org", t0) {
		t.Error("another address refused an answer")
	}
	if !l.Answer("bob@example.org", t0.Add(time.Hour+time.Second)) {
		t.Error("still no answer an hour later")
	}
	if n := l.Failures("bob@example.org", "crecy-4f2a", t0.Add(time.Hour)); n != 0 {
		t.Errorf("failures an hour later: %d", n)
	}
}

// Many senders over a long time: idle ones are forgotten, so the limiter
// does not grow with every address that ever wrote.
func TestLimiterForgetsIdleSenders(t *testing.T) {
	l := NewLimiter(5, 3)
	for i := 0; i < 3*sweepEvery; i++ {
		at := t0.Add(time.Duration(i) * time.Minute)
		l.Allow(fmt.Sprintf("g%d/English", i), at)
		l.Answer(fmt.Sprintf("s%d@example.org", i), at)
	}
	if n := len(l.senders); n > sweepEvery+120 {
		t.Errorf("%d senders kept", n)
	}
}

func TestLimiterConcurrent(t *testing.T) {
	l := NewLimiter(50, 30)
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed, notices, answers := 0, 0, 0
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				ok, notify := l.Allow("crecy-4f2a/English", t0)
				l.FailGame("eve@example.org", "crecy-4f2a", t0)
				answered := l.Answer("eve@example.org", t0)
				mu.Lock()
				if ok {
					allowed++
				}
				if notify {
					notices++
				}
				if answered {
					answers++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if allowed != 50 || notices != 1 || answers != 30 {
		t.Errorf("allowed %d, notices %d, answers %d; want 50, 1 and 30", allowed, notices, answers)
	}
	if n := l.Failures("eve@example.org", "crecy-4f2a", t0); n != 160 {
		t.Errorf("failures %d, want 160", n)
	}
}
