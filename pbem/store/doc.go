// Package store keeps Herald's games in one bbolt file: game records, each
// game's event log, state snapshots and dice log, the marks of processed
// mails and the persistent outbox.
//
// # Basics
//
// Everything a mail causes is written in ONE transaction (Store.Update): the
// events, the new state, the dice log entries, the replies to send and the
// mark that records the mail as processed. If the process dies before the
// commit, nothing of the mail is stored and it will be processed again; after
// the commit, a redelivered mail is recognised by its mark and never applied
// twice. Only after the commit does the daemon flag the mail in IMAP
// and hand replies to SMTP, so a crash between the two only causes a retry.
//
// Logs (events, dice log, outbox) are keyed by sequence numbers written as
// 8-byte big-endian integers, so a cursor walks them in order. The games
// share their buckets (schema 2, gamekeys.go): a game's
// entries are keyed by its id, a NUL and their own key; Open migrates a
// store of schema 1, each game a bucket of its own (migrate.go).
//
// # Layout
//
//	meta                    key → value (installation key, schema version: meta/schema)
//	game-records/<game id>  JSON Game
//	game-values/<game id>\0<key>  a game's values, side by side:
//	    state               StateRecord: the state after the last event (a snapshot)
//	    dice                JSON DiceRecord: the dice log's header line and chain reached
//	    secret:<name>       secrets never exported (the next dice seed)
//	    mail:<name>         the latest mails sent, for STATUS
//	game-events/<game id>\0<seq>  one engine event, JSON (engine.MarshalEvent)
//	game-log/<game id>\0<seq>     one dice-log entry, JSON (pbem/dice)
//	processed/<key>         JSON Processed, by sender and mail (pbem/games)
//	outbox/<seq>            JSON OutboxEntry
//	outbox-due/<time><seq>  the head of each outbox stream, by due time
//	outbox-streams/<stream>\0<seq>  the outbox by stream (a game's mails to one recipient)
//	undeliverable/<seq>     JSON OutboxEntry given up
//	ladders/<ladder id>/
//	    record              JSON pbem/ladder.Ladder: members, challenges, games, clocks
//	    log/<seq>           one line of the ladder's journal, JSON
//	ladder-games/<game id>  the id of the ladder the game belongs to
//	meta/downtime           JSON pbem/ladder.Downtime: Herald's beats and outages
//
// # Caveats
//
// bbolt allows one writer at a time and one process per file: Open fails
// after a second if another process holds the file. Never call Update inside
// View. Values returned by getters are copies and stay valid after the
// transaction.
package store
