package engine

import "fmt"

// Dice is the only source of randomness the engine sees (2.3: one ten-sided
// die, "A '0' is a 'zero', not a 'ten'"). Each call rolls one d10 and returns
// a value from 0 to 9.
//
// purpose says why the die is rolled, in words a player reads in the result
// mail ("Continuity DR: Grimaldi (AR 2)"). Implementations record it: the
// verifiable dice log (pbem/dice) mixes it into the roll's derivation, and a
// scripted source reports it when the script runs out.
//
// An error from Roll is not an illegal order: it means the source failed
// (a script ran out, a log could not be written), and the engine aborts the
// whole block with it.
type Dice interface {
	Roll(purpose string) (int, error)
}

// Script is a Dice that returns fixed values in order: for tests and for
// replaying a game whose rolls are known (herald play --dice). It records
// every roll it gave.
type Script struct {
	Values []int
	Rolls  []ScriptedRoll
}

// ScriptedRoll is one roll a Script gave.
type ScriptedRoll struct {
	Purpose string
	Value   int
}

// NewScript returns a Script that rolls values in order.
func NewScript(values ...int) *Script { return &Script{Values: values} }

// Roll returns the next scripted value, or an error naming the roll that
// found the script empty.
func (s *Script) Roll(purpose string) (int, error) {
	n := len(s.Rolls)
	if n >= len(s.Values) {
		return 0, fmt.Errorf("dice script exhausted: roll %d (%s) has no value; %d given", n+1, purpose, len(s.Values))
	}
	v := s.Values[n]
	if v < 0 || v > 9 {
		return 0, fmt.Errorf("dice script: roll %d is %d, not a d10 face 0–9", n+1, v)
	}
	s.Rolls = append(s.Rolls, ScriptedRoll{Purpose: purpose, Value: v})
	return v, nil
}

// Remaining is the number of scripted values not yet rolled.
func (s *Script) Remaining() int { return len(s.Values) - len(s.Rolls) }
