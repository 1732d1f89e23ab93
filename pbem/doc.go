// Package pbem turns a received e-mail into an authenticated, routed order
// block, or into a clear reason why not (docs/mail-orders.md). It is pure:
// no network, no store, no clock; the daemon (package pbem/games) passes in
// the game's players and the time.
//
// # Basics
//
//	m, err := pbem.ReadMail(raw, pbem.ReadOptions{Self: self})  // err: *MailError, ReadRefusal(err)
//	if m.Robot != "" { /* record, never answer */ }
//	blocks, problems := pbem.FindBlocks(m.Text)
//	id, via := pbem.Route(m, blocks, self)                       // "address", "block", "subject"
//	b, refusal := pbem.PickBlock(blocks, problems, pbem.Known{Move: game.Move, Sent: fingerprints})
//	                                                             // no-block, several-blocks, unterminated-block
//	stray := pbem.FindStray(m.Text)                              // for no-block: what Herald found instead
//	who, refusal := pbem.Authenticate(m, b, game.Players, game.Organizers)
//	if refusal != nil && !limiter.Answer(m.From, now) { /* no answer this hour */ }
//	if ok, notify := limiter.Allow(game.ID+"/"+who.Side, now); !ok { /* one notice if notify */ }
//	refusal = pbem.CheckMove(b, game.Move)                        // stale-move
//
// Every refusal is a *Refusal with a stable Code (the Code constants).
//
// ReadMail reads any MIME structure go-message parses (multipart/alternative
// and mixed, nested, quoted-printable, base64, any charset of
// go-message/charset, format=flowed) and prefers the text/plain part; an
// HTML-only mail is converted to text, with its blockquotes quoted.
// FindBlocks then reads only what the sender wrote: quoted lines (">"),
// everything below a signature separator ("-- ") and forwarded or
// Outlook-quoted earlier mails are ignored; but orders typed between a
// block's quoted markers are the sender's block (Block.Quoted), and below
// an unmarked quote with nothing above it, blocks are read
// (Block.BelowQuote). Since no list of quote headers is ever complete,
// PickBlock then tells the sender's block from quoted ones by what they
// say: the move, Herald's own blocks (Block.Fingerprint), emptiness.
//
// # Caveats
//
// Line numbers in Block.Lines and Problem are lines of Mail.Text, the text
// after MIME decoding, so that a refusal quotes what the player sees.
//
// The Limiter lives in memory: a restart forgets its counts.
package pbem
