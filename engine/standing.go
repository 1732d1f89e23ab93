package engine

import (
	"fmt"
	"maps"
	"slices"
)

// Standing orders settle the opponent's decisions without a round trip by
// mail (design principle 4). Each side keeps its own; either side may change
// them in any block, at any time, without advancing the move number.

// StandingOrders are one side's standing orders.
type StandingOrders struct {
	// Seize lists Seizure rules, tried in order; the first whose condition
	// holds decides. None matching: the game waits for the player.
	Seize []SeizeRule `json:"seize,omitempty"`
	// HoldFire says when missile units use Return or Reaction Fire (9.2):
	// keys "return" or "reaction" for the whole side, with ":command:<id>"
	// or ":unit:<id>" for one Command or unit; values FireAlways, FireNever
	// or FireAsk. The most particular key decides; by default every unit
	// fires whenever it may.
	HoldFire map[string]string `json:"hold_fire,omitempty"`
	// AskRetreat: ask the player where his units retreat, instead of the
	// default choice (12.3, ruling R56).
	AskRetreat bool `json:"ask_retreat,omitempty"`
	// AskAdvance: ask the player who advances where after combat, and
	// its facing, instead of the default choice (10.5, ruling R75).
	AskAdvance bool `json:"ask_advance,omitempty"`
}

// SeizeRule answers a Seizure decision (4.3).
type SeizeRule struct {
	Never bool     `json:"never,omitempty"` // decline
	With  string   `json:"with,omitempty"`  // seize with this Command
	If    []string `json:"if,omitempty"`    // only when the opponent names one of these Commands; empty: always
	Text  string   `json:"text"`            // the order as given, for messages
}

func (s StandingOrders) clone() StandingOrders {
	c := s
	c.Seize, c.HoldFire = slices.Clone(s.Seize), maps.Clone(s.HoldFire)
	for i := range c.Seize {
		c.Seize[i].If = slices.Clone(c.Seize[i].If)
	}
	return c
}

// standingSeize records a STANDING SEIZE order. The first one in a block
// replaces the side's Seizure rules; the ones after it in the same block add
// to them. ASK clears them.
func (g *game) standingSeize(o StandingSeize) error {
	side := g.sender
	rule := SeizeRule{Never: o.Never, Text: o.String()}
	if !o.Never && !o.Ask {
		if g.sc.Tables.Rules.SeizureCounters {
			return g.illegal(o, "B&R 6.3", "a Seizure plays a Seizure Opportunity counter, chosen when it is played: STANDING SEIZE NEVER or STANDING SEIZE ASK")
		}
		with, err := g.sideCommand(o, side, o.With)
		if err != nil {
			return err
		}
		rule.With = with
		for _, name := range o.If {
			c, err := g.sideCommand(o, side.Other(), name)
			if err != nil {
				return err
			}
			rule.If = append(rule.If, c)
		}
	}
	replace := true
	for _, e := range g.res.Events {
		if s, ok := e.(StandingOrderSet); ok && s.Side == side {
			replace = false
		}
	}
	ev := StandingOrderSet{Side: side, Replace: replace, Text: o.String()}
	if !o.Ask {
		ev.Seize = &rule
	}
	g.emit(ev)
	return nil
}

// sideCommand resolves a Command of a given side for a standing order.
func (g *game) sideCommand(o Order, side Side, typed string) (string, error) {
	id, cands := resolveCommand(g.sc, side, typed)
	if id != "" {
		return id, nil
	}
	e := &IllegalOrderError{Line: o.LineNo(), Text: o.String(), Rule: "15.1",
		Reason: fmt.Sprintf("no Command of the %s is called %q", g.sc.SideName(side), typed) + didYouMean(nearestCommands(g.sc, side, typed))}
	for _, c := range cands {
		e.Legal = append(e.Legal, c)
	}
	return "", e
}

// standingStep settles the pending decision from its owner's standing
// orders, if they cover it. It reports done when nothing more can be
// settled automatically.
func (g *game) standingStep() (done bool, err error) {
	st := g.st
	if st.Pending.Kind != DecideSeizure {
		return true, nil
	}
	side := st.Pending.Side
	for _, r := range st.Standing[side].Seize {
		if len(r.If) > 0 && !slices.Contains(r.If, st.Selected) {
			continue
		}
		if r.Never {
			g.open()
			g.emit(SeizureDeclined{Side: side, Standing: r.Text})
			return false, g.continuityRoll()
		}
		if !slices.Contains(seizingCommands(g.sc, st, side), r.With) {
			continue // that Command is gone: try the next rule
		}
		g.open()
		return false, g.seizureRoll(r.With, r.Text)
	}
	return true, nil
}

// StandingOrderSet: a side sets or clears a standing order.
type StandingOrderSet struct {
	Side    Side       `json:"side"`
	Replace bool       `json:"replace"` // replaces the side's earlier Seizure rules
	Seize   *SeizeRule `json:"seize,omitempty"`
	Text    string     `json:"text"`
}

func (e StandingOrderSet) apply(st *State) {
	so := &st.Standing[e.Side]
	if e.Replace {
		so.Seize = nil
	}
	if e.Seize != nil {
		r := *e.Seize
		r.If = slices.Clone(r.If)
		so.Seize = append(so.Seize, r)
	}
}

func (e StandingOrderSet) describe(sc *Scenario) string {
	return fmt.Sprintf("The %s set a standing order: %s.", sc.SideName(e.Side), e.Text)
}

func init() { registerEvents(StandingOrderSet{}) }
