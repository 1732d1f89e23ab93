package mailbox

import (
	"bytes"
	"context"
	"crypto/subtle"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// User is a local account of the embedded server: an IMAP login and an SMTP
// recipient (Name@any-domain, and Name+tag@any-domain).
type User struct {
	Name     string
	Password string
}

// SMTPStage names the point of an SMTP transaction at which
// EmbeddedConfig.SMTPHook is called.
type SMTPStage string

// The SMTP stages passed to EmbeddedConfig.SMTPHook.
const (
	// SMTPHello is a new connection's EHLO (or HELO), once per
	// connection: tests count connections with it, and an error refuses
	// the session (451 unless the hook chooses another code).
	SMTPHello SMTPStage = "EHLO"
	SMTPMail  SMTPStage = "MAIL" // MAIL FROM; rcpt is empty
	SMTPRcpt  SMTPStage = "RCPT" // RCPT TO, after the recipient was found to be local
	SMTPData  SMTPStage = "DATA" // end of DATA, before delivery; rcpt is empty
)

// EmbeddedConfig configures an Embedded mail server. The zero value plus one
// User is enough.
type EmbeddedConfig struct {
	// IMAPAddr and SMTPAddr are the listen addresses. They must be loopback
	// addresses ("127.0.0.1:1143"). Empty means "127.0.0.1:0", a free port
	// chosen at Start; see IMAPAddr and SMTPAddr on Embedded.
	IMAPAddr string
	SMTPAddr string
	// Domain is the name in the SMTP greeting and in Received headers.
	// Default "localhost". Recipients are accepted for any domain.
	Domain string
	// Users are the local accounts. Names are matched without regard to
	// case and must not contain '@' or '+'.
	Users []User
	// Mailboxes are created for every user besides INBOX. Nil means
	// {"Processed", "Rejected"}, the mailboxes Intake moves mail to.
	Mailboxes []string
	// RequireSMTPAuth refuses MAIL FROM before AUTH PLAIN. AUTH PLAIN is
	// always offered, with any local user's credentials.
	RequireSMTPAuth bool
	// MaxMessageBytes limits an SMTP message. Default 25 MiB.
	MaxMessageBytes int64
	// TLSConfig, when set, enables STARTTLS on both servers.
	TLSConfig *tls.Config
	// Logger receives the servers' own error messages. Default slog.Default().
	Logger *slog.Logger
	// SMTPHook, when set, is called at each SMTPStage; a non-nil error is
	// the server's reply. Return a *smtp.SMTPError to choose the code, e.g.
	// &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0},
	// Message: "try later"}; other errors become "451 4.0.0". For tests.
	SMTPHook func(stage SMTPStage, from, rcpt string) error
}

// Embedded is an in-process IMAP and SMTP server on loopback, keeping all mail
// in memory. It is Herald's zero-configuration mail system and the peer of
// the package's tests.
//
// SMTP delivery appends the message, unchanged but for three added header
// lines (Return-Path, Delivered-To, Received), to the INBOX of the user named
// by the recipient's local part. Plus-addressing is honoured:
// "herald+crecy-4f2a@localhost" is delivered to user "herald", and its
// Delivered-To header keeps the whole address. Unknown recipients get
// "550 5.1.1".
//
// Close stops both servers but keeps the mail; a later Start serves it again
// on the same addresses, so a test can take the server away from a client.
type Embedded struct {
	cfg   EmbeddedConfig
	log   *slog.Logger
	users map[string]*localUser // by lower-case name

	// changeCh is closed (and replaced) whenever a mailbox gains mail; see
	// imapSession.Idle.
	changeMu sync.Mutex
	changeCh chan struct{}

	mu       sync.Mutex
	imapAddr string
	smtpAddr string
	imapSrv  *imapserver.Server
	smtpSrv  *smtp.Server
	imapLn   net.Listener
	smtpLn   net.Listener
	running  bool

	// imapCaps overrides the advertised IMAP capabilities; tests use it
	// to take MOVE and UIDPLUS away.
	imapCaps imap.CapSet
	wg       sync.WaitGroup
}

type localUser struct {
	name, password string
	mem            *imapmemserver.User
}

// NewEmbedded checks cfg and creates the users and their mailboxes. It does
// not listen yet: call Start.
func NewEmbedded(cfg EmbeddedConfig) (*Embedded, error) {
	if cfg.IMAPAddr == "" {
		cfg.IMAPAddr = "127.0.0.1:0"
	}
	if cfg.SMTPAddr == "" {
		cfg.SMTPAddr = "127.0.0.1:0"
	}
	for _, a := range []string{cfg.IMAPAddr, cfg.SMTPAddr} {
		host, _, err := net.SplitHostPort(a)
		if err != nil {
			return nil, fmt.Errorf("mailbox: embedded server address %q: %w", a, err)
		}
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			return nil, fmt.Errorf("mailbox: embedded server address %q: must be a loopback IP address such as 127.0.0.1 (it authenticates without TLS)", a)
		}
	}
	if cfg.Domain == "" {
		cfg.Domain = "localhost"
	}
	if cfg.Mailboxes == nil {
		cfg.Mailboxes = []string{"Processed", "Rejected"}
	}
	if cfg.MaxMessageBytes <= 0 {
		cfg.MaxMessageBytes = 25 << 20
	}
	if len(cfg.Users) == 0 {
		return nil, errors.New("mailbox: embedded server: no users configured")
	}
	e := &Embedded{
		cfg:      cfg,
		log:      cfg.Logger,
		users:    make(map[string]*localUser),
		imapAddr: cfg.IMAPAddr,
		smtpAddr: cfg.SMTPAddr,
	}
	if e.log == nil {
		e.log = slog.Default()
	}
	e.log = e.log.With("component", "mailbox.embedded")
	for _, u := range cfg.Users {
		if u.Name == "" || strings.ContainsAny(u.Name, "@+ \t\r\n") {
			return nil, fmt.Errorf("mailbox: embedded server: invalid user name %q (empty, or contains '@', '+' or space)", u.Name)
		}
		key := strings.ToLower(u.Name)
		if e.users[key] != nil {
			return nil, fmt.Errorf("mailbox: embedded server: duplicate user %q", u.Name)
		}
		mu := imapmemserver.NewUser(u.Name, u.Password)
		for _, mb := range append([]string{"INBOX"}, cfg.Mailboxes...) {
			if err := mu.Create(mb, nil); err != nil && !isAlreadyExists(err) {
				return nil, fmt.Errorf("mailbox: embedded server: create %q for %q: %w", mb, u.Name, err)
			}
		}
		e.users[key] = &localUser{name: u.Name, password: u.Password, mem: mu}
	}
	return e, nil
}

// Start listens on the IMAP and SMTP addresses and serves in the background.
// After a Close, Start serves the same mail on the same addresses again.
func (e *Embedded) Start() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.running {
		return errors.New("mailbox: embedded server already started")
	}
	imapLn, err := net.Listen("tcp", e.imapAddr)
	if err != nil {
		return fmt.Errorf("mailbox: embedded IMAP server: %w", err)
	}
	smtpLn, err := net.Listen("tcp", e.smtpAddr)
	if err != nil {
		imapLn.Close()
		return fmt.Errorf("mailbox: embedded SMTP server: %w", err)
	}
	e.imapAddr = imapLn.Addr().String()
	e.smtpAddr = smtpLn.Addr().String()
	e.imapLn, e.smtpLn = imapLn, smtpLn

	caps := e.imapCaps
	if caps == nil {
		// IMAP4rev2 makes the server advertise MOVE and UIDPLUS, without
		// which imapclient's Move falls back to a plain EXPUNGE.
		caps = imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}}
	}
	e.imapSrv = imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &imapSession{e: e}, nil, nil
		},
		Caps:         caps,
		InsecureAuth: true, // loopback only, checked in NewEmbedded
		TLSConfig:    e.cfg.TLSConfig,
		Logger:       printfLogger{e.log.With("server", "imap")},
	})

	s := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		sess := &smtpSession{e: e, conn: c}
		if err := sess.hook(SMTPHello, ""); err != nil {
			return nil, err
		}
		return sess, nil
	}))
	s.Domain = e.cfg.Domain
	s.AllowInsecureAuth = true
	s.MaxMessageBytes = e.cfg.MaxMessageBytes
	s.MaxRecipients = 100
	s.ReadTimeout = 2 * time.Minute
	s.WriteTimeout = 2 * time.Minute
	s.TLSConfig = e.cfg.TLSConfig
	s.ErrorLog = printfLogger{e.log.With("server", "smtp")}
	e.smtpSrv = s

	imapSrv := e.imapSrv
	e.wg.Add(2)
	go func() {
		defer e.wg.Done()
		if err := imapSrv.Serve(imapLn); err != nil && !errors.Is(err, net.ErrClosed) {
			e.log.Debug("imap server stopped", "err", err)
		}
	}()
	go func() {
		defer e.wg.Done()
		if err := s.Serve(smtpLn); err != nil && !errors.Is(err, smtp.ErrServerClosed) && !errors.Is(err, net.ErrClosed) {
			e.log.Debug("smtp server stopped", "err", err)
		}
	}()
	e.running = true
	e.log.Info("embedded mail server started", "imap", e.imapAddr, "smtp", e.smtpAddr)
	return nil
}

// Close stops both servers and drops their connections. The mail stays;
// Start serves it again. Close on a stopped server does nothing.
func (e *Embedded) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.running {
		return nil
	}
	e.running = false
	err := errors.Join(e.imapSrv.Close(), e.smtpSrv.Close())
	// The servers close only the listeners their Serve has registered; a
	// Close right after Start can come first.
	e.imapLn.Close()
	e.smtpLn.Close()
	e.wg.Wait()
	e.log.Info("embedded mail server stopped")
	if err != nil {
		return fmt.Errorf("mailbox: close embedded server: %w", err)
	}
	return nil
}

// IMAPAddr is the IMAP listen address, host:port. After Start it holds the
// port actually chosen.
func (e *Embedded) IMAPAddr() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.imapAddr
}

// SMTPAddr is the SMTP listen address, host:port. After Start it holds the
// port actually chosen.
func (e *Embedded) SMTPAddr() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.smtpAddr
}

// Deliver appends raw to the INBOX of the user that rcpt names, as SMTP
// delivery would, adding a Delivered-To header. It works while the servers
// are stopped, so a test can deliver mail "while the server is down".
func (e *Embedded) Deliver(rcpt string, raw []byte) error {
	u := e.lookupRcpt(rcpt)
	if u == nil {
		return fmt.Errorf("mailbox: deliver to %q: no such local user", rcpt)
	}
	hdr := "Delivered-To: " + sanitizeHeaderValue(rcpt) + "\r\n"
	return e.deliver(u, hdr, raw)
}

// deliver appends the message prefix + raw to the user's INBOX, which
// keeps a copy of its own: raw may be reused once deliver returns.
func (e *Embedded) deliver(u *localUser, prefix string, raw []byte) error {
	text := literal{io.MultiReader(strings.NewReader(prefix), bytes.NewReader(raw)), int64(len(prefix) + len(raw))}
	// Options must be non-nil: imapmemserver dereferences them.
	_, err := u.mem.Append("INBOX", text, &imap.AppendOptions{Time: time.Now()})
	if err != nil {
		return fmt.Errorf("mailbox: deliver to %q: %w", u.name, err)
	}
	e.changed()
	return nil
}

// literal is a message to append, read from its parts: its size is
// known without joining them.
type literal struct {
	io.Reader
	size int64
}

func (l literal) Size() int64 { return l.size }

// changes returns a channel that is closed at the next mailbox change.
func (e *Embedded) changes() <-chan struct{} {
	e.changeMu.Lock()
	defer e.changeMu.Unlock()
	if e.changeCh == nil {
		e.changeCh = make(chan struct{})
	}
	return e.changeCh
}

// changed wakes every imapSession.Idle.
func (e *Embedded) changed() {
	e.changeMu.Lock()
	defer e.changeMu.Unlock()
	if e.changeCh != nil {
		close(e.changeCh)
		e.changeCh = nil
	}
}

// imapSession is an IMAP connection to the embedded server: imapmemserver's
// UserSession with Embedded's users and an IDLE that cannot miss new mail.
type imapSession struct {
	*imapmemserver.UserSession // nil until Login
	e                          *Embedded
}

var _ imapserver.SessionIMAP4rev2 = (*imapSession)(nil)

func (s *imapSession) Close() error {
	if s.UserSession == nil {
		return nil
	}
	return s.UserSession.Close()
}

func (s *imapSession) Login(username, password string) error {
	u := s.e.users[strings.ToLower(username)]
	if u == nil || subtle.ConstantTimeCompare([]byte(password), []byte(u.password)) != 1 {
		return imapserver.ErrAuthFailed
	}
	s.UserSession = imapmemserver.NewUserSession(u.mem)
	return nil
}

// Idle reports mailbox changes until stop is closed.
//
// QUIRK: in go-imap v2.0.0-beta.8, imapserver.SessionTracker.Idle wakes only
// for updates queued after it started; an EXISTS queued between the
// previous command's response and the IDLE is held back until some later
// update. Mail delivered in that gap would wait for the client's IDLE
// restart (up to 25 minutes). So each round first flushes the queue with
// Poll, then idles until the round's change signal, taken before the Poll,
// fires.
func (s *imapSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	for {
		changed := s.e.changes()
		if err := s.UserSession.Poll(w, true); err != nil {
			return err
		}
		inner := make(chan struct{})
		errc := make(chan error, 1)
		go func() { errc <- s.UserSession.Idle(w, inner) }()
		select {
		case <-stop:
			close(inner)
			return <-errc
		case err := <-errc: // at once when no mailbox is selected
			return err
		case <-changed:
			close(inner)
			if err := <-errc; err != nil {
				return err
			}
		}
	}
}

// Append, Copy and Move add mail to a mailbox, so they wake idlers too.

func (s *imapSession) Append(mailbox string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	d, err := s.UserSession.Append(mailbox, r, options)
	s.e.changed()
	return d, err
}

func (s *imapSession) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	d, err := s.UserSession.Copy(numSet, dest)
	s.e.changed()
	return d, err
}

func (s *imapSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	err := s.UserSession.Move(w, numSet, dest)
	s.e.changed()
	return err
}

// StoredMessage is a message as read back from a mailbox by Messages.
type StoredMessage struct {
	UID          uint32
	Flags        []string
	InternalDate time.Time
	Raw          []byte
}

// HasFlag reports whether m carries flag (e.g. `\Seen`), ignoring case.
func (m StoredMessage) HasFlag(flag string) bool {
	for _, f := range m.Flags {
		if strings.EqualFold(f, flag) {
			return true
		}
	}
	return false
}

// Messages returns the messages in a user's mailbox, in UID order, without
// changing their flags. It reads through the server's own IMAP port, so the
// server must be started. It is meant for tests and for `herald demo`.
func (e *Embedded) Messages(user, mailbox string) ([]StoredMessage, error) {
	return e.MessagesAfter(user, mailbox, 0)
}

// MessagesAfter is Messages of the messages whose UID is after uid: a
// test that answers mails as they come reads each once.
func (e *Embedded) MessagesAfter(user, mailbox string, uid uint32) ([]StoredMessage, error) {
	u := e.lookupRcpt(user)
	if u == nil {
		return nil, fmt.Errorf("mailbox: messages of %q: no such local user", user)
	}
	return readMailboxAfter(context.Background(), e.IMAPAddr(), u.name, u.password, mailbox, uid)
}

// lookupRcpt finds the local user for an address: "name", "name@domain" or
// "name+tag@domain", case-insensitively.
func (e *Embedded) lookupRcpt(addr string) *localUser {
	local := addr
	if i := strings.LastIndexByte(local, '@'); i >= 0 {
		local = local[:i]
	}
	if i := strings.IndexByte(local, '+'); i >= 0 {
		local = local[:i]
	}
	return e.users[strings.ToLower(local)]
}

// smtpSession is one SMTP connection to the embedded server.
type smtpSession struct {
	e        *Embedded
	conn     *smtp.Conn
	authUser string
	from     string
	rcpts    []smtpRcpt
}

type smtpRcpt struct {
	addr string
	user *localUser
}

var _ smtp.AuthSession = (*smtpSession)(nil)

func (s *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *smtpSession) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if identity != "" && identity != username {
			return smtp.ErrAuthFailed
		}
		u := s.e.users[strings.ToLower(username)]
		if u == nil || subtle.ConstantTimeCompare([]byte(password), []byte(u.password)) != 1 {
			return smtp.ErrAuthFailed
		}
		s.authUser = u.name
		return nil
	}), nil
}

func (s *smtpSession) hook(stage SMTPStage, rcpt string) error {
	if s.e.cfg.SMTPHook == nil {
		return nil
	}
	err := s.e.cfg.SMTPHook(stage, s.from, rcpt)
	if err == nil {
		return nil
	}
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		return se
	}
	return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 0, 0}, Message: err.Error()}
}

func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	if s.e.cfg.RequireSMTPAuth && s.authUser == "" {
		return smtp.ErrAuthRequired
	}
	s.from = from
	s.rcpts = nil
	return s.hook(SMTPMail, "")
}

func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	u := s.e.lookupRcpt(to)
	if u == nil {
		return &smtp.SMTPError{
			Code:         550,
			EnhancedCode: smtp.EnhancedCode{5, 1, 1},
			Message:      "No such user here",
		}
	}
	if err := s.hook(SMTPRcpt, to); err != nil {
		return err
	}
	s.rcpts = append(s.rcpts, smtpRcpt{addr: to, user: u})
	return nil
}

func (s *smtpSession) Data(r io.Reader) error {
	buf := getMailBuffer()
	defer keepMailBuffer(buf)
	if _, err := buf.ReadFrom(r); err != nil { // the reader enforces MaxMessageBytes
		return err
	}
	raw := buf.Bytes()
	if err := s.hook(SMTPData, ""); err != nil {
		return err
	}
	helo := sanitizeHeaderValue(s.conn.Hostname())
	remote := ""
	if c := s.conn.Conn(); c != nil {
		if host, _, err := net.SplitHostPort(c.RemoteAddr().String()); err == nil {
			remote = host
		}
	}
	proto := "ESMTP"
	if _, ok := s.conn.TLSConnectionState(); ok {
		proto = "ESMTPS"
	}
	if s.authUser != "" {
		proto += "A"
	}
	date := time.Now().Format(time.RFC1123Z)
	for _, rc := range s.rcpts {
		rcpt := sanitizeHeaderValue(rc.addr)
		prefix := "Return-Path: <" + sanitizeHeaderValue(s.from) + ">\r\n" +
			"Delivered-To: " + rcpt + "\r\n" +
			"Received: from " + helo + " ([" + remote + "])\r\n" +
			"\tby " + s.e.cfg.Domain + " (Herald embedded) with " + proto + "\r\n" +
			"\tfor <" + rcpt + ">; " + date + "\r\n"
		if err := s.e.deliver(rc.user, prefix, raw); err != nil {
			s.e.log.Error("local delivery failed", "rcpt", rc.addr, "err", err)
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Local delivery failed"}
		}
		s.e.log.Debug("delivered", "from", s.from, "rcpt", rc.addr, "user", rc.user.name, "bytes", len(raw))
	}
	return nil
}

func (s *smtpSession) Reset() {
	s.from = ""
	s.rcpts = nil
}

func (s *smtpSession) Logout() error { return nil }

// sanitizeHeaderValue drops CR and LF so a value cannot start a new header.
func sanitizeHeaderValue(v string) string { return lineBreaks.Replace(v) }

// lineBreaks is made once: a Replacer builds its tables on first use,
// which for one made per value was most of the work (3% of the embedded
// server's time on a burst of replies).
var lineBreaks = strings.NewReplacer("\r", "", "\n", "")

// printfLogger adapts slog to the Printf loggers of imapserver and go-smtp.
type printfLogger struct{ l *slog.Logger }

func (p printfLogger) Printf(format string, args ...any) {
	p.log(fmt.Sprintf(format, args...))
}

func (p printfLogger) Println(args ...any) {
	p.log(fmt.Sprintln(args...))
}

// log reports a client that went away at Debug level: it is routine (and
// happens to every IDLE when the server stops). Anything else is a Warn.
func (p printfLogger) log(msg string) {
	msg = strings.TrimSpace(msg)
	level := slog.LevelWarn
	for _, routine := range []string{"use of closed network connection", "EOF", "connection reset by peer", "broken pipe"} {
		if strings.Contains(msg, routine) {
			level = slog.LevelDebug
		}
	}
	p.l.Log(context.Background(), level, msg)
}

func isAlreadyExists(err error) bool {
	var ie *imap.Error
	return errors.As(err, &ie) && ie.Code == imap.ResponseCodeAlreadyExists
}
