package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/emersion/go-smtp"
)

// Where the players' replies go during the measured burst (-replies).
// The embedded server keeps every mail in memory (imapmemserver), which
// on the 2-core machine costs more than Herald's side of sending them:
// a reply with its map is some 250 kB, kept in a buffer that doubled to
// 256 kB as it was read, and each fresh page of memory is a page fault
// of about 12 µs there (docs/performance.md, "Fourteenth pass"). A
// mail server that writes its mail to disk, as a real one's spool does,
// is the other measure: the same SMTP server (go-smtp) and the same
// counting, each reply written to a file of its own, with or without an
// fsync before the reply is accepted.
const (
	repliesMemory = "memory" // the embedded server's players' INBOXes
	repliesDisk   = "disk"   // a spool directory, written, not synced
	repliesFsync  = "fsync"  // the same, synced before 250
)

// spool is an SMTP server that writes each mail to a file in dir and
// counts it in srv's counters as the embedded server's hook does.
type spool struct {
	srv   *server
	dir   string
	sync  bool
	files atomic.Int64
	s     *smtp.Server
	ln    net.Listener
}

func startSpool(srv *server, dir string, sync bool) (*spool, error) {
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	sp := &spool{srv: srv, dir: dir, sync: sync, ln: ln}
	sp.s = smtp.NewServer(sp)
	sp.s.Domain = "spool.localhost"
	sp.s.ReadTimeout, sp.s.WriteTimeout = time.Minute, time.Minute
	go sp.s.Serve(ln)
	return sp, nil
}

func (sp *spool) addr() string { return sp.ln.Addr().String() }

func (sp *spool) close() {
	sp.s.Close()
	os.RemoveAll(sp.dir)
}

// NewSession makes the spool a go-smtp Backend.
func (sp *spool) NewSession(*smtp.Conn) (smtp.Session, error) { return &spoolSession{sp: sp}, nil }

// spoolSession takes any sender and recipients: the burst counts the
// replies, not whom they are for.
type spoolSession struct{ sp *spool }

func (s *spoolSession) Reset()                               {}
func (s *spoolSession) Logout() error                        { return nil }
func (s *spoolSession) Mail(string, *smtp.MailOptions) error { return nil }
func (s *spoolSession) Rcpt(string, *smtp.RcptOptions) error { return nil }

// Data writes the mail to a file of its own, once whatever its
// recipients (Herald sends a reply to one player).
func (s *spoolSession) Data(r io.Reader) error {
	path := filepath.Join(s.sp.dir, fmt.Sprint(s.sp.files.Add(1)))
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	if err == nil && s.sp.sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "spool: " + err.Error()}
	}
	s.sp.srv.count()
	return nil
}
