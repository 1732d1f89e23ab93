// Package system is the seam between Herald's mail service and a game
// system (DESIGN.md principle 8): what the mail loop, the store, the dice
// log and verify need of a set of rules, and nothing else. Men of Iron
// (the hex engine, pbem/system/menofiron) and the D20 strike miniatures
// rules (pbem/system/strike) each implement it in their own packages,
// with their own rules, geometry and pictures.
//
// Everything a system returns is deterministic: the same battle, state,
// block and dice give the same result, byte for byte, so that herald
// verify can replay a game's log through the same interface.
package system

import (
	"errors"
	"fmt"
	"sort"
)

// System is one set of rules and the battles Herald ships for it.
type System interface {
	// ID names the system in docs and logs: "men-of-iron", "strike".
	ID() string
	// Title names it for the players, after "play by e-mail for": "the
	// Men of Iron series".
	Title() string
	// Battles lists the ids of its battles, sorted.
	Battles() []string
	// Battle loads one of them.
	Battle(id string) (Battle, error)
}

// Battle is a loaded battle of a system: its two sides, its opening
// position, and its rules applied to a state.
type Battle interface {
	ID() string
	// Title is the battle's name for mails ("Crécy, 1346").
	Title() string
	// Sides are the two sides' names as players write them.
	Sides() [2]string
	// Start is the opening position.
	Start() (State, error)
	// Decode reads a state Encode wrote.
	Decode(b []byte) (State, error)
	// Play parses a side's block of order lines and applies it to st under
	// the dice. It never changes st. A block that cannot be applied is an
	// *Illegal error (nothing happened, no die was rolled); any other
	// error is a failure of the dice or of Herald.
	Play(st State, side int, lines []Line, d Dice) (*Result, error)
	// Narrate tells a side what events did, in lines of a mail; rolls are
	// the dice of the batch, by their index in it. A system hides from a
	// side what it may not know yet.
	Narrate(events [][]byte, rolls []Roll, side int) ([]string, error)
	// Picture draws the battlefield after events brought before to after
	// (before is nil for the opening) as a PNG.
	Picture(before, after State, events [][]byte) ([]byte, error)
	// Help is the short list of orders a side may give, for the welcome
	// mail.
	Help(side int) []string
}

// State is one position of a game.
type State interface {
	// Encode is the state's canonical form: the dice log records its
	// SHA-256 after each block.
	Encode() []byte
	// Move counts the blocks applied.
	Move() int
	// Turn is whom the game waits for.
	Turn() Turn
	// Outcome is how the battle ended, or nil while it goes on.
	Outcome() *Outcome
	// Standing is a side's standing in a few words for every mail: "18
	// of 24 stands; the army breaks at 12".
	Standing(side int) string
}

// Outcome is the end of a battle.
type Outcome struct {
	Draw   bool
	Winner int    // the winning side, unless Draw
	Reason string // "the French failed their Loss Check (16.0)"
}

// Turn says whom a game waits for and what he may do.
type Turn struct {
	Side    int      // the side whose block the game waits for
	Label   string   // "Turn 2, the English move": the next mail's subject
	Waiting string   // a sentence for both players' mails
	Legal   []string // the orders that side may give now, each a line
}

// Line is one line of an order block with its number in the mail.
type Line struct {
	No   int
	Text string
}

// Result is what a block did.
type Result struct {
	State State
	// Events are the block's events, each as canonical JSON: the store
	// keeps them and the dice log records their SHA-256.
	Events [][]byte
	// NotApplied are lines of the block that were not carried out (a
	// block may stop part-way once a die has been rolled), with why.
	NotApplied []NotApplied
}

// NotApplied is one line of a block that was not carried out.
type NotApplied struct {
	Line   int
	Reason string
	Rule   string // the section of the rules, when one decides it
}

// Dice is the dice of one block, from the verifiable log (pbem/dice).
type Dice interface {
	// Roll rolls one d10, 0–9.
	Roll(purpose string) (int, error)
	// RollN rolls a uniform number from 0 to faces-1 (a D20 is
	// RollN(purpose, 20)+1; a card of a 54-card deck RollN(purpose, 54)).
	RollN(purpose string, faces int) (int, error)
}

// Roll is one die of a batch, as the log recorded it.
type Roll struct {
	Index   int
	Purpose string
	Faces   int // 10 for a d10
	Value   int
}

// Illegal is a block refused as a whole: the line, the rule, the reason,
// and what would have been legal instead.
type Illegal struct {
	Line   int // 0 when no one line is at fault
	Rule   string
	Reason string
	Legal  []string
}

func (e *Illegal) Error() string {
	s := e.Reason
	if e.Rule != "" {
		s += " (" + e.Rule + ")"
	}
	if e.Line > 0 {
		s = fmt.Sprintf("line %d: %s", e.Line, s)
	}
	return s
}

// Registry finds a battle's system by the battle's id; battle ids are
// unique across the systems it holds.
type Registry struct {
	systems []System
	byID    map[string]System
}

// NewRegistry checks that no two systems name the same battle.
func NewRegistry(systems ...System) (*Registry, error) {
	r := &Registry{systems: systems, byID: map[string]System{}}
	for _, s := range systems {
		for _, b := range s.Battles() {
			if other, dup := r.byID[b]; dup {
				return nil, fmt.Errorf("system: battle %q is both %s's and %s's", b, other.ID(), s.ID())
			}
			r.byID[b] = s
		}
	}
	return r, nil
}

// ErrNoBattle is the error of a battle no system has.
var ErrNoBattle = errors.New("no such battle")

// Battle loads a battle of whichever system has it.
func (r *Registry) Battle(id string) (Battle, error) {
	s, ok := r.byID[id]
	if !ok {
		return nil, fmt.Errorf("%w: %q (there are %v)", ErrNoBattle, id, r.Battles())
	}
	return s.Battle(id)
}

// System is the system a battle belongs to.
func (r *Registry) System(battle string) (System, bool) {
	s, ok := r.byID[battle]
	return s, ok
}

// Battles lists every battle of every system, sorted.
func (r *Registry) Battles() []string {
	var out []string
	for id := range r.byID {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}
