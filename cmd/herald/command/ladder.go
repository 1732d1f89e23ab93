package command

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"herald/pbem/games"
	"herald/pbem/ladder"
)

func init() {
	register(&Command{
		Name:  "ladder",
		Usage: "list|show|create|key|organizer-key|tick|ID COMMAND… [flags]",
		Short: "run the club's ladders and round-robins: members, challenges, rounds, results, clocks",
		Long: `
Ladder runs the ladders and round-robins of Herald's store (from --config,
or --store), as their organizers do by mail (docs/ladders.md):

  herald ladder list
  herald ladder show ID
      members, standings, challenges, games and their clocks.
  herald ladder create ID ladder|round-robin scenarios=crecy,poitiers [clock=3d+1d cap=7d
      reminders=0.5,0.25 warning=12h timeout=forfeit|adjudicate|opponent k=32 initial=1500
      rate-forfeits=yes rate-draws=yes organizers=a@x,b@y] --as ORGANIZER
      creates a ladder; each organizer is mailed his key for it.
  herald ladder ID COMMAND [WORDS…] [--as ADDRESS]
      carries out one of the mail commands, as ADDRESS (default: the
      ladder's first organizer), e.g.
        herald ladder club ADD carol@example.org
        herald ladder club PAIR crecy
        herald ladder club START crecy alice@example.org bob@example.org
        herald ladder club ADJUDICATE crecy-k3fq7x2mna english
        herald ladder club CLOCK crecy-k3fq7x2mna french 2d
        herald ladder club CHALLENGE bob@example.org --as alice@example.org
  herald ladder key ID ADDRESS
      the key ADDRESS signs his commands to the ladder with.
  herald ladder organizer-key ADDRESS
      the key one of the configuration's organizers signs CREATE with.
  herald ladder tick
      does what is due on the clocks now (herald serve does it every 30 s).

The store is a single-writer database: stop herald serve before changing it.`,
		Flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (YAML) naming the store and Herald's address")
			fs.String("store", "", "store file, instead of --config")
			fs.String("address", "herald@localhost", "Herald's address, with --store")
			fs.String("as", "", "the organizer or member a command is carried out for")
		},
		Run: runLadder,
	})
}

func runLadder(env Env, fs *flag.FlagSet) int {
	sub, args, svc, closeStore, code := openSubcommand(env, fs, "ladder", "list, show, create, key, organizer-key, tick or a ladder's id and a command")
	if svc == nil {
		return code
	}
	defer closeStore()
	var err error
	as := fs.Lookup("as").Value.String()
	switch {
	case sub == "list" && len(args) == 0:
		err = ladderList(env.Stdout, svc)
	case sub == "show" && len(args) == 1:
		err = ladderShow(env.Stdout, svc, args[0])
	case sub == "create" && len(args) >= 2:
		if as == "" {
			return fail(env, "ladder", fmt.Errorf("create: want --as, the organizer's address"))
		}
		var l *ladder.Ladder
		if l, err = svc.CreateLadder(args[0], as, args[1:]); err == nil {
			fmt.Fprintf(env.Stdout, "ladder %s created; its organizers' keys are in the outbox, which herald serve sends\n", l.ID)
		}
	case sub == "key" && len(args) == 2:
		fmt.Fprintln(env.Stdout, svc.LadderKey(args[0], args[1]))
	case sub == "organizer-key" && len(args) == 1:
		fmt.Fprintln(env.Stdout, svc.OrganizerKey(args[0]))
	case sub == "tick" && len(args) == 0:
		var n int
		if n, err = svc.Tick(time.Now()); err == nil {
			fmt.Fprintf(env.Stdout, "%d notices and timeouts\n", n)
		}
	case len(args) >= 1:
		err = ladderCommand(env.Stdout, svc, sub, as, strings.Join(args, " "))
	default:
		fmt.Fprintf(env.Stderr, "herald ladder: unknown use %q; see herald help ladder\n", strings.Join(fs.Args(), " "))
		return 2
	}
	return exit(env, "ladder", err)
}

func ladderCommand(w io.Writer, svc *games.Service, id, as, line string) error {
	if as == "" {
		l, err := svc.Ladder(id)
		if err != nil {
			return err
		}
		as = l.Organizers[0]
	}
	says, err := svc.LadderCommand(id, as, line)
	if err != nil {
		return err
	}
	for _, s := range says {
		fmt.Fprintln(w, s)
	}
	return nil
}

func ladderList(w io.Writer, svc *games.Service) error {
	all, err := svc.Ladders()
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LADDER\tKIND\tMEMBERS\tGAMES\tIN PLAY\tROUND")
	for _, l := range all {
		inPlay := 0
		for _, g := range l.Games {
			if g.Status != ladder.Over {
				inPlay++
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\n", l.ID, l.Kind, len(l.Active()), len(l.Games), inPlay, l.Round)
	}
	return tw.Flush()
}

func ladderShow(w io.Writer, svc *games.Service, id string) error {
	l, err := svc.Ladder(id)
	if err != nil {
		return err
	}
	d, err := svc.Downtime()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s %s, organized by %s\n", l.Kind, l.ID, strings.Join(l.Organizers, ", "))
	fmt.Fprintf(w, "scenarios: %s\n", strings.Join(l.Scenarios, ", "))
	if c := l.Clock; c != nil {
		fmt.Fprintf(w, "clock: %v + %v a move, cap %v, reminders %v, warning %v, at zero %s\n", c.Initial, c.Increment, c.Cap, c.Reminders, c.Warning, c.OnTimeout)
	}
	fmt.Fprintf(w, "rating: Elo K %g, initial %g, forfeits rated %v, draws rated %v\n", l.Rating.K, l.Rating.Initial, l.Rating.RateForfeits, l.Rating.RateDraws)
	if len(l.Observers) > 0 {
		fmt.Fprintf(w, "observers: %s\n", strings.Join(l.Observers, ", "))
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\nRANK\tMEMBER\tRATING\tWON\tDRAWN\tLOST\tON TIME\tIN PLAY")
	for _, s := range l.Standings() {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\n", s.Rank, s.Address, int(math.Round(s.Rating)), s.Won, s.Drawn, s.Lost, s.Forfeits, s.InPlay)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, c := range l.Open("") {
		to := c.To
		if to == "" {
			to = "any member"
		}
		fmt.Fprintf(w, "challenge %d: %s to %s, %s\n", c.N, c.From, to, c.Scenario)
	}
	now := time.Now()
	for _, g := range l.Games {
		fmt.Fprintf(w, "game %s (%s, round %d): the %s %s v the %s %s: %s", g.ID, g.Scenario, g.Round, g.Seats[0].Side, g.Seats[0].Address, g.Seats[1].Side, g.Seats[1].Address, g.Status)
		switch {
		case g.Result != nil:
			fmt.Fprintf(w, ", %s %s", g.Result.Outcome, g.Result.Winner)
		case g.Clock != nil && g.Clock.ToMove >= 0:
			fmt.Fprintf(w, ", %s to move with %v left", g.Seats[g.Clock.ToMove].Side, g.Clock.LeftAt(now, d).Round(time.Minute))
		}
		fmt.Fprintln(w)
	}
	return nil
}
