package command

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"herald/data"
	"herald/engine"
	"herald/mapimg"
	"herald/pbem/games"
)

func init() {
	register(&Command{
		Name: "render",
		Usage: "(--scenario ID|FILE.yaml [--orders FILE --dice 3,7,… [--crop]] | --store FILE --game ID)\n" +
			"       [--out FILE.png] [--hex PIXELS] [--max-width PIXELS] [--max-height PIXELS]",
		Short: "draw a battle at its start, after a play file, or a stored game now, as a PNG",
		Long: `
Render draws the battlefield as Herald's mails show it:

  --scenario            the battle at its opening position;
  --scenario --orders   the battle after the order blocks of a play file
                        (the format of herald play, with --dice for the
                        rolls), with the last block's moves and results
                        drawn over it; --crop draws only their area,
                        --margin hexes around;
  --store --game        a game of a store as it stands now (stop herald
                        serve first, the store is single-process).

A map larger than --max-width × --max-height is drawn with smaller hexes,
down to the smallest that keeps counters legible.`,
		Flags: func(fs *flag.FlagSet) {
			fs.String("scenario", "", "battle id or YAML file")
			fs.String("orders", "", "play file of order blocks to apply first (see herald play)")
			fs.String("dice", "", "scripted dice for --orders, e.g. 7,5,2,8; random when empty")
			fs.Bool("crop", false, "with --orders: draw only the area of the last block")
			fs.Int("margin", 3, "hexes around the cropped area")
			fs.String("store", "", "store file of a game")
			fs.String("game", "", "game id in the store")
			fs.String("out", "map.png", "PNG file to write")
			fs.Float64("hex", 40, "hex size in pixels (centre to vertex)")
			fs.Int("max-width", 1600, "largest width of the image")
			fs.Int("max-height", 1400, "largest height of the image")
		},
		Run: runRender,
	})
}

func runRender(env Env, fs *flag.FlagSet) int {
	get := func(name string) string { return fs.Lookup(name).Value.String() }
	value := func(name string) any { return fs.Lookup(name).Value.(flag.Getter).Get() }
	if value("crop").(bool) && get("orders") == "" {
		// Only a play file gives Render the last block's events today.
		fmt.Fprintln(env.Stderr, "herald render: --crop needs --orders: the area cropped to is the last block's")
		return 2
	}
	if png, ok, err := renderOtherSystem(get("scenario"), get("orders"), get("store"), get("game")); ok || err != nil {
		if err != nil {
			return fail(env, "render", err)
		}
		if err := os.WriteFile(get("out"), png, 0o644); err != nil {
			return fail(env, "render", err)
		}
		fmt.Fprintf(env.Stdout, "wrote %s (%d bytes)\n", get("out"), len(png))
		return 0
	}
	sub, err := renderSubject(get("scenario"), get("orders"), get("dice"), get("store"), get("game"))
	if err != nil {
		return fail(env, "render", err)
	}
	opt := mapimg.Options{HexSize: value("hex").(float64), Crop: value("crop").(bool), Margin: value("margin").(int),
		MaxWidth: value("max-width").(int), MaxHeight: value("max-height").(int), Marks: sub.marks}
	b, err := mapimg.PNG(sub.sc, sub.st, opt)
	if err != nil {
		return fail(env, "render", err)
	}
	if err := os.WriteFile(get("out"), b, 0o644); err != nil {
		return fail(env, "render", err)
	}
	fmt.Fprintf(env.Stdout, "wrote %s (%d bytes)\n", get("out"), len(b))
	return 0
}

// renderOtherSystem draws a battle of another game system than Men of
// Iron (the D20 strike system's table) at its opening, or a stored game
// of one as it stands; ok is false for a Men of Iron battle or game,
// which the map options below draw.
func renderOtherSystem(scenario, orders, storePath, game string) (png []byte, ok bool, err error) {
	switch {
	case scenario != "" && storePath == "":
		b, err := games.LoadBattle(scenario)
		if err != nil || games.IsMenOfIron(b) {
			return nil, false, nil // a scenario file, or a Men of Iron battle
		}
		if orders != "" {
			return nil, true, fmt.Errorf("--orders plays Men of Iron battles; %s is the %s system's: play it by mail or herald demo", scenario, "strike")
		}
		st, err := b.Start()
		if err != nil {
			return nil, true, err
		}
		png, err := b.Picture(nil, st, nil)
		return png, true, err
	case storePath != "" && game != "":
		svc, closeStore, err := openStore("", storePath, "herald@localhost")
		if err != nil {
			return nil, true, err
		}
		defer closeStore()
		sum, err := svc.Summary(game)
		if err != nil {
			return nil, true, err
		}
		if b, err := games.LoadBattle(sum.Scenario); err != nil || games.IsMenOfIron(b) {
			return nil, false, nil
		}
		png, err := svc.Picture(game)
		return png, true, err
	}
	return nil, false, nil
}

// subject is what render draws: a battle, a state of it, and the overlay
// of the block that led there.
type subject struct {
	sc    *engine.Scenario
	st    *engine.State
	marks []mapimg.Mark
}

// renderSubject is the battle and state to draw.
func renderSubject(scenario, orders, dice, storePath, game string) (*subject, error) {
	switch {
	case scenario != "" && storePath == "":
		sc, err := data.Scenario(scenario)
		if err != nil {
			return nil, err
		}
		if orders == "" {
			return &subject{sc: sc, st: engine.NewState(sc)}, nil
		}
		return playFile(sc, orders, dice)
	case scenario == "" && orders == "" && storePath != "" && game != "":
		svc, closeStore, err := openStore("", storePath, "herald@localhost")
		if err != nil {
			return nil, err
		}
		defer closeStore()
		sc, st, err := svc.Position(game)
		return &subject{sc: sc, st: st}, err
	}
	return nil, errors.New("want --scenario (with --orders or not), or --store and --game")
}

// playFile applies the blocks of a play file, as herald play does, and
// keeps the last block's events for the overlay. A refused block stops
// it: the map would not show what the file says.
func playFile(sc *engine.Scenario, file, diceSpec string) (*subject, error) {
	text, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	blocks, err := parseBlocks(string(text))
	if err != nil {
		return nil, fmt.Errorf("%s:%w", file, err)
	}
	dice, err := playDice(diceSpec)
	if err != nil {
		return nil, fmt.Errorf("--dice: %w", err)
	}
	sub := &subject{sc: sc, st: engine.NewState(sc)}
	for _, bl := range blocks {
		side, ok := sc.SideByName(bl.Side)
		if !ok {
			return nil, fmt.Errorf("%s: [%s]: no side of this battle is called so", file, bl.Side)
		}
		orders, err := engine.ParseOrders(bl.Lines)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		res, err := engine.Apply(sc, sub.st, side, orders, dice)
		if err == nil && res.Refused != nil {
			err = res.Refused
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		sub.marks = mapimg.Marks(sc, sub.st, res.State, res.Events)
		sub.st = res.State
	}
	return sub, nil
}
