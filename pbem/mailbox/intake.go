package mailbox

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Disposition is what the handler decided about a message, and so where
// Intake puts it.
type Disposition int

const (
	// Processed: the handler has committed the message's effects. Intake
	// flags it \Seen and moves it to the processed mailbox.
	Processed Disposition = iota + 1
	// Rejected: the handler has committed its answer (and nothing else).
	// Intake flags it \Seen and moves it to the rejected mailbox.
	Rejected
	// Ignored: not Herald's mail. Intake leaves it where it is, unseen,
	// and does not offer it again while the server keeps its UID.
	Ignored
)

func (d Disposition) String() string {
	switch d {
	case Processed:
		return "processed"
	case Rejected:
		return "rejected"
	case Ignored:
		return "ignored"
	}
	return fmt.Sprintf("Disposition(%d)", int(d))
}

// Message is one mail fetched by Intake. UID and UIDValidity say where it
// was found in this session; they are not its identity (see the package
// documentation): deduplicate by Message-ID.
type Message struct {
	Mailbox     string
	UID         uint32
	UIDValidity uint32
	// MessageID, Subject and From come from the server's ENVELOPE, for
	// logs. MessageID is without <> and may be empty. Parse Raw for
	// anything that matters.
	MessageID    string
	Subject      string
	From         []string
	InternalDate time.Time
	// Raw is the message exactly as the server stores it (BODY.PEEK[]),
	// including headers added on delivery; for a message larger than
	// IntakeConfig.MaxMessageBytes only its header (HeaderOnly).
	Raw []byte
	// Size is the message's size on the server (RFC822.SIZE), known
	// before anything else is fetched.
	Size int64
	// HeaderOnly is true when Raw holds only the header, at most
	// MaxHeaderBytes of it, because the message is larger than
	// MaxMessageBytes: enough to answer it, never its body.
	HeaderOnly bool
	// Attempt counts the handler calls for this message in this process,
	// starting at 1; it grows when the handler fails and is retried.
	Attempt int
}

// Handler decides about one message. It must commit everything the message
// causes (state, replies, and the Message-ID marker that makes a second
// delivery of the same mail a no-op) before it returns a disposition. It
// must return the same disposition again for a message it has already
// committed: after a crash between its commit and Intake's \Seen flag, the
// message is offered again.
//
// An error means "not committed, try again later": the message stays
// unseen and is offered again after RetryBackoff. Messages are offered one
// at a time, in UID order, on the goroutine that called Run.
type Handler func(ctx context.Context, m Message) (Disposition, error)

// A BatchHandler decides about the messages of a batch (IntakeConfig.Batch)
// at once, in UID order, with a Handler's contract for each, and returns
// one Verdict per message: it may commit them together, one commit for
// the batch rather than one per message.
type BatchHandler func(ctx context.Context, ms []Message) []Verdict

// Verdict is a BatchHandler's answer about one message: a Handler's
// disposition and error.
type Verdict struct {
	Disposition Disposition
	Err         error
}

// oneByOne makes a Handler a BatchHandler.
func oneByOne(h Handler) BatchHandler {
	return func(ctx context.Context, ms []Message) []Verdict {
		vs := make([]Verdict, len(ms))
		for i, m := range ms {
			vs[i].Disposition, vs[i].Err = h(ctx, m)
		}
		return vs
	}
}

// IdleMode chooses between IMAP IDLE and polling.
type IdleMode string

const (
	// IdleAuto uses IDLE when the server advertises it (IMAP4rev2 or the
	// IDLE extension) and polls otherwise.
	IdleAuto IdleMode = "auto"
	// IdleNever always polls every PollInterval.
	IdleNever IdleMode = "never"
)

// WaitMode tells Hooks.Waiting how Intake waits for new mail.
type WaitMode string

// The ways Intake waits between passes over the mailbox.
const (
	WaitIdle WaitMode = "idle"
	WaitPoll WaitMode = "poll"
)

// Hooks are test points. All are nil in production. A non-nil error from
// AfterFetch, AfterCommit or AfterSeen simulates a crash at that step: Run
// drops the connection without touching the message further and returns an
// error wrapping the hook's error.
type Hooks struct {
	// AfterFetch runs after a message is fetched, before the handler.
	AfterFetch func(m Message) error
	// AfterCommit runs after the handler returned Processed or Rejected,
	// before the \Seen flag is set.
	AfterCommit func(m Message, d Disposition) error
	// AfterSeen runs after the \Seen flag is set, before the move.
	AfterSeen func(m Message, d Disposition) error
	// Waiting runs when a pass over the mailbox is finished and Intake
	// starts waiting (after the server acknowledged IDLE, in IDLE mode).
	Waiting func(mode WaitMode)
}

// IntakeConfig configures an Intake.
type IntakeConfig struct {
	// Addr is the IMAP server, host:port.
	Addr string
	// Security defaults to SecurityTLS, or SecurityPlain for a loopback
	// Addr. SecurityPlain to another host needs AllowPlaintext.
	Security       Security
	AllowPlaintext bool
	// TLSConfig is used for SecurityTLS and SecurityStartTLS; ServerName
	// defaults to Addr's host.
	TLSConfig *tls.Config

	Username string
	Password string

	// Mailbox is read for new mail (default "INBOX"). Mail the handler
	// processed or rejected is moved to ProcessedMailbox (default
	// "Processed") or RejectedMailbox (default "Rejected"); both are
	// created when missing.
	Mailbox          string
	ProcessedMailbox string
	RejectedMailbox  string

	// PollInterval is the wait between passes without IDLE (default 1
	// minute).
	PollInterval time.Duration
	// UseIdle defaults to IdleAuto.
	UseIdle IdleMode
	// IdleRestart ends an IDLE and makes a pass at least this often
	// (default and maximum 25 minutes; RFC 9051 lets servers drop an IDLE
	// after 30).
	IdleRestart time.Duration
	// DialTimeout bounds connecting, TLS and the greeting (default 30 s).
	DialTimeout time.Duration

	// ReconnectBackoff paces reconnection after the server went away or
	// refused us (default ExponentialBackoff(time.Second, 5*time.Minute)).
	// The attempt count restarts after each successful SELECT.
	ReconnectBackoff Backoff
	// RetryBackoff paces retries of a message whose handler failed
	// (default ExponentialBackoff(5*time.Second, 15*time.Minute)).
	RetryBackoff Backoff

	// MaxMessageBytes, when positive, is the largest message fetched
	// whole. Intake asks the server for each message's size first and
	// fetches only the header of a larger one (Message.HeaderOnly), so a
	// 30 MiB mail costs Herald no more memory than a small one.
	MaxMessageBytes int64

	// Batch is how many unseen messages are fetched, handled and filed
	// together (default 32): their sizes and envelopes in one FETCH,
	// their bodies in another, their \Seen flags in one STORE and one
	// MOVE per mailbox, so that a burst of mail costs a few round trips
	// per batch rather than four per message. 1 handles one at a time.
	Batch int

	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// Hooks are for tests; nil in production.
	Hooks *Hooks
	// DebugWriter receives the raw IMAP conversation, credentials included.
	DebugWriter io.Writer
}

// Intake reads new mail from an IMAP mailbox, hands each message to a
// Handler and files it according to the answer. See Run.
type Intake struct {
	cfg     IntakeConfig
	sec     Security
	log     *slog.Logger
	running atomic.Bool

	// Scheduling state. It is an optimisation only, keyed by UID and
	// dropped when UIDVALIDITY changes; correctness rests on \Seen and on
	// the handler's Message-ID dedupe. Used only by Run's goroutine.
	uidValidity uint32
	attempts    map[imap.UID]int
	retryAt     map[imap.UID]time.Time
	ignored     map[imap.UID]struct{}
	warnedMove  bool
}

// NewIntake checks cfg and fills in its defaults. It does not connect.
func NewIntake(cfg IntakeConfig) (*Intake, error) {
	sec, _, err := parseSecurity("intake", cfg.Security, cfg.Addr, cfg.AllowPlaintext)
	if err != nil {
		return nil, err
	}
	if cfg.Username == "" {
		return nil, errors.New("mailbox: intake: no username")
	}
	if cfg.Mailbox == "" {
		cfg.Mailbox = "INBOX"
	}
	if cfg.ProcessedMailbox == "" {
		cfg.ProcessedMailbox = "Processed"
	}
	if cfg.RejectedMailbox == "" {
		cfg.RejectedMailbox = "Rejected"
	}
	if strings.EqualFold(cfg.ProcessedMailbox, cfg.Mailbox) || strings.EqualFold(cfg.RejectedMailbox, cfg.Mailbox) {
		return nil, fmt.Errorf("mailbox: intake: processed and rejected mailboxes must differ from %q", cfg.Mailbox)
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = time.Minute
	}
	switch cfg.UseIdle {
	case "":
		cfg.UseIdle = IdleAuto
	case IdleAuto, IdleNever:
	default:
		return nil, fmt.Errorf("mailbox: intake: unknown UseIdle %q (want %q or %q)", cfg.UseIdle, IdleAuto, IdleNever)
	}
	if cfg.IdleRestart <= 0 || cfg.IdleRestart > 25*time.Minute {
		cfg.IdleRestart = 25 * time.Minute
	}
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = 30 * time.Second
	}
	if cfg.ReconnectBackoff == nil {
		cfg.ReconnectBackoff = ExponentialBackoff(time.Second, 5*time.Minute)
	}
	if cfg.RetryBackoff == nil {
		cfg.RetryBackoff = ExponentialBackoff(5*time.Second, 15*time.Minute)
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 32
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	if cfg.Hooks == nil {
		cfg.Hooks = &Hooks{}
	}
	return &Intake{
		cfg:      cfg,
		sec:      sec,
		log:      log.With("component", "mailbox.intake", "imap", cfg.Addr, "mailbox", cfg.Mailbox),
		attempts: make(map[imap.UID]int),
		retryAt:  make(map[imap.UID]time.Time),
		ignored:  make(map[imap.UID]struct{}),
	}, nil
}

// hookError is a simulated crash from Hooks.
type hookError struct {
	hook string
	err  error
}

func (e *hookError) Error() string {
	return "mailbox: intake stopped by hook " + e.hook + ": " + e.err.Error()
}
func (e *hookError) Unwrap() error { return e.err }

// Run reads mail until ctx is cancelled; it then returns ctx.Err(). It
// returns early only for a hook's simulated crash or a second concurrent
// Run. Connection failures, refused logins and server restarts are logged
// and retried with ReconnectBackoff.
//
// Each session connects, logs in, creates the processed and rejected
// mailboxes if missing, SELECTs the mailbox and repeats: UID SEARCH UNSEEN;
// for each batch of at most Batch messages in UID order, UID FETCH their
// RFC822.SIZE and ENVELOPE, then BODY.PEEK[] (so \Seen stays unset; only
// the header of a message over MaxMessageBytes), call h for each, and only
// for those h returned Processed or Rejected, set \Seen and UID MOVE them
// (or COPY, \Deleted and UID EXPUNGE with UIDPLUS; never a plain EXPUNGE);
// then wait with IDLE or poll.
//
// Cancelling ctx stops Run at the next safe point: a message whose handler
// has returned is still flagged and moved before Run returns, and ctx is
// passed on to the handler.
func (in *Intake) Run(ctx context.Context, h Handler) error {
	if h == nil {
		return errors.New("mailbox: intake: nil handler")
	}
	return in.RunBatch(ctx, oneByOne(h))
}

// RunBatch is Run with a handler that decides about a batch of messages
// at once (IntakeConfig.Batch).
func (in *Intake) RunBatch(ctx context.Context, h BatchHandler) error {
	if h == nil {
		return errors.New("mailbox: intake: nil handler")
	}
	if !in.running.CompareAndSwap(false, true) {
		return errors.New("mailbox: intake: Run is already running")
	}
	defer in.running.Store(false)

	failures := 0
	for {
		err := in.session(ctx, h, func() { failures = 0 })
		if ctx.Err() != nil {
			in.log.Info("intake stopped")
			return ctx.Err()
		}
		var he *hookError
		if errors.As(err, &he) {
			in.log.Warn("intake stopped by test hook", "hook", he.hook, "err", he.err)
			return err
		}
		failures++
		d := in.cfg.ReconnectBackoff(failures)
		in.log.Warn("intake disconnected; reconnecting", "err", err, "attempt", failures, "retry_in", d)
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			in.log.Info("intake stopped")
			return ctx.Err()
		case <-t.C:
		}
	}
}

// session is one IMAP connection of Run.
type session struct {
	in       *Intake
	c        *imapclient.Client
	notify   chan struct{}
	useIdle  bool
	validity uint32
	handler  BatchHandler
}

func (in *Intake) session(ctx context.Context, h BatchHandler, selected func()) error {
	notify := make(chan struct{}, 1)
	opts := &imapclient.Options{
		DebugWriter: in.cfg.DebugWriter,
		// Runs on the client's reader goroutine: never block, never
		// issue commands from here.
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					select {
					case notify <- struct{}{}:
					default:
					}
				}
			},
		},
	}
	c, err := dialIMAP(ctx, in.cfg.Addr, in.sec, in.cfg.TLSConfig, in.cfg.DialTimeout, opts)
	if err != nil {
		return fmt.Errorf("mailbox: connect to %s (%s): %w", in.cfg.Addr, in.sec, err)
	}
	defer c.Close()
	if err := c.Login(in.cfg.Username, in.cfg.Password).Wait(); err != nil {
		return fmt.Errorf("mailbox: login as %q: %w", in.cfg.Username, err)
	}
	for _, mb := range []string{in.cfg.ProcessedMailbox, in.cfg.RejectedMailbox} {
		if err := ensureMailbox(c, mb); err != nil {
			return err
		}
	}
	sel, err := c.Select(in.cfg.Mailbox, nil).Wait()
	if err != nil {
		return fmt.Errorf("mailbox: select %q: %w", in.cfg.Mailbox, err)
	}
	if in.uidValidity != 0 && in.uidValidity != sel.UIDValidity {
		in.log.Warn("UIDVALIDITY changed: earlier UIDs mean nothing now; messages may be offered again and the handler's Message-ID dedupe keeps them from applying twice",
			"old", in.uidValidity, "new", sel.UIDValidity)
		clear(in.attempts)
		clear(in.retryAt)
		clear(in.ignored)
	}
	in.uidValidity = sel.UIDValidity
	selected()

	caps := c.Caps()
	s := &session{
		in:       in,
		c:        c,
		notify:   notify,
		useIdle:  in.cfg.UseIdle == IdleAuto && caps.Has(imap.CapIdle),
		validity: sel.UIDValidity,
		handler:  h,
	}
	in.log.Info("intake connected", "uidvalidity", sel.UIDValidity, "messages", sel.NumMessages,
		"idle", s.useIdle, "move", caps.Has(imap.CapMove), "uidplus", caps.Has(imap.CapUIDPlus))

	for {
		if err := s.pass(ctx); err != nil {
			return err
		}
		if ctx.Err() != nil {
			break
		}
		if err := s.wait(ctx); err != nil {
			return err
		}
		if ctx.Err() != nil {
			break
		}
	}
	_ = c.Logout().Wait()
	return nil
}

// ensureMailbox creates name unless it exists.
func ensureMailbox(c *imapclient.Client, name string) error {
	err := c.Create(name, nil).Wait()
	if err == nil || isAlreadyExists(err) {
		return nil
	}
	// Not every server sends [ALREADYEXISTS]; ask.
	if _, serr := c.Status(name, &imap.StatusOptions{NumMessages: true}).Wait(); serr == nil {
		return nil
	}
	return fmt.Errorf("mailbox: create %q: %w", name, err)
}

// pass handles every unseen message that is not waiting for a retry.
func (s *session) pass(ctx context.Context) error {
	// Signals that arrived before the search are covered by it.
	select {
	case <-s.notify:
	default:
	}
	sd, err := s.c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagSeen}}, nil).Wait()
	if err != nil {
		return fmt.Errorf("mailbox: search unseen in %q: %w", s.in.cfg.Mailbox, err)
	}
	uids := sd.AllUIDs()
	slices.Sort(uids)
	s.in.prune(uids)
	now := time.Now()
	var todo []imap.UID
	for _, uid := range uids {
		if _, ok := s.in.ignored[uid]; ok {
			continue
		}
		if t, ok := s.in.retryAt[uid]; ok && now.Before(t) {
			continue
		}
		todo = append(todo, uid)
	}
	for len(todo) > 0 && ctx.Err() == nil {
		n := min(len(todo), s.in.cfg.Batch)
		if err := s.batch(ctx, todo[:n]); err != nil {
			return err
		}
		todo = todo[n:]
	}
	return nil
}

// prune forgets scheduling state for UIDs that are no longer unseen.
func (in *Intake) prune(unseen []imap.UID) {
	gone := func(uid imap.UID) bool {
		_, ok := slices.BinarySearch(unseen, uid)
		return !ok
	}
	for uid := range in.ignored {
		if gone(uid) {
			delete(in.ignored, uid)
		}
	}
	for uid := range in.attempts {
		if gone(uid) {
			delete(in.attempts, uid)
			delete(in.retryAt, uid)
		}
	}
}

// batch fetches, hands to the handler and files a batch of unseen
// messages. A message is flagged \Seen and moved only after the handler
// committed it; a crash in between offers it again, and the handler's
// dedupe answers it as the first time.
func (s *session) batch(ctx context.Context, uids []imap.UID) error {
	in := s.in
	ms, err := s.fetchBatch(uids)
	if err != nil || len(ms) == 0 {
		return err
	}
	for _, m := range ms {
		in.attempts[imap.UID(m.UID)]++
	}
	for i := range ms {
		ms[i].Attempt = in.attempts[imap.UID(ms[i].UID)]
		if hook := in.cfg.Hooks.AfterFetch; hook != nil {
			if err := hook(ms[i]); err != nil {
				return &hookError{"AfterFetch", err}
			}
		}
	}
	verdicts := s.handler(ctx, ms)
	if len(verdicts) != len(ms) {
		return fmt.Errorf("mailbox: handler answered %d of %d messages", len(verdicts), len(ms))
	}
	var filed []filing
	for i, v := range verdicts {
		f, err := s.judge(ms[i], v)
		if err != nil {
			return err
		}
		if f != nil {
			filed = append(filed, *f)
		}
	}
	return s.file(filed)
}

// filing is a message the handler committed, to be flagged and moved.
type filing struct {
	m    Message
	d    Disposition
	dest string
	log  *slog.Logger
}

// judge records the handler's verdict on m: a retry after a failure, a
// message ignored, or one to file (after the AfterCommit hook).
func (s *session) judge(m Message, v Verdict) (*filing, error) {
	in, uid := s.in, imap.UID(m.UID)
	d, herr := v.Disposition, v.Err
	if herr == nil && d != Processed && d != Rejected && d != Ignored {
		herr = fmt.Errorf("mailbox: handler returned invalid %v", d)
	}
	log := in.log.With("uid", m.UID, "uidvalidity", m.UIDValidity, "message_id", m.MessageID, "attempt", m.Attempt)
	if herr != nil {
		wait := in.cfg.RetryBackoff(m.Attempt)
		in.retryAt[uid] = time.Now().Add(wait)
		log.Warn("handler failed; message left unseen for a retry", "err", herr, "retry_in", wait)
		return nil, nil
	}
	if d == Ignored {
		in.ignored[uid] = struct{}{}
		delete(in.retryAt, uid)
		delete(in.attempts, uid)
		log.Info("message ignored; left in place", "subject", m.Subject)
		return nil, nil
	}
	if hook := in.cfg.Hooks.AfterCommit; hook != nil {
		if err := hook(m, d); err != nil {
			return nil, &hookError{"AfterCommit", err}
		}
	}
	dest := in.cfg.ProcessedMailbox
	if d == Rejected {
		dest = in.cfg.RejectedMailbox
	}
	return &filing{m: m, d: d, dest: dest, log: log}, nil
}

// file flags the committed messages \Seen in one STORE, then moves them,
// one UID MOVE per destination.
func (s *session) file(filed []filing) error {
	if len(filed) == 0 {
		return nil
	}
	in := s.in
	var all imap.UIDSet
	byDest := map[string]imap.UIDSet{}
	var dests []string
	for _, f := range filed {
		uid := imap.UID(f.m.UID)
		all.AddNum(uid)
		if _, ok := byDest[f.dest]; !ok {
			dests = append(dests, f.dest)
		}
		set := byDest[f.dest]
		set.AddNum(uid)
		byDest[f.dest] = set
	}
	err := s.c.Store(all, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}, nil).Close()
	if err != nil {
		return fmt.Errorf("mailbox: flag uids %v \\Seen: %w", all, err)
	}
	if hook := in.cfg.Hooks.AfterSeen; hook != nil {
		for _, f := range filed {
			if err := hook(f.m, f.d); err != nil {
				return &hookError{"AfterSeen", err}
			}
		}
	}
	for _, dest := range dests {
		if err := s.move(byDest[dest], dest); err != nil {
			// The messages are \Seen, so they will not be offered again;
			// they just stay in the inbox.
			return fmt.Errorf("mailbox: move uids %v to %q (they are flagged \\Seen and stay in %q): %w", byDest[dest], dest, in.cfg.Mailbox, err)
		}
	}
	for _, f := range filed {
		delete(in.retryAt, imap.UID(f.m.UID))
		delete(in.attempts, imap.UID(f.m.UID))
		f.log.Info("message filed", "disposition", f.d, "to", f.dest)
	}
	return nil
}

// fetchBatch fetches a batch's messages, in UID order: their flags,
// envelopes and sizes in one FETCH, then the bodies of those within
// MaxMessageBytes in FETCHes of at most maxBatchBytes, and the header of
// each larger one. A message gone or already \Seen is left out.
func (s *session) fetchBatch(uids []imap.UID) ([]Message, error) {
	in := s.in
	metas, err := s.c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, Flags: true, Envelope: true, InternalDate: true, RFC822Size: true}).Collect()
	if err != nil {
		return nil, fmt.Errorf("mailbox: fetch uids %v: %w", uids, err)
	}
	byUID := map[imap.UID]*imapclient.FetchMessageBuffer{}
	for _, b := range metas {
		byUID[b.UID] = b
	}
	var ms, whole []Message
	for _, uid := range uids {
		b := byUID[uid]
		switch {
		case b == nil:
			in.log.Debug("message vanished before fetch", "uid", uid)
			continue
		case slices.Contains(b.Flags, imap.FlagSeen):
			continue // another client got there first
		}
		m := s.message(b)
		ms = append(ms, m)
		if !s.tooLarge(m.Size) {
			whole = append(whole, m)
		}
	}
	bodies, err := s.bodies(whole)
	if err != nil {
		return nil, err
	}
	kept := ms[:0]
	for _, m := range ms {
		uid := imap.UID(m.UID)
		if s.tooLarge(m.Size) {
			if m.Raw, m.HeaderOnly, err = s.content(uid, m.Size); err != nil {
				return nil, err
			}
		} else {
			m.Raw = bodies[uid]
		}
		if m.Raw == nil {
			in.log.Debug("message vanished before fetch", "uid", uid)
			continue
		}
		kept = append(kept, m)
	}
	return kept, nil
}

// tooLarge says whether only the header of a message of size bytes is
// fetched.
func (s *session) tooLarge(size int64) bool {
	return s.in.cfg.MaxMessageBytes > 0 && size > s.in.cfg.MaxMessageBytes
}

// maxBatchBytes bounds the bodies one FETCH of a batch brings.
const maxBatchBytes = 8 << 20

// bodies fetches whole messages (BODY.PEEK[], so \Seen stays unset), in
// FETCHes of at most maxBatchBytes (a message alone may be larger).
func (s *session) bodies(whole []Message) (map[imap.UID][]byte, error) {
	out := map[imap.UID][]byte{}
	section := &imap.FetchItemBodySection{Peek: true}
	for len(whole) > 0 {
		var set imap.UIDSet
		n, size := 0, int64(0)
		for ; n < len(whole) && (n == 0 || size+whole[n].Size <= maxBatchBytes); n++ {
			set.AddNum(imap.UID(whole[n].UID))
			size += whole[n].Size
		}
		bufs, err := s.c.Fetch(set, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil {
			return nil, fmt.Errorf("mailbox: fetch uids %v: %w", set, err)
		}
		for _, b := range bufs {
			if raw := b.FindBodySection(section); raw != nil {
				out[b.UID] = raw
			}
		}
		whole = whole[n:]
	}
	return out, nil
}

// message is a fetched message's metadata, as the handler sees it.
func (s *session) message(b *imapclient.FetchMessageBuffer) Message {
	m := Message{
		Mailbox:      s.in.cfg.Mailbox,
		UID:          uint32(b.UID),
		UIDValidity:  s.validity,
		InternalDate: b.InternalDate,
		Size:         b.RFC822Size,
	}
	if env := b.Envelope; env != nil {
		m.MessageID = env.MessageID
		m.Subject = env.Subject
		for _, a := range env.From {
			m.From = append(m.From, a.Addr())
		}
	}
	return m
}

// MaxHeaderBytes bounds the header fetched of a message larger than
// MaxMessageBytes: enough for any header a mail client writes, and a
// bound on what a header of megabytes costs.
const MaxHeaderBytes = 64 << 10

// fetch fetches one message's items; nil when it is gone.
func (s *session) fetch(uid imap.UID, opts *imap.FetchOptions) (*imapclient.FetchMessageBuffer, error) {
	bufs, err := s.c.Fetch(imap.UIDSetNum(uid), opts).Collect()
	if err != nil {
		return nil, fmt.Errorf("mailbox: fetch uid %d: %w", uid, err)
	}
	for _, x := range bufs {
		if x.UID == uid {
			return x, nil
		}
	}
	return nil, nil
}

// content fetches a message of size bytes without setting \Seen: whole
// (BODY.PEEK[]) when it is within MaxMessageBytes, else only its header
// (BODY.PEEK[HEADER]<0.MaxHeaderBytes>), ending in the blank line that
// ends a header. It returns nil when the message is gone.
func (s *session) content(uid imap.UID, size int64) (raw []byte, headerOnly bool, err error) {
	section := &imap.FetchItemBodySection{Peek: true}
	headerOnly = s.tooLarge(size)
	if headerOnly {
		section.Specifier = imap.PartSpecifierHeader
		section.Partial = &imap.SectionPartial{Offset: 0, Size: MaxHeaderBytes}
	}
	b, err := s.fetch(uid, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}})
	if err != nil || b == nil {
		return nil, false, err
	}
	raw = b.FindBodySection(section)
	if raw == nil {
		return nil, false, fmt.Errorf("mailbox: fetch uid %d: server sent no body", uid)
	}
	if headerOnly {
		raw = endHeader(raw)
		s.in.log.Info("message too large: fetched its header only", "uid", uid, "size", size, "max", s.in.cfg.MaxMessageBytes)
	}
	return raw, headerOnly, nil
}

// endHeader makes a header cut at MaxHeaderBytes a whole header: its last
// complete line, then the blank line.
func endHeader(h []byte) []byte {
	if bytes.HasSuffix(h, []byte("\r\n\r\n")) {
		return h
	}
	if i := bytes.LastIndex(h, []byte("\r\n")); i >= 0 {
		h = h[:i]
	}
	return append(append([]byte(nil), h...), "\r\n\r\n"...)
}

// move moves set to dest with UID MOVE, or COPY + \Deleted + UID EXPUNGE
// with UIDPLUS. Without either it copies and flags \Deleted but does not
// expunge: a plain EXPUNGE would remove every \Deleted message in the
// mailbox, including other clients' ones.
func (s *session) move(set imap.UIDSet, dest string) error {
	err := s.moveOnce(set, dest)
	var ie *imap.Error
	if errors.As(err, &ie) && (ie.Code == imap.ResponseCodeTryCreate || ie.Code == imap.ResponseCodeNonExistent) {
		if cerr := ensureMailbox(s.c, dest); cerr != nil {
			return errors.Join(err, cerr)
		}
		err = s.moveOnce(set, dest)
	}
	return err
}

func (s *session) moveOnce(set imap.UIDSet, dest string) error {
	caps := s.c.Caps()
	if caps.Has(imap.CapMove) {
		_, err := s.c.Move(set, dest).Wait()
		return err
	}
	if _, err := s.c.Copy(set, dest).Wait(); err != nil {
		return err
	}
	err := s.c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close()
	if err != nil {
		return err
	}
	if caps.Has(imap.CapUIDPlus) {
		return s.c.UIDExpunge(set).Close()
	}
	if !s.in.warnedMove {
		s.in.warnedMove = true
		s.in.log.Warn("server has neither MOVE nor UIDPLUS: filed messages are copied and flagged \\Deleted but not expunged")
	}
	return nil
}

// wait blocks until new mail may have arrived, a retry is due, the IDLE
// restart interval or poll interval has passed, or ctx is done.
func (s *session) wait(ctx context.Context) error {
	in := s.in
	d := in.cfg.PollInterval
	mode := WaitPoll
	if s.useIdle {
		d = in.cfg.IdleRestart
		mode = WaitIdle
	}
	if next, ok := in.nextRetry(); ok {
		until := time.Until(next)
		if until <= 0 {
			return nil
		}
		d = min(d, until)
	}
	timer := time.NewTimer(d)
	defer timer.Stop()

	if s.useIdle {
		idle, err := s.c.Idle()
		if err != nil {
			return fmt.Errorf("mailbox: idle: %w", err)
		}
		if hook := in.cfg.Hooks.Waiting; hook != nil {
			hook(mode)
		}
		select {
		case <-ctx.Done():
		case <-s.notify:
		case <-timer.C:
		case <-s.c.Closed():
		}
		if err := idle.Close(); err != nil {
			return fmt.Errorf("mailbox: stop idle: %w", err)
		}
		if err := idle.Wait(); err != nil {
			return fmt.Errorf("mailbox: idle: %w", err)
		}
		return nil
	}

	if hook := in.cfg.Hooks.Waiting; hook != nil {
		hook(mode)
	}
	select {
	case <-ctx.Done():
		return nil
	case <-s.notify:
	case <-timer.C:
	case <-s.c.Closed():
		return errors.New("mailbox: connection closed by server")
	}
	// Give the server a chance to report new mail before the search.
	if err := s.c.Noop().Wait(); err != nil {
		return fmt.Errorf("mailbox: noop: %w", err)
	}
	return nil
}

// nextRetry is the earliest time a failed message is due again.
func (in *Intake) nextRetry() (time.Time, bool) {
	var next time.Time
	for _, t := range in.retryAt {
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	return next, !next.IsZero()
}
