// Command burst measures the real herald binary on a burst of order mails
// (issue 17; docs/performance.md, "Throughput and latency"). It is the
// mail server: an embedded IMAP and SMTP server (mailbox.Embedded) in this
// process, with Herald's account and two players per game, while
// `herald serve --config` runs as a separate process against it.
//
// The first run prepares, in -work: a store with -games games of Crécy
// (made with the library herald game new calls, games.Service.CreateGame,
// 2,000 invocations of the binary would take minutes), whose welcomes
// herald serve then sends (maps off, to be quick); the games play a few
// rounds through herald serve, their players scripted as herald demo's
// are (games.Autoplayer) and each game's varied, so that their positions
// and maps differ; the order mails of the next round are kept
// (orders-after-3-rounds-N/). Every run copies that store, starts herald serve on it with
// -maps, waits for it to log in, puts all the order mails into Herald's
// INBOX at once and measures until the SMTP server has accepted both
// players' replies to each: mails/s is the mails over that time.
//
// The players' replies go to the embedded server's INBOXes, in memory
// (-replies memory, the measure of issue 17's goal), or to a spool
// directory that a second SMTP server in this process writes, each
// reply a file (-replies disk), synced before it is accepted (-replies
// fsync): what the mail server's keeping of the mail costs (spool.go).
// -serverprofile writes this process's CPU profile over the burst.
//
//	go build -o /tmp/herald ./cmd/herald && go run ./tools/burst -herald /tmp/herald -work /tmp/burst -maps=true
//
// tools/burst.sh builds both and runs it several times.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"herald/pbem/games"
	"herald/pbem/mailbox"
	"herald/pbem/store"
)

const heraldAddr = "herald@localhost"

func main() {
	bin := flag.String("herald", "", "the herald binary")
	work := flag.String("work", "", "working directory, kept between runs (the prepared store and order mails)")
	n := flag.Int("games", 2000, "games, one order mail each")
	maps := flag.Bool("maps", true, "result mails carry their map (config map:)")
	timeout := flag.Duration("timeout", 15*time.Minute, "give up after")
	profile := flag.String("serverprofile", "", "write the mail server's CPU profile over the burst to this file")
	replies := flag.String("replies", repliesMemory, "where the mail server keeps the players' replies during the burst: memory (the embedded server's INBOXes), disk (a spool directory) or fsync (the spool, synced before each 250)")
	flag.Parse()
	if *bin == "" || *work == "" || *replies != repliesMemory && *replies != repliesDisk && *replies != repliesFsync {
		fmt.Fprintln(os.Stderr, "usage: burst -herald BIN -work DIR [-games N] [-maps=true|false] [-replies memory|disk|fsync] [-serverprofile FILE]")
		os.Exit(2)
	}
	if err := run(*bin, *work, *n, *maps, *timeout, *replies, *profile); err != nil {
		fmt.Fprintln(os.Stderr, "burst:", err)
		os.Exit(1)
	}
}

// server is the mail server: Herald's account and the players'.
type server struct {
	emb      *mailbox.Embedded
	accepted atomic.Int64 // mails the SMTP server took
	first    atomic.Int64 // when it took the first (UnixNano), 0: none yet
}

// count counts a mail the SMTP server took.
func (s *server) count() {
	s.first.CompareAndSwap(0, time.Now().UnixNano())
	s.accepted.Add(1)
}

func player(side string, i int) string { return fmt.Sprintf("%s%04d", side, i) }
func gameID(i int) string              { return fmt.Sprintf("crecy-b%04d", i) }

func newServer(n int) (*server, error) {
	users := []mailbox.User{{Name: "herald", Password: "herald"}}
	for i := range n {
		for _, side := range []string{"e", "f"} {
			users = append(users, mailbox.User{Name: player(side, i), Password: "x"})
		}
	}
	s := &server{}
	emb, err := mailbox.NewEmbedded(mailbox.EmbeddedConfig{Users: users, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		SMTPHook: func(stage mailbox.SMTPStage, _, _ string) error {
			if stage == mailbox.SMTPData {
				s.count()
			}
			return nil
		}})
	if err != nil {
		return nil, err
	}
	if err := emb.Start(); err != nil {
		return nil, err
	}
	s.emb = emb
	return s, nil
}

func run(bin, work string, n int, maps bool, timeout time.Duration, replies, profile string) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(work, 0o700); err != nil {
		return err
	}
	srv, err := newServer(n)
	if err != nil {
		return err
	}
	defer srv.emb.Close()
	tmpl := filepath.Join(work, fmt.Sprintf("prepared-%d.db", n))
	orders := filepath.Join(work, fmt.Sprintf("orders-after-%d-rounds-%d", warmRounds, n))
	if _, err := os.Stat(filepath.Join(orders, "done")); err != nil {
		if err := prepare(srv, bin, work, tmpl, orders, n); err != nil {
			return fmt.Errorf("prepare: %w", err)
		}
	}
	raws, err := readOrders(orders, n)
	if err != nil {
		return err
	}

	db := filepath.Join(work, "run.db")
	os.Remove(db)
	if err := copyFile(db, tmpl); err != nil {
		return err
	}
	defer os.Remove(db)
	smtpAddr := srv.emb.SMTPAddr()
	if replies != repliesMemory {
		sp, err := startSpool(srv, filepath.Join(work, "spool"), replies == repliesFsync)
		if err != nil {
			return err
		}
		defer sp.close()
		smtpAddr = sp.addr()
	}
	h, err := startHerald(srv, bin, work, db, smtpAddr, maps)
	if err != nil {
		return err
	}
	defer h.stop()
	// Wait for herald serve to log in and IDLE: its outbox has nothing to
	// send, so nothing tells; its log says when it serves, and a second
	// more covers the IMAP login and the first look at INBOX.
	if err := h.waitLog("serving", 10*time.Second); err != nil {
		return err
	}
	time.Sleep(time.Second)
	if got := srv.accepted.Load(); got != 0 {
		return fmt.Errorf("herald sent %d mails before the burst", got)
	}

	// The rounds of a first run's preparation went through the same
	// mailboxes: count what the burst adds.
	filedBefore := filed(srv)
	stopProfile := func() {}
	if profile != "" {
		if stopProfile, err = profileCPU(profile); err != nil {
			return err
		}
		defer stopProfile() // if the burst fails; stopping twice does nothing more
	}
	server0 := selfCPU()
	heraldFaults0, serverFaults0 := minorFaults(h.cmd.Process.Pid), minorFaults(os.Getpid())
	start := time.Now()
	for _, raw := range raws {
		if err := srv.emb.Deliver(heraldAddr, raw); err != nil {
			return err
		}
	}
	injected := time.Since(start)
	want := int64(2 * n)
	deadline := start.Add(timeout)
	if err := h.await(srv, want, deadline, 2*time.Millisecond); err != nil {
		return fmt.Errorf("the burst: %w", err)
	}
	elapsed := time.Since(start)
	server := selfCPU() - server0
	stopProfile()
	heraldFaults, serverFaults := minorFaults(h.cmd.Process.Pid)-heraldFaults0, minorFaults(os.Getpid())-serverFaults0
	first := time.Unix(0, srv.first.Load()).Sub(start)

	// Every mail applied, nothing else sent.
	time.Sleep(500 * time.Millisecond)
	counts := filed(srv)
	processed, rejected := counts[0]-filedBefore[0], counts[1]-filedBefore[1]
	user, sys, rss := h.stop()
	fmt.Printf("games %d, maps %v, replies %s: %d order mails, %d replies accepted in %.2f s (mails injected in %v, first reply after %v)\n",
		n, maps, replies, n, srv.accepted.Load(), elapsed.Seconds(), injected.Round(time.Millisecond), first.Round(time.Millisecond))
	fmt.Printf("  herald: %d mails filed as processed, %d as rejected; CPU %.1f s user, %.1f s system; at most %d MiB resident; %d page faults\n",
		processed, rejected, user.Seconds(), sys.Seconds(), rss>>20, heraldFaults)
	fmt.Printf("  mail server (this process, over the burst): CPU %.1f s, %.2f ms a mail; %d page faults\n",
		server.Seconds(), float64(server.Microseconds())/1000/float64(n), serverFaults)
	fmt.Printf("  %.1f mails/s\n", float64(n)/elapsed.Seconds())
	if processed != n || rejected != 0 || srv.accepted.Load() != want {
		return fmt.Errorf("want %d mails processed, none rejected and %d replies (see %s)", n, want, h.logPath)
	}
	applied, err := appliedOf(h.logPath)
	if err == nil && applied != n {
		return fmt.Errorf("herald's log shows %d mails applied, want %d (see %s)", applied, n, h.logPath)
	}
	return nil
}

// profileCPU starts this process's CPU profile into path; the function
// it returns stops it and closes the file.
func profileCPU(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// prepare makes the store of n fresh games, has herald serve send their
// welcomes and play warmRounds rounds, and keeps the order mails of the
// next round.
func prepare(srv *server, bin, work, tmpl, orders string, n int) error {
	os.RemoveAll(orders)
	os.Remove(tmpl)
	t0 := time.Now()
	st, err := store.Open(tmpl)
	if err != nil {
		return err
	}
	svc, err := games.New(games.Config{Store: st, Address: heraldAddr, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		st.Close()
		return err
	}
	for i := range n {
		_, err := svc.CreateGame(games.NewGame{ID: gameID(i), Scenario: "crecy", Players: []games.PlayerSpec{
			{Side: "English", Address: player("e", i) + "@localhost"}, {Side: "French", Address: player("f", i) + "@localhost"}}})
		if err != nil {
			st.Close()
			return err
		}
	}
	if err := st.Close(); err != nil {
		return err
	}
	fmt.Printf("prepared %d games in %.1f s; sending the welcomes (maps off)\n", n, time.Since(t0).Seconds())
	t0 = time.Now()
	h, err := startHerald(srv, bin, work, tmpl, srv.emb.SMTPAddr(), false)
	if err != nil {
		return err
	}
	deadline := t0.Add(10 * time.Minute)
	if err := h.await(srv, int64(2*n), deadline, 10*time.Millisecond); err != nil {
		h.stop()
		return fmt.Errorf("the welcomes: %w", err)
	}
	fmt.Printf("%d welcomes sent in %.1f s; playing %d rounds\n", 2*n, time.Since(t0).Seconds(), warmRounds)

	// A few rounds first, each game's players varied (Autoplayer.Vary)
	// and its dice its own: the games' positions part, and so do the maps
	// the burst draws. (From one position, 2,000 games drew a handful.)
	p := &answerer{srv: srv, n: n, players: map[string]*games.Autoplayer{}, seen: map[string]int{}}
	for round := range warmRounds {
		mails, err := p.answers()
		if err != nil {
			return err
		}
		srv.accepted.Store(0)
		for _, raw := range mails {
			if err := srv.emb.Deliver(heraldAddr, raw); err != nil {
				return err
			}
		}
		if err := h.await(srv, int64(2*n), deadline, 10*time.Millisecond); err != nil {
			h.stop()
			return fmt.Errorf("round %d: %w", round+1, err)
		}
	}
	h.stop()
	// A reply accepted just before the stop may still be in the outbox
	// (at least once): it was sent.
	if err := emptyOutbox(tmpl); err != nil {
		return err
	}
	srv.accepted.Store(0)
	srv.first.Store(0)
	mails, err := p.answers()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(orders, 0o700); err != nil {
		return err
	}
	for i, raw := range mails {
		if err := os.WriteFile(filepath.Join(orders, fmt.Sprintf("%04d.eml", i)), raw, 0o600); err != nil {
			return err
		}
	}
	fmt.Printf("prepared in %.1f s\n", time.Since(t0).Seconds())
	return os.WriteFile(filepath.Join(orders, "done"), nil, 0o600)
}

// warmRounds are the rounds every game plays before the burst.
const warmRounds = 3

// answerer plays the games' players: each answers the mails of his
// INBOX that ask him for orders, one order mail a game each time.
type answerer struct {
	srv     *server
	n       int
	players map[string]*games.Autoplayer // by player; one learns its game
	seen    map[string]int               // mails of his INBOX already read
}

func (p *answerer) answers() ([][]byte, error) {
	var out [][]byte
	for i := range p.n {
		before := len(out)
		for _, side := range []string{"e", "f"} {
			name := player(side, i)
			msgs, err := p.srv.emb.Messages(name, "INBOX")
			if err != nil {
				return nil, err
			}
			ap := p.players[name]
			if ap == nil {
				ap = &games.Autoplayer{Address: name + "@localhost", Vary: i}
				p.players[name] = ap
			}
			for _, m := range msgs[p.seen[name]:] {
				reply, err := ap.Reply(m.Raw)
				if err != nil || reply == nil {
					continue
				}
				raw, err := mailbox.Compose(*reply)
				if err != nil {
					return nil, err
				}
				out = append(out, raw)
			}
			p.seen[name] = len(msgs)
		}
		if len(out) != before+1 {
			return nil, fmt.Errorf("game %d: %d order mails, want one", i, len(out)-before)
		}
	}
	return out, nil
}

// filed is how many mails Herald's Processed and Rejected mailboxes hold.
func filed(srv *server) [2]int {
	processed, _ := srv.emb.Messages("herald", "Processed")
	rejected, _ := srv.emb.Messages("herald", "Rejected")
	return [2]int{len(processed), len(rejected)}
}

// emptyOutbox records every mail left in a store's outbox as delivered.
func emptyOutbox(path string) error {
	st, err := store.Open(path)
	if err != nil {
		return err
	}
	err = st.Update(func(tx *store.Tx) error { return tx.DeliveredAll() })
	return errors.Join(err, st.Close())
}

func readOrders(dir string, n int) ([][]byte, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.eml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	if len(files) != n {
		return nil, fmt.Errorf("%s: %d order mails, want %d", dir, len(files), n)
	}
	var raws [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		raws = append(raws, b)
	}
	return raws, nil
}

// herald is a running herald serve.
type herald struct {
	cmd     *exec.Cmd
	logPath string
	done    chan struct{}
}

func startHerald(srv *server, bin, work, db, smtpAddr string, maps bool) (*herald, error) {
	cfg := fmt.Sprintf(`address: %s
store: %s
imap:
  addr: %s
  security: plain
  username: herald
  password: herald
smtp:
  addr: %s
  security: plain
  helo: burst.localhost
limits:
  mails_per_hour: 60
map: %v
log:
  level: info
`, heraldAddr, db, srv.emb.IMAPAddr(), smtpAddr, maps)
	cfgPath := filepath.Join(work, "herald.yaml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		return nil, err
	}
	logPath := filepath.Join(work, "herald.log")
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "serve", "--config", cfgPath)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	h := &herald{cmd: cmd, logPath: logPath, done: make(chan struct{})}
	go func() { cmd.Wait(); logf.Close(); close(h.done) }()
	return h, nil
}

func (h *herald) exited() bool {
	select {
	case <-h.done:
		return true
	default:
		return false
	}
}

// stop ends herald serve (SIGTERM, a graceful stop) and returns the CPU
// time it used and its largest resident memory: its own, read from
// /proc before it ends. (The rusage of a child started by fork and exec
// can report its parent's: Linux keeps the larger of the memory before
// the exec and after, and here that is this process, which holds every
// mail of a first run's rounds.)
func (h *herald) stop() (user, sys time.Duration, maxRSS int64) {
	if !h.exited() {
		maxRSS = peakRSS(h.cmd.Process.Pid)
		h.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-h.done:
		case <-time.After(20 * time.Second):
			h.cmd.Process.Kill()
			<-h.done
		}
	}
	if ps := h.cmd.ProcessState; ps != nil {
		return ps.UserTime(), ps.SystemTime(), maxRSS
	}
	return 0, 0, 0
}

// await waits until the mail server has accepted want mails, looking
// every poll; an error when herald serve stopped or deadline passed.
func (h *herald) await(srv *server, want int64, deadline time.Time, poll time.Duration) error {
	for srv.accepted.Load() < want {
		if h.exited() {
			return fmt.Errorf("herald serve stopped: %d of %d mails accepted (see %s)", srv.accepted.Load(), want, h.logPath)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d mails accepted by %s (see %s)", srv.accepted.Load(), want, deadline.Format(time.TimeOnly), h.logPath)
		}
		time.Sleep(poll)
	}
	return nil
}

// selfCPU is the CPU time this process has used, user and system: the
// mail server's, with the little the burst's own polling adds.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// minorFaults is how many minor page faults a process has taken, 0 if
// it cannot be read: mostly pages of memory it touched a first time. On a
// virtual machine a fault can cost microseconds, and the mail server
// keeps every reply in memory (docs/performance.md, thirteenth pass).
func minorFaults(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command's name, in parentheses, which may hold
	// spaces and parentheses: state, ppid, pgrp, session, tty_nr, tpgid,
	// flags, minflt.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 8 {
		return 0
	}
	v, _ := strconv.ParseInt(f[7], 10, 64)
	return v
}

// peakRSS is a process's largest resident memory so far (VmHWM), 0 if
// it cannot be read.
func peakRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// waitLog waits until herald's log holds s.
func (h *herald) waitLog(s string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(h.logPath)
		if strings.Contains(string(b), s) {
			return nil
		}
		if h.exited() {
			return fmt.Errorf("herald serve stopped: %s", b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return errors.New("herald serve did not start in time (see " + h.logPath + ")")
}

// appliedOf counts the mails herald's log says it applied.
func appliedOf(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	n := strings.Count(string(b), "outcome=applied")
	if n == 0 {
		return 0, errors.New("no outcome=applied in the log")
	}
	return n, nil
}

func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
