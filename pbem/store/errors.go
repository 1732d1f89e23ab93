package store

import "errors"

// Errors returned by the store.
var (
	// ErrNotFound: no game, record or entry with that key.
	ErrNotFound = errors.New("store: not found")
	// ErrExists: a game with that id already exists.
	ErrExists = errors.New("store: already exists")
	// ErrStale: the game moved on since the caller read it (optimistic
	// concurrency: a second mail for the same move).
	ErrStale = errors.New("store: game changed since it was read")
)
