package command

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"herald/pbem/games"
	"herald/pbem/mailbox"
	"herald/pbem/store"
)

func init() {
	register(&Command{
		Name:  "serve",
		Usage: "[--config FILE] [--imap-addr ADDR] [--smtp-addr ADDR]",
		Short: "run the mail daemon (embedded mail server without --config)",
		Long: `
Serve is Herald's main job: it watches a mailbox, applies the orders players
mail in, and mails both players the results.

With --config FILE (see config.example.yaml) it serves a real mailbox over
IMAP and SMTP. Without it, it starts an embedded mail server on loopback
with the accounts herald, alice and bob (password = name), creates a sample
game of Crécy between alice@localhost and bob@localhost in a fresh
temporary store, and prints how to point a mail client at it.

It stops gracefully on SIGINT or SIGTERM.`,
		Flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (YAML)")
			fs.String("imap-addr", "127.0.0.1:1143", "embedded IMAP server's address (without --config)")
			fs.String("smtp-addr", "127.0.0.1:1025", "embedded SMTP server's address (without --config)")
		},
		Run: runServe,
	})
}

func runServe(env Env, fs *flag.FlagSet) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if path := fs.Lookup("config").Value.String(); path != "" {
		cfg, err := LoadConfig(path)
		if err != nil {
			return fail(env, "serve", err)
		}
		return exit(env, "serve", serveConfigured(ctx, cfg))
	}
	local := localSetup{IMAPAddr: fs.Lookup("imap-addr").Value.String(), SMTPAddr: fs.Lookup("smtp-addr").Value.String()}
	return exit(env, "serve", serveEmbedded(ctx, env, local))
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
		MaxMailBytes: cfg.Limits.MaxMailBytes, PerHour: cfg.Limits.PerHour, Map: mapFunc(cfg.mapEnabled()), Logger: log})
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
	log.Info("serving", "address", cfg.Address, "imap", cfg.IMAP.Addr, "smtp", cfg.SMTP.Addr, "store", cfg.Store)
	return svc.Serve(ctx, in, sender.SendRaw, time.Minute)
}

// localSetup is the zero-configuration mode's mail server.
type localSetup struct{ IMAPAddr, SMTPAddr string }

// The embedded server's accounts: Herald and two players.
var localUsers = []mailbox.User{{Name: "herald", Password: "herald"}, {Name: "alice", Password: "alice"}, {Name: "bob", Password: "bob"}}

// serveEmbedded runs Herald with zero configuration: an embedded mail
// server, a fresh store and a sample game.
func serveEmbedded(ctx context.Context, env Env, local localSetup) error {
	log := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	dir, err := os.MkdirTemp("", "herald-serve-")
	if err != nil {
		return err
	}
	emb, err := mailbox.NewEmbedded(mailbox.EmbeddedConfig{IMAPAddr: local.IMAPAddr, SMTPAddr: local.SMTPAddr, Users: localUsers, Logger: log})
	if err != nil {
		return err
	}
	if err := emb.Start(); err != nil {
		return fmt.Errorf("embedded mail server: %w (another herald serve running? choose other ports with --imap-addr and --smtp-addr)", err)
	}
	defer emb.Close()
	st, err := store.Open(filepath.Join(dir, "herald.db"))
	if err != nil {
		return err
	}
	defer st.Close()
	svc, err := games.New(games.Config{Store: st, Address: "herald@localhost", Map: mapFunc(true), Logger: log})
	if err != nil {
		return err
	}
	g, err := svc.CreateGame(games.NewGame{Scenario: "crecy", Players: []games.PlayerSpec{
		{Side: "English", Address: "alice@localhost"}, {Side: "French", Address: "bob@localhost"}}})
	if err != nil {
		return err
	}
	in, sender, err := localClients(emb, svc.MaxMailBytes(), log)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, `Herald is serving game %s (Crécy): the English are alice@localhost, the French bob@localhost.

Point any mail client at the embedded mail server (no TLS, loopback only):
  IMAP  %s   user alice, password alice   (or bob / bob)
  SMTP  %s   the same user and password
Each player finds Herald's welcome in his inbox; reply to it with orders
between the block's markers. Herald's own store is in %s.

Ready. Stop with Ctrl-C.
`, g.ID, emb.IMAPAddr(), emb.SMTPAddr(), dir)
	return svc.Serve(ctx, in, sender.SendRaw, 10*time.Second)
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
