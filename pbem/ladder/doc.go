// Package ladder keeps a club's ladders and round-robins as data: members,
// the scenarios allowed, a time control and a rating system; challenges
// between members; the pairing of rounds; the games started, their clocks
// and their results; Elo ratings and standings.
//
// It does no I/O and reads no clock: every operation is given the time and,
// for clocks, Herald's recorded downtime. Every operation validates first
// and returns a specific error (errors.Is against the Err values) without
// changing anything; only a valid operation changes the Ladder. The caller
// (the CLI, later the mail commands) loads a Ladder from pbem/store, applies
// one operation and stores it again in one transaction.
//
// The model, the clock rule and the Elo parameters: docs/ladders.md.
package ladder
