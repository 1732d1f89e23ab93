package battle

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Line is one line of a side's block of orders with its number in the
// mail.
type Line struct {
	No   int
	Text string
}

// Order kinds.
const (
	OrdMove   = "MOVE"
	OrdWheel  = "WHEEL"
	OrdTurn   = "TURN"
	OrdShoot  = "SHOOT"
	OrdCharge = "CHARGE"
	OrdEnd    = "END"
)

// Order is one parsed line (docs/strike.md, "Orders by mail").
type Order struct {
	Line    Line
	Kind    string
	Unit    int     // index in the battle
	Inches  float64 // MOVE
	Back    bool    // MOVE ... BACK
	Dir     string  // WHEEL and TURN: LEFT, RIGHT, ABOUT
	Degrees float64 // WHEEL
	Fire    []FireAt
	Target  int // CHARGE
}

// FireAt is one target of a SHOOT order: Stands 0 means every eligible
// stand.
type FireAt struct {
	Target int
	Stands int
}

// Refusal is an order block refused as a whole: the line, the heading of
// the fragment (or "ORDERS BY MAIL" for the syntax), the reason, and what
// would be legal instead.
type Refusal struct {
	Line   int
	Rule   string
	Reason string
	Legal  []string
}

func (r *Refusal) Error() string {
	s := r.Reason
	if r.Rule != "" {
		s += " (" + r.Rule + ")"
	}
	if r.Line > 0 {
		s = fmt.Sprintf("line %d: %s", r.Line, s)
	}
	return s
}

// Syntax is the Rule of a refusal for a line Herald cannot read.
const Syntax = "ORDERS BY MAIL"

// Help is the order syntax, a line each, for the welcome mail.
func Help() []string {
	return []string{
		`MOVE <unit> <inches>            forward, up to its MOVE (e.g. MOVE Kn1 6)`,
		`MOVE <unit> BACK <inches>       backward; each inch costs 2 of its MOVE`,
		`WHEEL <unit> LEFT|RIGHT <deg>   pivot on the front corner; costs the outer corner's arc`,
		`TURN <unit> LEFT|RIGHT|ABOUT    face a flank or the rear; costs half its MOVE`,
		`SHOOT <unit> AT <target>        every eligible stand at one target`,
		`SHOOT <unit> 2 AT <t1>, 1 AT <t2>  split fire: stands per target`,
		`CHARGE <unit> AT <target>       3 moves to contact; the target reacts`,
		`END                             the end of the block (optional)`,
	}
}

func fields(s string) []string {
	s = strings.NewReplacer(",", " , ", `"`, " ", "°", " ").Replace(s)
	return strings.Fields(s)
}

func number(s string) (float64, bool) {
	s = strings.TrimSuffix(strings.ToLower(s), "in")
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// Parse reads one line for side. Unit ids are case-insensitive.
func Parse(b *Battle, side int, l Line) (Order, *Refusal) {
	w := fields(l.Text)
	bad := func(format string, args ...any) (Order, *Refusal) {
		return Order{}, &Refusal{Line: l.No, Rule: Syntax, Reason: fmt.Sprintf(format, args...), Legal: Help()}
	}
	if len(w) == 0 {
		return bad("an empty order")
	}
	o := Order{Line: l, Kind: strings.ToUpper(w[0])}
	unit := func(i int, own bool) (int, *Refusal) {
		if i >= len(w) {
			_, r := bad("%s needs a unit", o.Kind)
			return -1, r
		}
		u := b.Index(w[i])
		if u < 0 {
			ids := b.ids(side, own)
			_, r := bad("no unit %q: %s", w[i], strings.Join(ids, ", "))
			r.Legal = ids
			return -1, r
		}
		if own && b.Units[u].Side != side {
			_, r := bad("%s is a unit of the %s, not yours", b.Units[u].ID, b.Sides[b.Units[u].Side])
			r.Legal = b.ids(side, true)
			return -1, r
		}
		if !own && b.Units[u].Side == side {
			_, r := bad("%s is one of your own units", b.Units[u].ID)
			r.Legal = b.ids(side, false)
			return -1, r
		}
		return u, nil
	}
	var r *Refusal
	switch o.Kind {
	case OrdEnd:
		if len(w) != 1 {
			return bad("END takes nothing after it")
		}
		return o, nil
	case OrdMove:
		if o.Unit, r = unit(1, true); r != nil {
			return o, r
		}
		rest := w[2:]
		if len(rest) > 0 && strings.EqualFold(rest[0], "BACK") {
			o.Back, rest = true, rest[1:]
		}
		if len(rest) != 1 {
			return bad("write MOVE %s <inches> or MOVE %s BACK <inches>", b.Units[o.Unit].ID, b.Units[o.Unit].ID)
		}
		v, ok := number(rest[0])
		if !ok || v <= 0 || v > 1000 {
			return bad("%q is not a distance: inches over 0, such as 4 or 2.5", rest[0])
		}
		o.Inches = v
	case OrdWheel:
		if o.Unit, r = unit(1, true); r != nil {
			return o, r
		}
		if len(w) != 4 || !(strings.EqualFold(w[2], "LEFT") || strings.EqualFold(w[2], "RIGHT")) {
			return bad("write WHEEL %s LEFT <degrees> or WHEEL %s RIGHT <degrees>", b.Units[o.Unit].ID, b.Units[o.Unit].ID)
		}
		o.Dir = strings.ToUpper(w[2])
		v, ok := number(strings.TrimSuffix(strings.ToLower(w[3]), "deg"))
		if !ok || v <= 0 || v > 180 {
			return bad("%q is not an angle: degrees over 0 and at most 180", w[3])
		}
		o.Degrees = v
	case OrdTurn:
		if o.Unit, r = unit(1, true); r != nil {
			return o, r
		}
		if len(w) != 3 {
			return bad("write TURN %s LEFT, RIGHT or ABOUT", b.Units[o.Unit].ID)
		}
		o.Dir = strings.ToUpper(w[2])
		if o.Dir != "LEFT" && o.Dir != "RIGHT" && o.Dir != "ABOUT" {
			return bad("TURN %s %s: turn LEFT, RIGHT or ABOUT", b.Units[o.Unit].ID, w[2])
		}
	case OrdCharge:
		if o.Unit, r = unit(1, true); r != nil {
			return o, r
		}
		if len(w) != 4 || !strings.EqualFold(w[2], "AT") {
			return bad("write CHARGE %s AT <target>", b.Units[o.Unit].ID)
		}
		if o.Target, r = unit(3, false); r != nil {
			return o, r
		}
	case OrdShoot:
		if o.Unit, r = unit(1, true); r != nil {
			return o, r
		}
		rest := w[2:]
		for len(rest) > 0 {
			f := FireAt{}
			if n, err := strconv.Atoi(rest[0]); err == nil {
				if n < 1 {
					return bad("%d stands: give 1 or more stands for a target", n)
				}
				f.Stands, rest = n, rest[1:]
			}
			if len(rest) < 2 || !strings.EqualFold(rest[0], "AT") {
				return bad("write SHOOT %s AT <target>, or split fire: SHOOT %s 2 AT <target>, 1 AT <other>", b.Units[o.Unit].ID, b.Units[o.Unit].ID)
			}
			i := len(w) - len(rest) + 1
			if f.Target, r = unit(i, false); r != nil {
				return o, r
			}
			for _, g := range o.Fire {
				if g.Target == f.Target {
					return bad("%s is named twice as a target", b.Units[f.Target].ID)
				}
			}
			o.Fire = append(o.Fire, f)
			rest = rest[2:]
			if len(rest) > 0 {
				if rest[0] != "," {
					return bad("%q: separate the targets of split fire with commas", rest[0])
				}
				rest = rest[1:]
				if len(rest) == 0 {
					return bad("a comma with no target after it")
				}
			}
		}
		if len(o.Fire) == 0 {
			return bad("SHOOT %s needs a target: SHOOT %s AT <target>", b.Units[o.Unit].ID, b.Units[o.Unit].ID)
		}
		if len(o.Fire) > 1 {
			for _, f := range o.Fire {
				if f.Stands == 0 {
					return bad("split fire gives stands for every target: SHOOT %s 2 AT %s, 1 AT ...", b.Units[o.Unit].ID, b.Units[o.Fire[0].Target].ID)
				}
			}
		}
	default:
		return bad("%q is not an order: MOVE, WHEEL, TURN, SHOOT, CHARGE or END", w[0])
	}
	return o, nil
}

// ids lists the ids of a side's units (own) or of its enemy's.
func (b *Battle) ids(side int, own bool) []string {
	var out []string
	for _, u := range b.Units {
		if (u.Side == side) == own {
			out = append(out, u.ID)
		}
	}
	return out
}

// phase orders a block: charges, then movement, then shooting (R542).
func phase(kind string) int {
	switch kind {
	case OrdCharge:
		return 0
	case OrdMove, OrdWheel, OrdTurn:
		return 1
	case OrdShoot:
		return 2
	}
	return 3
}
