package ladder

import "errors"

// Errors of the operations, wrapped with the details (errors.Is).
var (
	ErrInvalid          = errors.New("invalid")
	ErrNotOrganizer     = errors.New("not an organizer of the ladder")
	ErrUnknownMember    = errors.New("not a member of the ladder")
	ErrAlreadyMember    = errors.New("already a member of the ladder")
	ErrScenario         = errors.New("scenario not allowed in the ladder")
	ErrUnknownChallenge = errors.New("no such open challenge")
	ErrNotYours         = errors.New("not addressed to you")
	ErrUnknownGame      = errors.New("no such game in the ladder")
	ErrGameOver         = errors.New("game already finished")
	ErrInPlay           = errors.New("has a game in play")
	ErrStarted          = errors.New("round-robin already started")
	ErrRoundInPlay      = errors.New("the current round still has games in play")
	ErrComplete         = errors.New("every round has been played")
	ErrNoClock          = errors.New("the game has no clock")
	ErrNotDue           = errors.New("not due")
	ErrState            = errors.New("not possible in the game's state")
)
