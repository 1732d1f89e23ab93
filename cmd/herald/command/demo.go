package command

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"herald/engine"
	"herald/pbem/dice"
	"herald/pbem/games"
	"herald/pbem/mailbox"
	"herald/pbem/store"
)

func init() {
	register(&Command{
		Name:  "demo",
		Usage: "[--out DIR] [--moves N] [--scenario NAME]",
		Short: "play a short scripted game by mail through the embedded server",
		Long: `
Demo plays a short game of Crécy by e-mail, with everything real but the
players: Herald runs on the embedded IMAP and SMTP servers, and two scripted
players (alice, the English, and bob, the French) read Herald's mails over
IMAP and reply over SMTP with orders written into the mail's block, chosen
from the orders the mail says are legal. Every mail is written to the
output folder as .eml, every map as .png, and the game's dice log as
dice.jsonl, which is then verified as herald verify would.

With --scenario another battle is played, alice taking its first side and
bob its second: --scenario melee-test starts with the armies in contact,
to watch Charges, Shock and Continued Attacks by mail; poitiers, najera
and falkirk are Herald's reconstructions of those battles: with --moves 16
their players come to blows and make Loss Checks. ascalon and arsuf are
Infidel's (Vol. II), on its own tables: with --moves 400 they play to the
end, Arsuf by Victory Points. blore-heath and tewkesbury are Blood &
Roses' (Vol. III), on its tables: with --moves 1000 they play to the end,
a side's failed Loss Check. mauron is a battle of the D20 strike
miniatures system (docs/strike.md), Herald's house scenario: its players
choose their blocks by looking at the table, which is public, and the
game ends by the house victory rule within 8 turns.

The scripted players know the battle's map, as a player has it printed,
and what their mails tell them: the armies at the start, every move and
result since, where their own units can go. Each Activation they fire
with every unit that may, bring every other unit that can come nearer
the enemy as near as it can, then Charge and Shock.`,
		Flags: func(fs *flag.FlagSet) {
			fs.String("out", "herald-demo", "output folder")
			fs.Int("moves", 12, "stop after this many moves")
			fs.String("scenario", "crecy", "battle id (herald check lists them)")
		},
		Run: runDemo,
	})
}

func runDemo(env Env, fs *flag.FlagSet) int {
	out := fs.Lookup("out").Value.String()
	moves := fs.Lookup("moves").Value.(flag.Getter).Get().(int)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return exit(env, "demo", demo(ctx, env, out, moves, fs.Lookup("scenario").Value.String()))
}

// demo runs the scripted game; see the command's help.
func demo(ctx context.Context, env Env, out string, moves int, scenario string) error {
	b, err := games.LoadBattle(scenario)
	if err != nil {
		return err
	}
	sides, ironBattle := b.Sides(), games.IsMenOfIron(b)
	// The mails hold both players' keys, and the store the installation's
	// signing key and secret: only their owner may read them.
	if err := os.MkdirAll(out, 0o700); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	emb, err := mailbox.NewEmbedded(mailbox.EmbeddedConfig{Users: localUsers, Logger: log})
	if err != nil {
		return err
	}
	if err := emb.Start(); err != nil {
		return err
	}
	defer emb.Close()
	st, err := store.Open(filepath.Join(out, "herald.db"))
	if err != nil {
		return err
	}
	defer st.Close()
	maps := &mapSaver{dir: out, render: mapFunc(true)}
	// Scripted players write far faster than people: a long battle would
	// pass the hourly limit on a player's mails and stop the game there.
	svc, err := games.New(games.Config{Store: st, Address: "herald@localhost", Map: maps.fn(), ArmyMap: armyMapFunc(true), Logger: log,
		PerHour: 1 << 20, Pictures: true, Drawn: maps.keep})
	if err != nil {
		return err
	}
	g, err := svc.CreateGame(games.NewGame{ID: fmt.Sprintf("%s-demo-%d", b.ID(), time.Now().Unix()%10000), Scenario: scenario, Players: []games.PlayerSpec{
		{Side: sides[0], Address: "alice@localhost"}, {Side: sides[1], Address: "bob@localhost"}}})
	if err != nil {
		return err
	}
	// Herald and the players run until the game reaches move n; then the
	// players stop, and Herald until its last replies have left.
	heraldCtx, stopHerald := context.WithCancel(ctx)
	defer stopHerald()
	playersCtx, stopPlayers := context.WithCancel(ctx)
	defer stopPlayers()
	var herald, players sync.WaitGroup
	in, sender, err := localClients(emb, svc.MaxMailBytes(), log)
	if err != nil {
		return err
	}
	defer sender.Close()
	herald.Add(1)
	go func() { defer herald.Done(); svc.Serve(heraldCtx, in, sender.SendRaw, time.Second) }()
	for _, name := range []string{"alice", "bob"} {
		p, err := newDemoPlayer(emb, name, b.ID(), moves, log)
		if err != nil {
			return err
		}
		if !ironBattle { // the table of a miniatures battle is public
			p.auto.Battle, p.auto.Orders = "", svc.AutoOrders
		}
		players.Add(1)
		go func() { defer players.Done(); p.in.Run(playersCtx, p.handle) }()
	}
	start := time.Now()
	err = waitUntil(ctx, func() (bool, error) {
		s, err := svc.Summary(g.ID)
		return err != nil || s.Move > moves || s.Record.Over, err
	})
	stopPlayers()
	players.Wait()
	if err == nil {
		err = waitUntil(ctx, func() (bool, error) { n, err := svc.Pending(); return err != nil || n == 0, err })
	}
	stopHerald()
	herald.Wait()
	if err != nil {
		return stuck(svc, emb, g.ID, out, err)
	}
	took := time.Since(start)
	return demoReport(env, svc, emb, g.ID, out, took, maps.n)
}

// waitUntil polls done until it reports true, or ctx ends.
func waitUntil(ctx context.Context, done func() (bool, error)) error {
	for {
		ok, err := done()
		if ok || err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the demo did not finish in time: %w", ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// stuck reports a demo that did not finish: where the game stands, with
// the mails written so far, to read what the players were told.
func stuck(svc *games.Service, emb *mailbox.Embedded, id, out string, err error) error {
	if _, werr := writeDemoMails(emb, out); werr != nil {
		return errors.Join(err, werr)
	}
	s, serr := svc.Summary(id)
	if serr != nil {
		return errors.Join(err, serr)
	}
	return fmt.Errorf("%w, at move %d, %s; the mails so far are in %s", err, s.Move, s.Waiting, out)
}

// writeDemoMails writes every mail of the demo's mailboxes to out.
func writeDemoMails(emb *mailbox.Embedded, out string) (int, error) {
	n := 0
	for _, u := range localUsers {
		for _, box := range []string{"INBOX", "Processed", "Rejected"} {
			msgs, err := emb.Messages(u.Name, box)
			if err != nil {
				return n, err
			}
			for i, m := range msgs {
				n++
				name := fmt.Sprintf("%s-%s-%03d.eml", u.Name, strings.ToLower(box), i+1)
				if err := writePrivate(filepath.Join(out, name), m.Raw); err != nil {
					return n, err
				}
			}
		}
	}
	return n, nil
}

// demoReport writes every mail and the dice log, verifies the log, and
// says what was written.
func demoReport(env Env, svc *games.Service, emb *mailbox.Embedded, id, out string, took time.Duration, maps int) error {
	n, err := writeDemoMails(emb, out)
	if err != nil {
		return err
	}
	var export bytes.Buffer
	if err := svc.Export(id, &export); err != nil {
		return err
	}
	if err := writePrivate(filepath.Join(out, "dice.jsonl"), export.Bytes()); err != nil {
		return err
	}
	pub := svc.PublicKey()
	rep, err := dice.Verify(bytes.NewReader(export.Bytes()), dice.Options{PublicKey: &pub, Replayer: games.Replayer{}})
	if err != nil {
		return fmt.Errorf("the demo's dice log does not verify: %w", err)
	}
	s, err := svc.Summary(id)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "Played game %s to move %d by mail in %s: %d mails and %d maps written to %s.\nThe game is %s.\nDice log %s: %s\n",
		id, s.Move-1, took.Round(time.Millisecond), n, maps, out, s.Waiting, filepath.Join(out, "dice.jsonl"), rep.String())
	return nil
}

// writePrivate writes a file only its owner may read, even one that an
// earlier run left readable by others.
func writePrivate(path string, b []byte) error {
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return err
	}
	return os.Chmod(path, 0o600)
}

// mapSaver keeps a copy of every map Herald renders, numbered.
type mapSaver struct {
	dir    string
	render games.MapFunc
	mu     sync.Mutex
	n      int
}

func (m *mapSaver) fn() games.MapFunc {
	if m.render == nil {
		return nil
	}
	return func(sc *engine.Scenario, before, st *engine.State, events []engine.Event) ([]byte, error) {
		png, err := m.render(sc, before, st, events)
		if err != nil {
			return nil, err
		}
		return png, m.save(png, fmt.Sprintf("move-%d", st.Move))
	}
}

// keep saves a picture of another system's battle (games.Config.Drawn).
func (m *mapSaver) keep(png []byte) { _ = m.save(png, "table") }

func (m *mapSaver) save(png []byte, what string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n++
	return writePrivate(filepath.Join(m.dir, fmt.Sprintf("map-%03d-%s.png", m.n, what)), png)
}

// demoPlayer is a scripted player's mail client: it reads Herald's mail
// over IMAP and sends the Autoplayer's replies over SMTP.
type demoPlayer struct {
	auto   *games.Autoplayer
	in     *mailbox.Intake
	sender *mailbox.Sender
}

func newDemoPlayer(emb *mailbox.Embedded, name, battle string, lastMove int, log *slog.Logger) (*demoPlayer, error) {
	in, err := mailbox.NewIntake(mailbox.IntakeConfig{Addr: emb.IMAPAddr(), Username: name, Password: name,
		PollInterval: 100 * time.Millisecond, Logger: log})
	if err != nil {
		return nil, err
	}
	sender, err := mailbox.NewSender(mailbox.SenderConfig{Addr: emb.SMTPAddr(), HELO: "localhost", Logger: log})
	if err != nil {
		return nil, err
	}
	return &demoPlayer{auto: &games.Autoplayer{Address: name + "@localhost", LastMove: lastMove, Battle: battle}, in: in, sender: sender}, nil
}

func (p *demoPlayer) handle(ctx context.Context, msg mailbox.Message) (mailbox.Disposition, error) {
	reply, err := p.auto.Reply(msg.Raw)
	if err != nil {
		return mailbox.Rejected, nil
	}
	if reply != nil {
		if err := p.sender.Send(ctx, *reply); err != nil {
			return 0, err
		}
	}
	return mailbox.Processed, nil
}
