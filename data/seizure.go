package data

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"herald/engine"
)

// seizurePool reads a tables file's seizure_pool: the Seizure counters each
// player draws his hand from (B&R 6.3, ARQ 6.3), each an id players name
// it by, its type, and for a Seizure Opportunity its printed DR range:
//
//	seizure_pool:
//	  - {id: SO5, type: opportunity, range: 0-5}
//	  - {id: SN, type: negation}
func (p *parser) seizurePool(t *engine.Tables, n *yaml.Node) {
	const path = "seizure_pool"
	seen := map[string]bool{}
	for i, cn := range p.list(n, path) {
		at := path + "[" + strconv.Itoa(i) + "]"
		o := p.object(cn, at, "id", "type", "range")
		c := engine.SeizureCounter{ID: o.str("id", true), Type: engine.CounterType(o.str("type", true))}
		if c.ID != "" && p.id(c.ID, o.line("id"), join(at, "id")) {
			if seen[strings.ToLower(c.ID)] {
				p.add(o.line("id"), join(at, "id"), "%q is in the pool twice: each counter needs its own id", c.ID)
			}
			seen[strings.ToLower(c.ID)] = true
		}
		if c.Type != "" && c.Type.String() == string(c.Type) {
			p.add(o.line("type"), join(at, "type"), "%q: want opportunity, negation, battle-cry, treachery, near-miss, into-the-breach or unsteady-troops (6.3)", c.Type)
		}
		switch r := o.str("range", false); {
		case c.Type == engine.CounterOpportunity && r == "":
			p.add(cn.Line, join(at, "range"), "a Seizure Opportunity needs its printed DR range, like 0-5 (6.3)")
		case c.Type != engine.CounterOpportunity && r != "":
			p.add(o.line("range"), join(at, "range"), "only a Seizure Opportunity has a DR range (6.3)")
		case r != "":
			lo, hi, ok := dieRange(r)
			if !ok {
				p.add(o.line("range"), join(at, "range"), "%q: want two die faces 0-9, the lower first, like 0-5", r)
			}
			c.Min, c.Max = lo, hi
		}
		t.SeizurePool = append(t.SeizurePool, c)
	}
	if len(t.SeizurePool) == 0 {
		p.add(n.Line, path, "an empty pool: leave it out, or list the counters drawn from")
	}
}

// dieRange reads "0-5".
func dieRange(s string) (lo, hi int, ok bool) {
	a, b, found := strings.Cut(s, "-")
	lo, err1 := strconv.Atoi(strings.TrimSpace(a))
	hi, err2 := strconv.Atoi(strings.TrimSpace(b))
	return lo, hi, found && err1 == nil && err2 == nil && 0 <= lo && lo <= hi && hi <= 9
}

// seizureCounters checks a side's number of Seizure counters against its
// tables' pool (B&R 6.3: "a specific number of SEIZURE counters, as stated
// in the scenario for that battle").
func (s *scen) seizureCounters(o *object, path string, n int) {
	if !o.has("seizure_counters") {
		return
	}
	path = join(path, "seizure_counters")
	t := s.sc.Tables
	switch {
	case t == nil:
	case len(t.SeizurePool) == 0:
		s.add(o.line("seizure_counters"), path, "the tables of volume %q have no Seizure counters (seizure_pool)", s.sc.Volume)
	case n < 0 || n > len(t.SeizurePool):
		s.add(o.line("seizure_counters"), path, "%d: a side draws 0 to %d, the counters of the pool (6.3)", n, len(t.SeizurePool))
	}
}
