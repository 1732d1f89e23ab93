package command

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"herald/pbem/games"
	"herald/pbem/store"
)

func init() {
	register(&Command{
		Name:  "game",
		Usage: "new|list|show|export [flags] [ID]",
		Short: "create, list, show and export the games of a store",
		Long: `
Game manages the games of Herald's store (from --config, or --store):

  herald game new --scenario crecy --side English=alice@example.org --side French=bob@example.org [--id ID]
      creates a game and queues each player's welcome (his secret key, the
      dice commitment); herald serve sends it.
  herald game list
  herald game show ID
  herald game export ID [--out FILE]
      writes the game's dice log for herald verify.

The store is a single-writer database: stop herald serve before changing it.`,
		Flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (YAML) naming the store and Herald's address")
			fs.String("store", "", "store file, instead of --config")
			fs.String("address", "herald@localhost", "Herald's address, with --store")
			fs.String("scenario", "", "new: the battle")
			fs.String("id", "", "new: the game's tag (default <battle>-<4 hex digits>)")
			fs.Var(&listFlag{}, "side", "new: SIDE=ADDRESS of a player; give one per side")
			fs.Var(&listFlag{}, "organizer", "new: an organizer's address; may repeat")
			fs.String("out", "", "export: file to write (default standard output)")
		},
		Run: runGame,
	})
}

// parseInterleaved parses flags wherever they stand among the arguments,
// and returns the arguments that are not flags.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

type listFlag struct{ list []string }

func (l *listFlag) String() string     { return strings.Join(l.list, ",") }
func (l *listFlag) Set(s string) error { l.list = append(l.list, s); return nil }

func runGame(env Env, fs *flag.FlagSet) int {
	sub, args, svc, closeStore, code := openSubcommand(env, fs, "game", "new, list, show or export")
	if svc == nil {
		return code
	}
	defer closeStore()
	var err error
	switch {
	case sub == "new" && len(args) == 0:
		err = gameNew(env, svc, fs)
	case sub == "list" && len(args) == 0:
		err = gameList(env.Stdout, svc)
	case sub == "show" && len(args) == 1:
		err = gameShow(env.Stdout, svc, args[0])
	case sub == "export" && len(args) == 1:
		err = gameExport(env, svc, args[0], fs.Lookup("out").Value.String())
	default:
		fmt.Fprintf(env.Stderr, "herald game: unknown use %q; see herald help game\n", strings.Join(fs.Args(), " "))
		return 2
	}
	return exit(env, "game", err)
}

// openService opens the store of --config or --store.
// openSubcommand reads a command's subcommand and its words, flags
// allowed after them (herald game show ID --store F), and opens the
// service on its store; a nil service comes with the exit code, the
// problem said.
func openSubcommand(env Env, fs *flag.FlagSet, name, want string) (sub string, args []string, svc *games.Service, closeStore func(), code int) {
	if fs.NArg() == 0 {
		fmt.Fprintf(env.Stderr, "herald %s: want %s\n", name, want)
		return "", nil, nil, nil, 2
	}
	sub = fs.Arg(0) // before parseInterleaved parses what follows it
	args, err := parseInterleaved(fs, fs.Args()[1:])
	if err != nil {
		return "", nil, nil, nil, 2
	}
	svc, closeStore, err = openService(fs)
	if err != nil {
		return "", nil, nil, nil, fail(env, name, err)
	}
	return sub, args, svc, closeStore, 0
}

func openService(fs *flag.FlagSet) (*games.Service, func(), error) {
	get := func(name string) string { return fs.Lookup(name).Value.String() }
	return openStore(get("config"), get("store"), get("address"))
}

// openStore opens the service on the store a configuration file names,
// or on a store file with Herald's address.
func openStore(config, path, addr string) (*games.Service, func(), error) {
	cfg := &Config{}
	if config != "" {
		var err error
		if cfg, err = LoadConfig(config); err != nil {
			return nil, nil, err
		}
		path, addr = cfg.Store, cfg.Address
	}
	if path == "" {
		return nil, nil, errors.New("want --config or --store")
	}
	st, err := store.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("%w (is herald serve running on this store?)", err)
	}
	svc, err := games.New(games.Config{Store: st, Address: addr, Name: cfg.Name, Organizers: cfg.Organizers})
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return svc, func() { st.Close() }, nil
}

func gameNew(env Env, svc *games.Service, fs *flag.FlagSet) error {
	ng := games.NewGame{Scenario: fs.Lookup("scenario").Value.String(), ID: fs.Lookup("id").Value.String(),
		Organizers: fs.Lookup("organizer").Value.(*listFlag).list}
	for _, s := range fs.Lookup("side").Value.(*listFlag).list {
		side, addr, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("--side %q: want SIDE=ADDRESS", s)
		}
		ng.Players = append(ng.Players, games.PlayerSpec{Side: side, Address: addr})
	}
	if ng.Scenario == "" {
		return errors.New("new: want --scenario")
	}
	g, err := svc.CreateGame(ng)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "created game %s (%s); the welcome mails are queued and go out with herald serve\n", g.ID, g.Scenario)
	return nil
}

func gameList(w io.Writer, svc *games.Service) error {
	list, err := svc.Games()
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tBATTLE\tMOVE\tPLAYERS\tSTATE")
	for _, g := range list {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", g.ID, g.Scenario, g.Move, players(g.Record), g.Waiting)
	}
	return tw.Flush()
}

func players(g *store.Game) string {
	var out []string
	for _, p := range g.Players {
		out = append(out, p.Side+"="+p.Address)
	}
	return strings.Join(out, " ")
}

func gameShow(w io.Writer, svc *games.Service, id string) error {
	s, err := svc.Summary(id)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "game      %s\nbattle    %s\ncreated   %s\nmove      %d\nplayers   %s\nstate     %s\n",
		s.ID, s.Scenario, s.Record.Created.Format("2006-01-02 15:04 MST"), s.Move, players(s.Record), s.Waiting)
	for _, side := range s.Sides {
		fmt.Fprintf(w, "%-9s %s, %d Flight Points, Flight Level %d\n", side.Name, side.Player, side.FlightPoints, side.FlightLevel)
	}
	fmt.Fprintf(w, "dice      %d rolls in %d batches; chain %d:%s\n", s.Chain.Rolls, s.Chain.Batches, s.Chain.Length, s.Chain.Head)
	fmt.Fprintf(w, "events    %d\n", s.Events)
	if s.Dice.N > 0 {
		fmt.Fprint(w, s.Dice.String())
	}
	return nil
}

// gameExport writes a game's dice log and says what it wrote: on
// standard error when the log itself goes to standard output, so that a
// pipe into herald verify stays clean.
func gameExport(env Env, svc *games.Service, id, out string) error {
	if out == "" {
		lc := &lineCounter{w: env.Stdout}
		if err := svc.Export(id, lc); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "herald game export: wrote the dice log of game %s to standard output (%s)\n", id, lc)
		return nil
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	lc := &lineCounter{w: f}
	if err := svc.Export(id, lc); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote the dice log of game %s to %s (%s); check it with: herald verify %s\n", id, out, lc, out)
	return nil
}

// lineCounter counts the lines and bytes written through it.
type lineCounter struct {
	w            io.Writer
	lines, bytes int
}

func (c *lineCounter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.bytes += n
	c.lines += bytes.Count(p[:n], []byte{'\n'})
	return n, err
}

// String is "42 lines, 9133 bytes": the header and one line per entry.
func (c *lineCounter) String() string {
	return fmt.Sprintf("%d lines, %d bytes: the header and %d entries", c.lines, c.bytes, max(c.lines-1, 0))
}
