package command

import "crypto/rand"

// secureDice rolls from the operating system's secure random source, for
// hot-seat play without a script. Games by mail use the verifiable dice log
// of pbem/dice instead.
type secureDice struct{}

// Roll draws bytes until one falls below 250, the largest multiple of 10
// that fits a byte, so that every face is equally likely (no modulo bias).
func (secureDice) Roll(string) (int, error) {
	var b [1]byte
	for {
		if _, err := rand.Read(b[:]); err != nil {
			return 0, err
		}
		if b[0] < 250 {
			return int(b[0] % 10), nil
		}
	}
}
