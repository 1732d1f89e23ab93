// Package games runs Herald's games as a mail service: it creates games,
// turns each received mail into orders applied under the verifiable dice,
// and writes every reply into the persistent outbox, all of one mail in one
// store transaction (design principle 1). It knows the rules only through
// package engine and mail only through package pbem; pbem/mailbox moves the
// bytes.
//
// # Basics
//
//	svc, err := games.New(games.Config{Store: st, Address: "herald@club.example"})
//	g, err := svc.CreateGame(games.NewGame{Scenario: "crecy", Players: …})
//	res, err := svc.HandleMail(raw) // from mailbox.Intake; file the mail by res.Disposition
//	err = svc.DrainOutbox(ctx, sender) // hand due replies to SMTP
//
// # Guarantees
//
// HandleMail commits the orders, the events, the state snapshot, the dice
// consumed, the replies and the mail's processed mark together, or
// nothing. A copy of a processed mail (keyed by its authenticated sender,
// dedupe.go) changes nothing, is not answered and gets the first one's
// disposition, so a crash between the commit and the IMAP flag costs
// nothing. Outgoing mail carries a Message-ID derived from what it is
// about, so a reply composed again after a crash has the identity of the
// first; the outbox sends at least once, a game's mails to one recipient
// in order.
//
// # Caveats
//
// The per-sender rate limit and the count of failed authentications live
// in memory: a restart forgets them. Rendering the map (Config.Map) runs
// inside the write transaction, so it paces the whole service; keep it fast
// (mapimg's budget is in docs/performance.md).
package games
