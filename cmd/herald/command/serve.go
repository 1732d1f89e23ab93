package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"herald/pbem/games"
	"herald/pbem/mailbox"
	"herald/pbem/store"
	"herald/pbem/web"
)

func init() {
	register(&Command{
		Name:  "serve",
		Usage: "[--config FILE] [--store FILE | --temp] [--imap-addr ADDR] [--smtp-addr ADDR]",
		Short: "run the mail daemon (embedded mail server without --config)",
		Long: `
Serve is Herald's main job: it watches a mailbox, applies the orders players
mail in, and mails both players the results.

With --config FILE (see config.example.yaml) it serves a real mailbox over
IMAP and SMTP. Without it, it starts an embedded mail server on loopback
with the accounts herald, alice and bob (password = name), creates a sample
game of Crécy between alice@localhost and bob@localhost, and prints how to
point a mail client at it. Its store (which holds the installation's dice
signing key and secret) is the file herald/embedded.db in your state
directory ($XDG_STATE_HOME, else ~/.local/state), readable by you only, or
the file --store names; either is created if missing and kept, so running
serve again goes on where the games stood: since the embedded server keeps
its mail in memory, each player is then mailed Herald's latest mail to him
again. --temp uses a temporary store instead, deleted when serve stops.

With a web section in the configuration, or --web ADDR in the embedded mode,
it also serves a read-only status page of the ladders and games, on
loopback unless the configuration says public: true (docs/web.md).

It stops gracefully on SIGINT, SIGTERM or SIGHUP. Run through "go run", it
also stops when the go command that started it is gone (go run does not
pass SIGTERM on to the program it runs).`,
		Flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (YAML)")
			fs.String("store", "", "embedded mode: the store file to create or resume, and keep (default herald/embedded.db in the state directory)")
			fs.Bool("temp", false, "embedded mode: a temporary store, deleted when serve stops")
			fs.String("imap-addr", "127.0.0.1:1143", "embedded IMAP server's address (without --config)")
			fs.String("smtp-addr", "127.0.0.1:1025", "embedded SMTP server's address (without --config)")
			fs.String("web", "", "embedded mode: serve the status page on this loopback address, such as 127.0.0.1:8080 (with --config: its web section)")
		},
		Run: runServe,
	})
}

func runServe(env Env, fs *flag.FlagSet) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if underGoRun() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		ctx = orphanContext(ctx, os.Getppid, t.C)
	}
	if path := fs.Lookup("config").Value.String(); path != "" {
		if fs.Lookup("web").Value.String() != "" {
			return fail(env, "serve", errors.New("--web is for the embedded mode: with --config, the configuration's web section sets the status page"))
		}
		cfg, err := LoadConfig(path)
		if err != nil {
			return fail(env, "serve", err)
		}
		daemonGC(os.Getenv, cfg.mapEnabled())
		return exit(env, "serve", serveConfigured(ctx, cfg))
	}
	local := localSetup{IMAPAddr: fs.Lookup("imap-addr").Value.String(), SMTPAddr: fs.Lookup("smtp-addr").Value.String(),
		Store: fs.Lookup("store").Value.String(), Temp: fs.Lookup("temp").Value.String() == "true", Web: fs.Lookup("web").Value.String()}
	if local.Web != "" {
		if err := web.CheckListen(local.Web, false); err != nil {
			return fail(env, "serve", fmt.Errorf("--web: %w", err))
		}
	}
	if local.Temp && local.Store != "" {
		return fail(env, "serve", fmt.Errorf("--temp and --store exclude each other: --temp is a throwaway store, --store a kept one"))
	}
	return exit(env, "serve", serveEmbedded(ctx, env, local))
}

// daemonGC lets the heap grow to five times what is live before the
// garbage collector runs when the mails carry no maps, unless the
// operator set GOGC: the daemon then keeps little (the store is bbolt's
// memory map) but allocates much per mail (templates, MIME), and on a
// 2,000-mail burst this spent a fifth to a quarter less CPU, for 20–40
// MiB more memory. With maps, the caches of grounds, legend lines and
// glyphs are live, five times them was 500 MiB on that burst for no
// mail more a second: Go's default then (docs/performance.md).
func daemonGC(getenv func(string) string, maps bool) {
	if getenv("GOGC") == "" && !maps {
		debug.SetGCPercent(400)
	}
}

func exit(env Env, name string, err error) int {
	if err != nil {
		return fail(env, name, err)
	}
	return 0
}

// serveConfigured serves the mailbox of a configuration file.
func serveConfigured(ctx context.Context, cfg *Config) error {
	log := cfg.logger(os.Stderr)
	st, err := store.Open(cfg.Store)
	if err != nil {
		return err
	}
	defer st.Close()
	svc, err := games.New(games.Config{Store: st, Address: cfg.Address, Name: cfg.Name, Organizers: cfg.Organizers,
		MaxMailBytes: cfg.Limits.MaxMailBytes, PerHour: cfg.Limits.PerHour,
		AnswersPerHour: cfg.Limits.AnswersPerHour, Map: mapFunc(cfg.mapEnabled()), ArmyMap: armyMapFunc(cfg.mapEnabled()), Pictures: cfg.mapEnabled(), Logger: log})
	if err != nil {
		return err
	}
	in, err := mailbox.NewIntake(mailbox.IntakeConfig{
		Addr: cfg.IMAP.Addr, Security: cfg.IMAP.Security, Username: cfg.IMAP.Username, Password: cfg.IMAP.Password,
		Mailbox: cfg.IMAP.Mailbox, ProcessedMailbox: cfg.IMAP.Processed, RejectedMailbox: cfg.IMAP.Rejected,
		PollInterval: cfg.IMAP.Poll, UseIdle: mailbox.IdleMode(cfg.IMAP.Idle), MaxMessageBytes: svc.MaxMailBytes(), Logger: log,
	})
	if err != nil {
		return err
	}
	sender, err := mailbox.NewSender(mailbox.SenderConfig{Addr: cfg.SMTP.Addr, Security: cfg.SMTP.Security,
		Username: cfg.SMTP.Username, Password: cfg.SMTP.Password, HELO: cfg.SMTP.HELO, Logger: log})
	if err != nil {
		return err
	}
	defer sender.Close() // QUIT on the connection kept between replies
	if cfg.Web != nil {
		stopWeb, err := startWeb(cfg.Web.Listen, svc, log)
		if err != nil {
			return err
		}
		defer stopWeb()
	}
	log.Info("serving", "address", cfg.Address, "imap", cfg.IMAP.Addr, "smtp", cfg.SMTP.Addr, "store", cfg.Store)
	return svc.Serve(ctx, in, sender.SendRaw, time.Minute)
}

// startWeb serves the status page of svc's games on addr (checked by
// web.CheckListen) until the returned stop is called. The ladders' pages
// appear once the service can list its ladders (web.LadderSource).
func startWeb(addr string, svc *games.Service, log *slog.Logger) (stop func(), err error) {
	wcfg := web.Config{Source: svc, Logger: log}
	if ls, ok := any(svc).(web.LadderSource); ok {
		wcfg.Ladders = ls
	}
	h, err := web.New(wcfg)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("web status page: %w", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("web status page stopped", "err", err)
		}
	}()
	log.Info("web status page", "url", "http://"+ln.Addr().String()+"/")
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		<-done
	}, nil
}

// localSetup is the zero-configuration mode's mail server.
// Store is the store file to keep (empty: the default one, or with Temp a
// temporary one deleted on exit).
type localSetup struct {
	IMAPAddr, SMTPAddr, Store string
	Temp                      bool
	// Web, when set, is the status page's loopback address.
	Web string
}

// The embedded server's accounts: Herald and two players.
var localUsers = []mailbox.User{{Name: "herald", Password: "herald"}, {Name: "alice", Password: "alice"}, {Name: "bob", Password: "bob"}}

// serveEmbedded runs Herald with zero configuration: an embedded mail
// server, a store and a sample game, or the games of local.Store again.
func serveEmbedded(ctx context.Context, env Env, local localSetup) error {
	log := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	path, kept, cleanup, err := localStore(local)
	if err != nil {
		return err
	}
	// Deferred before the store's Close, so it runs after it.
	defer cleanup()
	emb, err := mailbox.NewEmbedded(mailbox.EmbeddedConfig{IMAPAddr: local.IMAPAddr, SMTPAddr: local.SMTPAddr, Users: localUsers, Logger: log})
	if err != nil {
		return err
	}
	if err := emb.Start(); err != nil {
		return fmt.Errorf("embedded mail server: %w (another herald serve running? choose other ports with --imap-addr and --smtp-addr)", err)
	}
	defer emb.Close()
	st, err := store.Open(path)
	if err != nil {
		return err
	}
	defer st.Close()
	svc, err := games.New(games.Config{Store: st, Address: "herald@localhost", Map: mapFunc(true), ArmyMap: armyMapFunc(true), Pictures: true, Logger: log})
	if err != nil {
		return err
	}
	intro, err := localGames(svc)
	if err != nil {
		return err
	}
	in, sender, err := localClients(emb, svc.MaxMailBytes(), log)
	if err != nil {
		return err
	}
	defer sender.Close()
	if local.Web != "" {
		stopWeb, err := startWeb(local.Web, svc, log)
		if err != nil {
			return err
		}
		defer stopWeb()
		intro += "\nThe status page is at http://" + local.Web + "/"
	}
	fmt.Fprintf(env.Stdout, `%s

Point any mail client at the embedded mail server (no TLS, loopback only):
  IMAP  %s   user alice, password alice   (or bob / bob)
  SMTP  %s   the same user and password
Each player finds Herald's latest mail in his inbox; reply to it with orders
between the block's markers.

Herald's store is the file %s
%s

Ready. Stop with Ctrl-C.
`, intro, emb.IMAPAddr(), emb.SMTPAddr(), path, kept)
	return svc.Serve(ctx, in, sender.SendRaw, 10*time.Second)
}

// localStore is the embedded mode's store file and a sentence on its
// fate. The store holds the signing key and the installation secret: a
// temporary one does not outlive the run (cleanup removes it), a kept one
// sits where only its owner reads it.
func localStore(local localSetup) (path, kept string, cleanup func(), err error) {
	cleanup = func() {}
	switch {
	case local.Temp:
		dir, err := os.MkdirTemp("", "herald-serve-")
		if err != nil {
			return "", "", nil, err
		}
		return filepath.Join(dir, "herald.db"), "It is temporary and is deleted when Herald stops.",
			func() { os.RemoveAll(dir) }, nil
	case local.Store == "":
		dir, err := stateDir()
		if err != nil {
			return "", "", nil, fmt.Errorf("no state directory for the store (%w): name a file with --store, or use --temp", err)
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", "", nil, err
		}
		path = filepath.Join(dir, "embedded.db")
		return path, "It is kept: run herald serve again to go on (herald serve --temp for a throwaway store).", cleanup, nil
	}
	path = local.Store
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return path, "To go on after a restart: herald serve --store " + path, cleanup, nil
}

// stateDir is Herald's directory for data it keeps between runs, as the
// XDG Base Directory specification places it: $XDG_STATE_HOME/herald,
// else ~/.local/state/herald.
func stateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "herald"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "state", "herald"), nil
}

// localGames creates the sample game in a new store, or, in a store that
// has games, mails each player Herald's latest mail to him again (the
// embedded server lost its mail with the last run). It says which.
func localGames(svc *games.Service) (string, error) {
	list, err := svc.Games()
	if err != nil {
		return "", err
	}
	if len(list) == 0 {
		g, err := svc.CreateGame(games.NewGame{Scenario: "crecy", Players: []games.PlayerSpec{
			{Side: "English", Address: "alice@localhost"}, {Side: "French", Address: "bob@localhost"}}})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("Herald is serving game %s (Crécy): the English are alice@localhost, the French bob@localhost.", g.ID), nil
	}
	n, err := svc.Remail(time.Now().UTC().Format("20060102T150405"))
	if err != nil {
		return "", err
	}
	var lines []string
	for _, g := range list {
		lines = append(lines, fmt.Sprintf("  %s (%s), move %d: %s", g.ID, g.Scenario, g.Move, g.Waiting))
	}
	return fmt.Sprintf("Herald resumes the %d game(s) of its store, and has mailed the players' latest %d mail(s) to them again:\n%s",
		len(list), n, strings.Join(lines, "\n")), nil
}

// localClients are Herald's IMAP intake, which fetches only the header
// of a mail over maxBytes, and SMTP sender on the embedded server.
func localClients(emb *mailbox.Embedded, maxBytes int64, log *slog.Logger) (*mailbox.Intake, *mailbox.Sender, error) {
	in, err := mailbox.NewIntake(mailbox.IntakeConfig{Addr: emb.IMAPAddr(), Username: "herald", Password: "herald",
		MaxMessageBytes: maxBytes, Logger: log})
	if err != nil {
		return nil, nil, err
	}
	sender, err := mailbox.NewSender(mailbox.SenderConfig{Addr: emb.SMTPAddr(), HELO: "localhost", Logger: log})
	return in, sender, err
}
