package engine

import (
	"fmt"
	"strings"
)

// Order is one line of an order block, already parsed but not yet checked
// against the game: parsing does not validate (see docs/orders.md). The set
// is closed: only this package's order types satisfy the interface.
type Order interface {
	// String prints the order in canonical form: upper-case keywords,
	// names as typed, single spaces. Canonical blocks are what the dice
	// log hashes.
	String() string
	// LineNo is the line the order came from, for messages.
	LineNo() int
	order()
}

// at is embedded in every order to remember its source line.
type at struct{ Line int }

func (a at) LineNo() int { return a.Line }
func (at) order()        {}

// Activate activates a Command, or a Standard, in Phase A of a Free
// Activation (4.1, 13.2): "ACTIVATE Godfrey", "ACTIVATE STANDARD English".
// A Standard either rallies its Retired units (13.1) or, with MOVE, moves
// (13.2): "ACTIVATE STANDARD English MOVE 1210".
type Activate struct {
	at
	Name     string
	Standard bool
	MoveTo   string // hex id, only with Standard
	Army     bool   // "ACTIVATE ARMY" (B&R 6.1)
	// Ambush: "ACTIVATE AMBUSH [<unit>] [JOIN <battle>]" (B&R 16.1);
	// Name is then the unit, if named, and Join the Battle it joins when
	// the battle's is gone (ruling R277).
	Ambush bool
	Join   string
}

func (o Activate) String() string {
	switch {
	case o.Army:
		return "ACTIVATE ARMY"
	case o.Ambush:
		s := "ACTIVATE AMBUSH"
		if o.Name != "" {
			s += " " + o.Name
		}
		if o.Join != "" {
			s += " JOIN " + o.Join
		}
		return s
	case o.Standard && o.MoveTo != "":
		return "ACTIVATE STANDARD " + o.Name + " MOVE " + o.MoveTo
	case o.Standard:
		return "ACTIVATE STANDARD " + o.Name
	}
	return "ACTIVATE " + o.Name
}

// Pass gives up a Free Activation or a Continuation attempt (4.1, 4.2).
type Pass struct{ at }

func (Pass) String() string { return "PASS" }

// End ends the orders of the activated Command: the Rally Phase follows,
// then the Loss Check after a Free Activation, then Continuation (ExtSoP D, E).
type End struct{ at }

func (End) String() string { return "END" }

// Continue names a Command for a Continuation attempt (4.2).
type Continue struct {
	at
	Name     string
	Standard bool // "CONTINUE STANDARD x": always illegal (13.2), parsed to say why
	Army     bool // "CONTINUE ARMY" (B&R 6.2)
}

func (o Continue) String() string {
	if o.Army {
		return "CONTINUE ARMY"
	}
	if o.Standard {
		return "CONTINUE STANDARD " + o.Name
	}
	return "CONTINUE " + o.Name
}

// Seize tries to Seize Continuity with one of the player's Commands (4.3).
type Seize struct {
	at
	Name    string
	Counter string // "SEIZE <battle> WITH <counter>": the Seizure Opportunity played (B&R 6.3)
}

func (o Seize) String() string {
	if o.Counter != "" {
		return "SEIZE " + o.Name + " WITH " + o.Counter
	}
	return "SEIZE " + o.Name
}

// Decline lets the opponent's Continuation roll go ahead without a Seizure
// attempt (4.2 "If the Non-Active player declines").
type Decline struct{ at }

func (Decline) String() string { return "DECLINE" }

// StandingSeize sets one of the player's standing orders for Seizure.
// "STANDING SEIZE NEVER", "STANDING SEIZE ASK", "STANDING SEIZE Alençon",
// "STANDING SEIZE Alençon IF Edward, Northampton".
type StandingSeize struct {
	at
	Never bool
	Ask   bool
	With  string   // Command to seize with
	If    []string // only when the opponent names one of these Commands
}

func (o StandingSeize) String() string {
	switch {
	case o.Never:
		return "STANDING SEIZE NEVER"
	case o.Ask:
		return "STANDING SEIZE ASK"
	case len(o.If) > 0:
		return "STANDING SEIZE " + o.With + " IF " + strings.Join(o.If, ", ")
	}
	return "STANDING SEIZE " + o.With
}

// Line is one line of an order block with its number in the text it came
// from (a mail, a file), so that messages can quote it.
type Line struct {
	No   int
	Text string
}

// SplitLines numbers the lines of a text from 1.
func SplitLines(text string) []Line {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	var out []Line
	for i, s := range strings.Split(text, "\n") {
		out = append(out, Line{No: i + 1, Text: s})
	}
	return out
}

// ParseOrders parses the lines of an order block: one order per line,
// keywords in any case, "#" starts a comment, blank lines are skipped.
// Names are kept as typed; they are resolved against the scenario when the
// orders are applied.
func ParseOrders(lines []Line) ([]Order, error) {
	var out []Order
	for _, l := range lines {
		text := l.Text
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		words := strings.Fields(text)
		if len(words) == 0 {
			continue
		}
		o, err := parseOrder(l, words)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

// CanonicalBlock prints orders one per line in canonical form.
func CanonicalBlock(orders []Order) string {
	var b strings.Builder
	for _, o := range orders {
		b.WriteString(o.String())
		b.WriteByte('\n')
	}
	return b.String()
}

var keywords = []string{"ACTIVATE", "MOVE", "FACE", "FIRE", "RETURN", "HOLD", "REACT", "RETREAT", "SHOCK", "CHARGE", "COUNTER-CHARGE", "ADVANCE", "STAND", "SHIELD", "LIMBER", "UNLIMBER", "PASS", "END", "CONTINUE", "SEIZE", "DECLINE", "STANDING", "NEGATE", "PLAY"}

func parseOrder(l Line, words []string) (Order, error) {
	a := at{l.No}
	kw := strings.ToUpper(words[0])
	rest := words[1:]
	syntax := func(reason string, legal ...string) error {
		return &IllegalOrderError{Line: l.No, Text: strings.TrimSpace(l.Text), Rule: "docs/orders.md", Reason: reason, Legal: legal}
	}
	switch kw {
	case "ACTIVATE":
		if len(rest) == 0 {
			return nil, syntax("ACTIVATE needs the name of a Command or a Standard", "ACTIVATE <command>", "ACTIVATE STANDARD <standard>")
		}
		if strings.EqualFold(rest[0], "STANDARD") {
			name, move := splitKeyword(rest[1:], "MOVE")
			if name == "" {
				return nil, syntax("ACTIVATE STANDARD needs the Standard's name", "ACTIVATE STANDARD <standard> [MOVE <hex>]")
			}
			if move == nil {
				return Activate{at: a, Name: name, Standard: true}, nil
			}
			if len(move) != 1 {
				return nil, syntax("MOVE takes one hex id", "ACTIVATE STANDARD "+name+" MOVE <hex>")
			}
			return Activate{at: a, Name: name, Standard: true, MoveTo: move[0]}, nil
		}
		if len(rest) == 1 && strings.EqualFold(rest[0], "ARMY") {
			return Activate{at: a, Army: true}, nil
		}
		if strings.EqualFold(rest[0], "AMBUSH") {
			name, join := splitKeyword(rest[1:], "JOIN")
			switch {
			case strings.Contains(name, " "):
				return nil, syntax("ACTIVATE AMBUSH names at most one unit", "ACTIVATE AMBUSH [<unit>] [JOIN <battle>]")
			case join != nil && len(join) == 0:
				return nil, syntax("JOIN needs the name of a Battle", "ACTIVATE AMBUSH [<unit>] JOIN <battle>")
			}
			return Activate{at: a, Ambush: true, Name: name, Join: strings.Join(join, " ")}, nil
		}
		return Activate{at: a, Name: strings.Join(rest, " ")}, nil
	case "PASS", "END", "DECLINE":
		if len(rest) > 0 {
			return nil, syntax(fmt.Sprintf("%s takes nothing after it, found %q", kw, strings.Join(rest, " ")), kw)
		}
		switch kw {
		case "PASS":
			return Pass{a}, nil
		case "END":
			return End{a}, nil
		}
		return Decline{a}, nil
	case "CONTINUE":
		if len(rest) == 0 {
			return nil, syntax("CONTINUE needs the name of a Command", "CONTINUE <command>")
		}
		if strings.EqualFold(rest[0], "STANDARD") && len(rest) > 1 {
			return Continue{at: a, Name: strings.Join(rest[1:], " "), Standard: true}, nil
		}
		if len(rest) == 1 && strings.EqualFold(rest[0], "ARMY") {
			return Continue{at: a, Army: true}, nil
		}
		return Continue{at: a, Name: strings.Join(rest, " ")}, nil
	case "SEIZE":
		if len(rest) == 0 {
			return nil, syntax("SEIZE needs the name of the Command that tries to Seize", "SEIZE <command>")
		}
		// The last WITH: a Command's name may hold the word ("John, Lord
		// Wenlock, with Edward, Prince of Wales" at Tewkesbury).
		name, with := splitLastKeyword(rest, "WITH")
		switch {
		case with == nil:
			return Seize{at: a, Name: name}, nil
		case len(with) != 1 || name == "":
			return nil, syntax("SEIZE ... WITH takes a Battle and one Seizure Opportunity counter", "SEIZE <command> WITH <counter>")
		}
		return Seize{at: a, Name: name, Counter: with[0]}, nil
	case "NEGATE":
		if len(rest) != 1 {
			return nil, syntax("NEGATE takes one Seizure Negation counter", "NEGATE <counter>")
		}
		return Negate{at: a, Counter: rest[0]}, nil
	case "PLAY":
		return parsePlay(a, rest, syntax)
	case "STANDING":
		return parseStanding(a, rest, syntax)
	case "MOVE":
		return parseMove(a, rest, syntax)
	case "FACE":
		return parseFace(a, rest, syntax)
	case "SHIELD":
		return parseShieldWall(a, rest, syntax)
	case "SCHILTRON":
		return parseSchiltron(a, rest, syntax)
	case "FIRE":
		return parseFire(a, rest, syntax)
	case "RETREAT":
		if len(rest) > 0 && strings.EqualFold(rest[0], "BEFORE") {
			return parseRetreatBeforeShock(a, rest, syntax)
		}
		return parseRetreat(a, rest, syntax)
	case "COUNTER-CHARGE":
		return parseCounterCharge(a, rest, syntax)
	case "ADVANCE":
		return parseAdvance(a, rest, syntax)
	case "STAND":
		if len(rest) > 1 {
			return nil, syntax("STAND takes one unit, or nothing for all", "STAND <unit>", "STAND")
		}
		return StandOrder{at: a, Unit: strings.Join(rest, "")}, nil
	case "SHOCK":
		return parseShock(a, rest, syntax)
	case "CHARGE":
		return parseCharge(a, rest, syntax)
	case "HOLD":
		if len(rest) == 1 && strings.EqualFold(rest[0], "FIRE") {
			return ReactOrder{at: a}, nil
		}
		return parseReturnFire(a, kw, rest, syntax)
	case "RETURN":
		return parseReturnFire(a, kw, rest, syntax)
	case "REACT":
		return parseReact(a, rest, syntax)
	case "LIMBER", "UNLIMBER":
		return parseLimber(a, kw, rest, syntax)
	case "NO":
		if len(rest) == 1 && strings.EqualFold(rest[0], "SEIZE") {
			return Decline{a}, nil
		}
	}
	return nil, syntax(fmt.Sprintf("unknown order %q", words[0]), keywords...)
}

func parseStanding(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	if len(rest) > 0 && (strings.EqualFold(rest[0], "RETURN") || strings.EqualFold(rest[0], "REACTION")) {
		return parseStandingFire(a, rest, syntax)
	}
	if len(rest) > 1 && strings.EqualFold(rest[0], "ADVANCE") && strings.EqualFold(rest[1], "AFTER") {
		if len(rest) < 3 || !strings.EqualFold(rest[2], "COMBAT") {
			return nil, syntax("STANDING ADVANCE AFTER COMBAT takes ASK or AUTO", "STANDING ADVANCE AFTER COMBAT ASK", "STANDING ADVANCE AFTER COMBAT AUTO")
		}
		return parseStandingChoice(a, ChoiceAdvance, rest[3:], syntax)
	}
	if len(rest) > 1 && strings.EqualFold(rest[0], "RETREAT") && strings.EqualFold(rest[1], "BEFORE") || len(rest) > 0 && (strings.EqualFold(rest[0], "COUNTER-CHARGE") || strings.EqualFold(rest[0], "ADVANCE") || strings.EqualFold(rest[0], "ATTACKER") || strings.EqualFold(rest[0], "PURSUIT")) {
		return parseStandingResponse(a, rest, syntax)
	}
	if len(rest) > 0 && strings.EqualFold(rest[0], "RETREAT") {
		return parseStandingChoice(a, ChoiceRetreat, rest[1:], syntax)
	}
	if len(rest) > 1 && strings.EqualFold(rest[0], "NEAR") && strings.EqualFold(rest[1], "MISS") {
		return parseStandingNearMiss(a, rest[2:], syntax)
	}
	if len(rest) > 0 && strings.EqualFold(rest[0], "PLAY") {
		return parseStandingPlay(a, rest[1:], syntax)
	}
	forms := []string{"STANDING SEIZE NEVER", "STANDING SEIZE ASK", "STANDING SEIZE <command> [IF <command>, …]", "STANDING RETURN FIRE ALWAYS|NEVER|ASK", "STANDING REACTION FIRE ALWAYS|NEVER|ASK", "STANDING RETREAT ASK|AUTO", "STANDING COUNTER-CHARGE ALWAYS|NEVER|ASK", "STANDING RETREAT BEFORE SHOCK ALWAYS|NEVER|ASK", "STANDING ADVANCE ALWAYS|NEVER", "STANDING ADVANCE AFTER COMBAT ASK|AUTO", "STANDING ATTACKER RETREAT ALWAYS|NEVER", "STANDING PURSUIT ALWAYS|NEVER", "STANDING NEAR MISS ALWAYS|NEVER", "STANDING PLAY <counter> RALLY|DISORDER <unit>"}
	if len(rest) < 2 || !strings.EqualFold(rest[0], "SEIZE") {
		return nil, syntax("STANDING orders exist for SEIZE", forms...)
	}
	args := rest[1:]
	if len(args) == 1 {
		switch strings.ToUpper(args[0]) {
		case "NEVER":
			return StandingSeize{at: a, Never: true}, nil
		case "ASK":
			return StandingSeize{at: a, Ask: true}, nil
		}
	}
	with, cond := splitKeyword(args, "IF")
	if with == "" {
		return nil, syntax("STANDING SEIZE needs the Command that seizes", forms...)
	}
	o := StandingSeize{at: a, With: with}
	if cond != nil {
		for _, name := range strings.Split(strings.Join(cond, " "), ",") {
			if name = strings.TrimSpace(name); name != "" {
				o.If = append(o.If, name)
			}
		}
		if len(o.If) == 0 {
			return nil, syntax("IF needs the Commands that trigger the Seizure", forms...)
		}
	}
	return o, nil
}

// splitLastKeyword is splitKeyword at the keyword's last occurrence.
func splitLastKeyword(words []string, keyword string) (string, []string) {
	for i := len(words) - 1; i >= 0; i-- {
		if strings.EqualFold(words[i], keyword) {
			return strings.Join(words[:i], " "), append([]string{}, words[i+1:]...)
		}
	}
	return strings.Join(words, " "), nil
}

// splitKeyword splits words at the first occurrence of keyword: the words
// before it joined by spaces, and the words after it (nil if the keyword is
// absent, empty but not nil if nothing follows it).
func splitKeyword(words []string, keyword string) (string, []string) {
	for i, w := range words {
		if strings.EqualFold(w, keyword) {
			return strings.Join(words[:i], " "), append([]string{}, words[i+1:]...)
		}
	}
	return strings.Join(words, " "), nil
}
