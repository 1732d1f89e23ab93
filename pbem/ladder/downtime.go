package ladder

import "time"

// Interval is a span of time, From inclusive, To exclusive.
type Interval struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}

// Downtime is Herald's record of its own outages, so that no player is
// charged for time Herald could not read his mail. The daemon calls Beat
// when it starts (before it asks any clock what is due) and then every
// minute or so while it runs, and stores the Downtime in the same
// transaction. A gap between two beats longer than the grace is an outage:
// from the last beat to the new one. A gap within the grace is charged,
// so a player may lose at most one grace per outage, never more.
type Downtime struct {
	LastAlive time.Time  `json:"last_alive"`
	Outages   []Interval `json:"outages,omitempty"`
}

// Beat records that Herald is alive at now and returns the outage it ends,
// if the last beat is more than grace ago. A clock set back (now before
// the last beat) records no outage.
func (d *Downtime) Beat(now time.Time, grace time.Duration) (Interval, bool) {
	now = now.UTC()
	last := d.LastAlive
	d.LastAlive = now
	if last.IsZero() || now.Sub(last) <= grace {
		return Interval{}, false
	}
	out := Interval{From: last, To: now}
	d.Outages = append(d.Outages, out)
	return out, true
}

// Charged is the time from from to to that Herald was up: the wall time
// less its overlap with every outage. Outages never overlap one another,
// since each starts at a beat after the previous one ended.
func (d *Downtime) Charged(from, to time.Time) time.Duration {
	if !to.After(from) {
		return 0
	}
	t := to.Sub(from)
	if d == nil {
		return t
	}
	for _, o := range d.Outages {
		lo, hi := later(o.From, from), earlier(o.To, to)
		if hi.After(lo) {
			t -= hi.Sub(lo)
		}
	}
	return t
}

// Prune forgets the outages that ended before t: no running clock asked
// for its move earlier than t.
func (d *Downtime) Prune(t time.Time) {
	keep := d.Outages[:0]
	for _, o := range d.Outages {
		if o.To.After(t) {
			keep = append(keep, o)
		}
	}
	d.Outages = keep
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
