// Package templates renders every mail Herald sends, as a subject, a
// plain-text part and an HTML part, from text/template and html/template
// files embedded in the binary. It knows nothing of the engine, the store
// or the dice log: the daemon fills plain view-model structs and calls
// Render.
//
// # Basics
//
//	m, err := templates.Render(templates.Result{Game: g, Account: a, Side: "English", …})
//	// m.Subject: "[crecy-4f2a] Move 4 — English to activate"
//	// m.Text, m.HTML: the two parts of a multipart/alternative mail;
//	// the map PNG goes inline under Content-ID a.MapCID.
//
// Each kind of mail is one pair of files named after the situation,
// <kind>.txt.tmpl and <kind>.html.tmpl, which define "subject" (text only),
// "title" (HTML only) and "body". layout.*.tmpl wraps the body (the
// heading of the HTML part, the footer, the signature of the text part);
// partials.*.tmpl hold the pieces several kinds share: the account of what
// happened, a die roll, the armies, the legal orders, the order block and
// the dice verification section.
//
// # Kinds, and who receives what
//
//	Welcome   each player, when a game starts: his side, his secret KEY,
//	          the installation's public key and the commitment to the
//	          first dice seed, a few lines on the order language, and a
//	          block (first orders for the side that acts first, standing
//	          orders for the other).
//	Result    both players, after a block of orders was carried out and
//	          the game waits for someone: every event as the rule books
//	          narrate it (die, modifiers with reasons and rules, total,
//	          what it was compared against, result), the map, the armies'
//	          Flight Points, the dice verification data. The player who
//	          acts next (ToAct) also gets his pre-filled block and the
//	          orders he may give; the other gets neither.
//	Decision  instead of a Result, the player whose decision interrupts
//	          his opponent's turn (whether to Seize Continuity; later
//	          reaction fire, counter-charges, retreats) when his standing
//	          orders do not settle it: the question first, his block, a
//	          hint on the standing orders that would settle it next time,
//	          then the same account as the Result.
//	Refusal   the sender of a block that changed nothing (it does not
//	          parse, is illegal before any die was rolled, answers a stale
//	          move, comes from the player who does not have the move, lacks
//	          the key…): the line, the reason and rule, what would be legal,
//	          and his block again, prefilled with his lines.
//	Reminder  the player the game has waited for too long: what it waits
//	          for, since when, and his block again.
//	GameOver  both players, instead of a Result, when a block ends the
//	          battle: the last events, the outcome, and how to verify
//	          every roll of the game (the attached dice log).
//
// Orders that a block did not carry out (a die roll is a point of no
// return; docs/orders.md) are listed in the sender's copy only: they are
// his plans, and Render refuses them in his opponent's copy.
//
// # Text and HTML
//
// The text part reads at 72 columns (Width): prose is wrapped by the
// template functions wrap and hang, headings are underlined with ASCII
// rules. Order blocks are printed exactly as OrderBlock.Text renders them,
// and hashes and signatures are never wrapped, so lines in the dice
// section may be longer. Spans quoted in backticks are not broken.
//
// The HTML part is one document with inline CSS only (mail clients strip
// <style> in places), no script and no external resource; it is at most
// 620px wide and readable on a phone (docs/img/result-phone.png). The map is
// <img src="cid:…">, the order block a <pre> that copies as it is. Every
// string of a view is escaped by html/template (player names, addresses,
// refused lines); spans in backticks become <code>. The text part is not
// escaped.
//
// # Tests
//
// testdata/<case>.txt.golden (subject, blank line, text part) and
// testdata/<case>.html.golden hold every kind rendered for a Crécy sample
// (sample_test.go); go test ./templates/ -update rewrites them. Other
// tests check the 72 columns, hostile strings in every field, the order
// block, and that Render refuses inconsistent views.
//
// The screenshots docs/img/{welcome,result}-{phone,desktop}.png are real
// mails of a game played by herald demo, shown by headless Chromium 390
// CSS pixels wide (two device pixels to one) and 1000 wide:
//
//	tools/mail-screenshots.sh docs/img
package templates
