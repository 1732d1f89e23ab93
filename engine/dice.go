package engine

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
