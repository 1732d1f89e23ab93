package mailbox

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	gomail "github.com/wneessen/go-mail"
	"github.com/wneessen/go-mail/smtp"
)

// SenderConfig configures a Sender.
type SenderConfig struct {
	// Addr is the SMTP server, host:port (587 for submission with
	// STARTTLS, 465 for implicit TLS).
	Addr string
	// Security defaults to SecurityTLS, or SecurityPlain for a loopback
	// Addr. SecurityPlain to another host needs AllowPlaintext.
	Security       Security
	AllowPlaintext bool
	// TLSConfig is used for SecurityTLS and SecurityStartTLS; ServerName
	// defaults to Addr's host.
	TLSConfig *tls.Config
	// Username and Password enable AUTH PLAIN; empty Username means no
	// AUTH.
	Username string
	Password string
	// HELO is the name given in EHLO; default the host name.
	HELO string
	// Timeout bounds connecting and each SMTP command (default 30 s).
	Timeout time.Duration
	// IdleTimeout is how long a connection stays open after a message,
	// waiting for the next one (default 30 s, below the 5 minutes after
	// which RFC 5321 servers may drop an idle client).
	IdleTimeout time.Duration
	// Logger defaults to slog.Default().
	Logger *slog.Logger
}

// Sender submits mail to an SMTP server. Between messages it keeps its
// connections open (SenderConfig.IdleTimeout), so that a backlog of
// messages costs a connection, not one each; Close ends them. It is safe
// for concurrent use: concurrent messages each use a connection of their
// own, and up to keptConnections are kept. A message whose connection is
// refused while another is at work waits for that one, for the servers
// that allow a client one connection at a time.
type Sender struct {
	cfg    SenderConfig
	client *gomail.Client
	log    *slog.Logger

	mu     sync.Mutex
	idle   []*smtpConn   // the connections kept for the next messages
	busy   int           // connections carrying a message now
	freed  chan struct{} // closed when a busy connection is kept or ends
	timer  *time.Timer   // closes idle after IdleTimeout
	closed bool
}

// keptConnections is how many idle connections a Sender keeps: enough for
// the messages an outbox sends at once (games.RunOutbox sends two), few
// enough that a Sender used by many goroutines once does not hold a
// server's connections.
const keptConnections = 4

// smtpConn is one SMTP connection and the holder that cancelling a
// context closes it through.
type smtpConn struct {
	c      *smtp.Client
	holder *connHolder
}

// NewSender checks cfg. It does not connect.
func NewSender(cfg SenderConfig) (*Sender, error) {
	sec, host, err := parseSecurity("sender", cfg.Security, cfg.Addr, cfg.AllowPlaintext)
	if err != nil {
		return nil, err
	}
	cfg.Security = sec
	_, portStr, _ := net.SplitHostPort(cfg.Addr)
	port, err := strconv.Atoi(portStr)
	if err != nil || port <= 0 || port > 65535 {
		return nil, fmt.Errorf("mailbox: sender: bad port in %q", cfg.Addr)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 30 * time.Second
	}
	opts := []gomail.Option{
		gomail.WithPort(port),
		gomail.WithTimeout(cfg.Timeout),
		gomail.WithDialContextFunc(dialFunc(sec, tlsConfigFor(cfg.TLSConfig, host))),
	}
	switch sec {
	case SecurityTLS:
		// dialFunc does the implicit TLS; go-mail sees a *tls.Conn.
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	case SecurityStartTLS:
		// WithTLSPolicy, not WithTLSPortPolicy: the latter rewrites the
		// port.
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory), gomail.WithTLSConfig(tlsConfigFor(cfg.TLSConfig, host)))
	case SecurityPlain:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	}
	if cfg.Username != "" {
		mech := gomail.SMTPAuthPlain
		if sec == SecurityPlain {
			// Checked by parseSecurity: loopback or AllowPlaintext.
			mech = gomail.SMTPAuthPlainNoEnc
		}
		opts = append(opts, gomail.WithSMTPAuth(mech), gomail.WithUsername(cfg.Username), gomail.WithPassword(cfg.Password))
	}
	if cfg.HELO != "" {
		opts = append(opts, gomail.WithHELO(cfg.HELO))
	}
	c, err := gomail.NewClient(host, opts...)
	if err != nil {
		return nil, fmt.Errorf("mailbox: sender: %w", err)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Sender{cfg: cfg, client: c, log: log.With("component", "mailbox.sender", "smtp", cfg.Addr)}, nil
}

// Send composes o (see Compose) and submits it.
func (s *Sender) Send(ctx context.Context, o Outgoing) error {
	raw, err := Compose(o)
	if err != nil {
		return err
	}
	from, err := o.envelopeFrom()
	if err != nil {
		return err
	}
	rcpts, err := o.recipients()
	if err != nil {
		return err
	}
	return s.SendRaw(ctx, from, rcpts, raw)
}

// SendRaw submits raw, a complete message with CRLF line ends such as
// Compose returns, from the envelope sender from to the recipients to.
// Addresses may be bare or in angle brackets; "" or "<>" is the null sender.
// An outbox that stores Compose's bytes resends them with SendRaw, byte for
// byte.
//
// The message is either accepted for every recipient or for none: if any
// RCPT is refused, the transaction is reset and the error lists the refused
// recipients. SendRaw reuses the connection of the previous message when
// it is still open; if that connection went stale (the server dropped it,
// or answers 421 at MAIL FROM), it dials a new one and tries once more,
// which cannot deliver twice: nothing was accepted before MAIL FROM.
func (s *Sender) SendRaw(ctx context.Context, from string, to []string, raw []byte) error {
	if len(to) == 0 {
		return errors.New("mailbox: send: no recipients")
	}
	if conn := s.take(); conn != nil {
		err := s.transact(ctx, conn, from, to, raw)
		var se *SendError
		if !errors.As(err, &se) || se.Stage != StageMail || ctx.Err() != nil || (se.Code != 0 && se.Code != 421) {
			return err
		}
		s.log.Debug("kept connection went stale; dialling again", "err", err)
	}
	conn, err := s.dial(ctx)
	if err != nil {
		// A server may allow a client one connection at a time: while
		// another is at work, the message waits for it.
		if conn = s.waitKept(ctx); conn == nil {
			return err
		}
		s.log.Debug("a connection was refused while another was open; the message waits for that one", "err", err)
	}
	return s.transact(ctx, conn, from, to, raw)
}

// waitKept waits, while another connection carries a message, until it
// is kept, and takes it; nil if none is at work or kept, or ctx ended.
func (s *Sender) waitKept(ctx context.Context) *smtpConn {
	for {
		s.mu.Lock()
		if conn := s.takeLocked(); conn != nil {
			s.mu.Unlock()
			return conn
		}
		if s.busy == 0 || s.closed {
			s.mu.Unlock()
			return nil
		}
		if s.freed == nil {
			s.freed = make(chan struct{})
		}
		freed := s.freed
		s.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return nil
		}
	}
}

// end closes a busy connection.
func (s *Sender) end(h *connHolder) {
	h.close()
	s.mu.Lock()
	s.release()
	s.mu.Unlock()
}

// release marks a busy connection kept or ended, waking waitKept.
// s.mu is held.
func (s *Sender) release() {
	s.busy--
	if s.freed != nil {
		close(s.freed)
		s.freed = nil
	}
}

// dial opens a connection: TCP, TLS, greeting, EHLO and AUTH. It counts
// as busy from the start, so that a message whose own connection was
// refused meanwhile waits for this one (waitKept).
func (s *Sender) dial(ctx context.Context) (*smtpConn, error) {
	s.mu.Lock()
	s.busy++
	s.mu.Unlock()
	// Cancelling ctx drops the connection, which unblocks any command
	// (go-mail's smtp.Client.Close would wait for the command's lock).
	holder := &connHolder{}
	stop := context.AfterFunc(ctx, holder.close)
	defer stop()
	c, err := s.client.DialToSMTPClientWithContext(context.WithValue(ctx, connKey{}, holder))
	if err != nil {
		s.end(holder)
		return nil, sendFailure(ctx, StageConnect, nil, err)
	}
	return &smtpConn{c: c, holder: holder}, nil
}

// transact runs one mail transaction on conn, and keeps conn for the
// next message unless it broke: after a network error, a 421 (the server
// closes the channel) or a cancelled context it is closed.
func (s *Sender) transact(ctx context.Context, conn *smtpConn, from string, to []string, raw []byte) (err error) {
	stop := context.AfterFunc(ctx, conn.holder.close)
	resetFailed := false
	defer func() {
		stop()
		if ctx.Err() != nil || resetFailed || brokenConn(err) {
			s.end(conn.holder)
			return
		}
		s.keep(conn)
	}()
	c := conn.c
	inCanonical := canonical(raw) // read once: a mail with a map is half a megabyte
	if oneTrip(c, from, to, inCanonical) {
		_ = c.UpdateDeadline(s.textTimeout(raw))
		stage, err := sendOneTrip(c, angle(from), angle(to[0]), raw)
		switch {
		case err == nil:
			s.log.Debug("sent", "from", from, "to", to, "bytes", len(raw))
			return nil
		case stage == StageRcpt:
			resetFailed = c.Reset() != nil
			return sendFailure(ctx, StageRcpt, to, err)
		default:
			return sendFailure(ctx, stage, nil, err)
		}
	}
	_ = c.UpdateDeadline(s.cfg.Timeout)
	if err := c.Mail(angle(from)); err != nil {
		return sendFailure(ctx, StageMail, nil, err)
	}
	var refused []string
	var errs []error
	for _, r := range to {
		if err := c.Rcpt(angle(r)); err != nil {
			refused = append(refused, r)
			errs = append(errs, err)
		}
	}
	if len(refused) > 0 {
		resetFailed = c.Reset() != nil
		return sendFailure(ctx, StageRcpt, refused, errors.Join(errs...))
	}
	_ = c.UpdateDeadline(s.textTimeout(raw))
	if err := data(c, raw, inCanonical); err != nil {
		// If the connection broke after the text, the server may have
		// accepted the message all the same; a retry can deliver it
		// twice (the Message-ID is the same, so receivers can tell).
		return sendFailure(ctx, StageData, nil, err)
	}
	s.log.Debug("sent", "from", from, "to", to, "bytes", len(raw))
	return nil
}

// textTimeout is the time a mail's text may take to go: the timeout,
// and a second for each 64 KiB.
func (s *Sender) textTimeout(raw []byte) time.Duration {
	return s.cfg.Timeout + time.Duration(len(raw)/(64<<10))*time.Second
}

// sendFailure is the SendError of a stage, with the context's error when
// it was cancelled.
func sendFailure(ctx context.Context, stage SendStage, rcpts []string, err error) error {
	if ctx.Err() != nil {
		err = errors.Join(ctx.Err(), err)
	}
	return newSendError(stage, rcpts, err)
}

// brokenConn reports an error after which the connection cannot carry
// another message: a command without an SMTP reply (the connection broke
// or timed out), or a 421 (the server closes the channel).
func brokenConn(err error) bool {
	if err == nil {
		return false
	}
	var replies []*textproto.Error
	collectReplies(err, &replies)
	if len(replies) == 0 {
		return true
	}
	for _, r := range replies {
		if r.Code == 421 {
			return true
		}
	}
	var se *SendError
	return errors.As(err, &se) && se.Stage == StageRcpt && len(replies) < len(se.Recipients)
}

// take hands out the connection kept last, if any: the one most
// recently known to work.
func (s *Sender) take() *smtpConn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.takeLocked()
}

// takeLocked is take with s.mu held: the connection leaves the idle ones
// for the busy.
func (s *Sender) takeLocked() *smtpConn {
	conn := s.popIdle()
	if conn != nil {
		s.busy++
	}
	return conn
}

// popIdle takes the connection kept last off the idle ones; s.mu is held.
func (s *Sender) popIdle() *smtpConn {
	n := len(s.idle)
	if n == 0 {
		return nil
	}
	conn := s.idle[n-1]
	s.idle = s.idle[:n-1]
	return conn
}

// keep keeps conn for the next message, for IdleTimeout after the last
// message; with keptConnections kept already, or a closed Sender, it
// ends conn instead.
func (s *Sender) keep(conn *smtpConn) {
	s.mu.Lock()
	s.release()
	if len(s.idle) >= keptConnections || s.closed {
		s.mu.Unlock()
		s.quit(conn)
		return
	}
	s.idle = append(s.idle, conn)
	if s.timer == nil {
		s.timer = time.AfterFunc(s.cfg.IdleTimeout, s.closeIdle)
	} else {
		s.timer.Reset(s.cfg.IdleTimeout)
	}
	s.mu.Unlock()
}

// closeIdle ends the kept connections.
func (s *Sender) closeIdle() {
	for {
		s.mu.Lock()
		conn := s.popIdle()
		s.mu.Unlock()
		if conn == nil {
			return
		}
		s.quit(conn)
	}
}

// quit says QUIT and closes the connection; its errors matter to no one.
func (s *Sender) quit(conn *smtpConn) {
	_ = conn.c.UpdateDeadline(s.cfg.Timeout)
	if err := s.client.CloseWithSMTPClient(conn.c); err != nil {
		s.log.Debug("QUIT failed", "err", err)
	}
	conn.holder.close()
}

// Close ends the kept connections; later messages each use a connection
// of their own, closed after the message.
func (s *Sender) Close() error {
	s.mu.Lock()
	s.closed = true
	if s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Unlock()
	s.closeIdle()
	return nil
}

// connKey carries a *connHolder through the dial context to dialFunc.
type connKey struct{}

// connHolder keeps the raw connection of an smtpConn so that cancelling
// a context can close it.
type connHolder struct {
	mu     sync.Mutex
	conn   net.Conn
	closed bool
}

func (h *connHolder) set(c net.Conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		c.Close()
		return
	}
	h.conn = c
}

func (h *connHolder) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	if h.conn != nil {
		h.conn.Close()
	}
}

// dialFunc connects for go-mail, with implicit TLS for SecurityTLS, and
// records the connection in the context's connHolder.
func dialFunc(sec Security, tlsCfg *tls.Config) gomail.DialContextFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		d := &net.Dialer{}
		var conn net.Conn
		var err error
		if sec == SecurityTLS {
			conn, err = (&tls.Dialer{NetDialer: d, Config: tlsCfg}).DialContext(ctx, network, addr)
		} else {
			conn, err = d.DialContext(ctx, network, addr)
		}
		if err != nil {
			return nil, err
		}
		if h, ok := ctx.Value(connKey{}).(*connHolder); ok {
			h.set(conn)
		}
		return conn, nil
	}
}

func angle(addr string) string {
	addr = strings.TrimSpace(addr)
	if strings.HasPrefix(addr, "<") && strings.HasSuffix(addr, ">") {
		return addr
	}
	return "<" + addr + ">"
}

// SendStage is the step of an SMTP submission that failed.
type SendStage string

// The stages of SendError.
const (
	// StageConnect covers TCP, TLS, the greeting, EHLO and AUTH. A
	// permanent failure here (535 authentication failed, a certificate
	// that does not verify) is a configuration problem, not the message's
	// fault: keep the message and alert the operator.
	StageConnect SendStage = "connect"
	StageMail    SendStage = "MAIL FROM"
	StageRcpt    SendStage = "RCPT TO"
	StageData    SendStage = "DATA"
)

// SendError is the error of Send and SendRaw.
type SendError struct {
	Stage SendStage
	// Code is the SMTP reply code, or 0 when there was no reply (network
	// failure, TLS, cancelled context).
	Code int
	// Recipients are the refused recipients (StageRcpt only).
	Recipients []string
	// Temporary reports whether a later retry may succeed: 4xx replies,
	// refused or broken connections, timeouts. 5xx replies (550 unknown
	// user, 554 transaction failed) are permanent.
	Temporary bool
	Err       error
}

func (e *SendError) Error() string {
	var b strings.Builder
	b.WriteString("mailbox: send: ")
	b.WriteString(string(e.Stage))
	if len(e.Recipients) > 0 {
		b.WriteString(" " + strings.Join(e.Recipients, ", "))
	}
	if e.Temporary {
		b.WriteString(" (temporary)")
	} else {
		b.WriteString(" (permanent)")
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *SendError) Unwrap() error { return e.Err }

func newSendError(stage SendStage, rcpts []string, err error) *SendError {
	code, temp := classify(err)
	return &SendError{Stage: stage, Code: code, Recipients: rcpts, Temporary: temp, Err: err}
}

// classify returns the SMTP code in err and whether err is temporary. With
// several SMTP replies (several refused recipients) it is temporary only if
// all are.
func classify(err error) (code int, temporary bool) {
	var replies []*textproto.Error
	collectReplies(err, &replies)
	if len(replies) > 0 {
		temporary = true
		for _, r := range replies {
			if code == 0 || r.Code >= 500 {
				code = r.Code
			}
			if r.Code < 400 || r.Code >= 500 {
				temporary = false
			}
		}
		return code, temporary
	}
	return 0, isNetworkError(err)
}

func collectReplies(err error, out *[]*textproto.Error) {
	switch e := err.(type) {
	case nil:
		return
	case *textproto.Error:
		*out = append(*out, e)
		return
	case interface{ Unwrap() []error }:
		for _, x := range e.Unwrap() {
			collectReplies(x, out)
		}
		return
	case interface{ Unwrap() error }:
		collectReplies(e.Unwrap(), out)
	}
}

// isNetworkError reports failures that a later attempt may not meet: no
// connection, a broken one, a timeout, a cancelled context. A TLS
// certificate that does not verify is not one of them.
func isNetworkError(err error) bool {
	var certErr *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	if errors.As(err, &certErr) || errors.As(err, &unknownCA) || errors.As(err, &hostErr) {
		return false
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return !dnsErr.IsNotFound
	}
	var netErr net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ETIMEDOUT),
		errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return true
	case errors.As(err, &netErr):
		return true
	}
	return false
}

// ServerUnavailable reports a failure of the server rather than of the
// message: no session could be opened (StageConnect: the server is
// unreachable, refuses the connection or EHLO, or AUTH failed), or the
// server is closing the channel (421). Other messages would meet the same
// failure, and the message is not to blame; IsTemporary still tells
// whether waiting may help (a 535 at AUTH will not).
func ServerUnavailable(err error) bool {
	var se *SendError
	if !errors.As(err, &se) {
		return false
	}
	return se.Stage == StageConnect || se.Code == 421
}

// IsTemporary reports whether a send failed in a way a later retry may
// overcome: a 4xx reply, a refused, broken or timed-out connection. It is
// false for 5xx replies, for errors without a network cause (a malformed
// address) and for nil. It understands *SendError and go-mail's
// *mail.SendError.
func IsTemporary(err error) bool {
	if err == nil {
		return false
	}
	var se *SendError
	if errors.As(err, &se) {
		return se.Temporary
	}
	var ge *gomail.SendError
	if errors.As(err, &ge) {
		return ge.IsTemp() || (ge.ErrorCode() == 0 && isNetworkError(err))
	}
	_, temp := classify(err)
	return temp
}
