// Package mailbox is Herald's mail transport: IMAP in, SMTP out, and an
// embedded mail server for the zero-configuration mode and for tests. It
// moves bytes reliably and knows nothing of games: the daemon composes the
// replies and interprets the orders.
//
// # Basics
//
// [Intake] reads a mailbox over IMAP (RFC 9051, and IMAP4rev1 servers with
// the IDLE, MOVE and UIDPLUS extensions such as dovecot). [Intake.Run] hands
// every unseen message, oldest UID first, to a [Handler] and files it by the
// [Disposition] returned: Processed and Rejected mail is flagged \Seen and
// moved to its mailbox, Ignored mail is left untouched. Between passes it
// waits with IDLE when the server offers it, else it polls. When the server
// goes away it reconnects with capped, jittered exponential backoff.
//
//	in, err := mailbox.NewIntake(mailbox.IntakeConfig{
//		Addr: "imap.example.org:993", Username: "herald", Password: pw,
//	})
//	err = in.Run(ctx, func(ctx context.Context, m mailbox.Message) (mailbox.Disposition, error) {
//		// parse m.Raw, commit state + replies + Message-ID in one transaction
//		return mailbox.Processed, nil
//	})
//
// [Compose] renders an [Outgoing] mail (text, HTML, inline images,
// attachments, threading headers, a Message-ID of the caller's choosing) to
// exact, reproducible bytes; [Sender.Send] submits it over SMTP, and
// [Sender.SendRaw] resends stored bytes unchanged; a Sender keeps its
// connections open between messages, so a backlog costs a connection, not
// one a message.
// [IsTemporary] and [SendError] tell a retrying outbox whether to try
// again later (4xx, network) or give up (5xx), and [ServerUnavailable]
// whether the server, not the message, failed.
//
// [Embedded] is an in-memory IMAP and SMTP server on 127.0.0.1. SMTP
// delivery to user+tag@any-domain lands in user's INBOX with Return-Path,
// Delivered-To and Received headers added in front of the original bytes.
//
// # Guarantees
//
// The \Seen flag and the move happen only after the handler has returned
// Processed or Rejected, that is after the daemon has committed. A crash
// before that leaves the message unseen in the inbox, and it is offered
// again. Hence a message can reach the handler twice, and the handler must
// deduplicate, by Message-ID, and answer a duplicate with its first
// disposition. A handler error leaves the message unseen; it is retried
// after RetryBackoff while later messages go on (a failing message does not
// hold the others back; orders carry move numbers for that). Without MOVE,
// Intake uses COPY, \Deleted and UID EXPUNGE (UIDPLUS) and never a plain
// EXPUNGE, which would also remove other clients' deleted mail.
//
// [Hooks] let tests simulate a crash after the fetch, after the handler's
// commit and after the \Seen flag.
//
// # Caveats
//
//   - UIDs are not identity. A UID means something only together with the
//     mailbox's UIDVALIDITY, and only for this server's copy of the mailbox:
//     restoring a backup, rebuilding an index or moving to another server
//     renumbers everything. Intake reports UIDVALIDITY in each [Message] and
//     logs when it changes, but never relies on UIDs across sessions for
//     correctness; its per-UID memory (retry times, ignored mail) is a
//     scheduling aid that is dropped when UIDVALIDITY changes. Identity is
//     the Message-ID, stored by the daemon.
//   - IDLE needs a SELECTed mailbox: without one, servers (the embedded one
//     included) report nothing. Intake always selects first. New-mail
//     notifications arrive on the client's reader goroutine through
//     imapclient's UnilateralDataHandler, which must never block, so Intake
//     signals through a one-slot channel with a non-blocking send. Intake
//     ends each IDLE after IdleRestart (at most 25 minutes, below the
//     30-minute server timeout of RFC 9051) and makes a pass.
//   - Ignored mail stays unseen. Intake remembers it by UID for as long as
//     the process runs and UIDVALIDITY holds; after a restart it is offered
//     again.
//   - If the move fails after the \Seen flag was set, the message stays
//     \Seen in the inbox and is not offered again.
//   - Without MOVE and UIDPLUS, filed mail is copied and flagged \Deleted in
//     the inbox but not expunged.
//   - A message may be delivered twice by SMTP if the connection breaks after
//     the server accepted the data but before its reply arrived; receivers
//     see the same Message-ID. A permanent [SendError] at [StageConnect]
//     (535 authentication failed, an untrusted certificate) is a
//     configuration problem, not the message's fault.
//   - Plaintext (SecurityPlain) is accepted only for loopback addresses
//     unless AllowPlaintext is set. The embedded server listens on loopback
//     only and authenticates without TLS.
//   - Send and Message.Raw use CRLF line ends. Text parsed from Raw with
//     go-message keeps CRLF; normalise before parsing order blocks.
//   - Go-mail joins several values of one header with ", ", which breaks
//     References; Compose writes References as one space-separated value
//     that go-message's MsgIDList reads back as separate IDs.
//   - The embedded server keeps mail in memory only: Close and Start keep
//     it, a process restart loses it.
package mailbox
