package engine

import (
	"fmt"
	"strings"
)

// Some choices the rules give a player come up in the middle of a phase:
// where a unit retreats (12.3), which unit advances after combat where,
// and how it faces (10.5). Herald makes them by its rulings (R56, R75)
// unless the player's standing order asks it to stop and wait for him.

// Choice names such a choice, as its standing order spells it.
type Choice string

const (
	ChoiceRetreat Choice = "RETREAT"              // 12.3, ruling R56
	ChoiceAdvance Choice = "ADVANCE AFTER COMBAT" // 10.5, ruling R75
)

// choiceWhat is the choice in the sentence of the event.
var choiceWhat = map[Choice]string{ChoiceRetreat: "their retreats", ChoiceAdvance: "their Advances after Combat"}

// StandingChoice: "STANDING RETREAT ASK", "STANDING ADVANCE AFTER COMBAT
// AUTO": ask me, or let Herald choose (the default).
type StandingChoice struct {
	at
	Choice Choice
	Ask    bool
}

func (o StandingChoice) String() string {
	if o.Ask {
		return "STANDING " + string(o.Choice) + " ASK"
	}
	return "STANDING " + string(o.Choice) + " AUTO"
}

// parseStandingChoice reads the word after STANDING's choice: ASK or AUTO.
func parseStandingChoice(a at, c Choice, mode []string, syntax func(string, ...string) error) (Order, error) {
	if len(mode) == 1 {
		switch strings.ToUpper(mode[0]) {
		case "ASK":
			return StandingChoice{at: a, Choice: c, Ask: true}, nil
		case "AUTO":
			return StandingChoice{at: a, Choice: c}, nil
		}
	}
	s := "STANDING " + string(c)
	return nil, syntax(s+" takes ASK or AUTO", s+" ASK", s+" AUTO")
}

func (g *game) standingChoice(o StandingChoice) error {
	g.emit(ChoiceOrderSet{Side: g.sender, Choice: o.Choice, Ask: o.Ask})
	return nil
}

// ChoiceOrderSet: a side's standing order for one kind of choice.
type ChoiceOrderSet struct {
	Side   Side   `json:"side"`
	Choice Choice `json:"choice"`
	Ask    bool   `json:"ask"`
}

func (e ChoiceOrderSet) apply(st *State) {
	switch e.Choice {
	case ChoiceRetreat:
		st.Standing[e.Side].AskRetreat = e.Ask
	case ChoiceAdvance:
		st.Standing[e.Side].AskAdvance = e.Ask
	}
}

func (e ChoiceOrderSet) describe(sc *Scenario) string {
	if e.Ask {
		return fmt.Sprintf("The %s will choose %s themselves (standing order).", sc.SideName(e.Side), choiceWhat[e.Choice])
	}
	return fmt.Sprintf("The %s leave %s to Herald's default choice (standing order).", sc.SideName(e.Side), choiceWhat[e.Choice])
}

func init() { registerEvents(ChoiceOrderSet{}) }
