package command

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"herald/data"
	"herald/engine"
	"herald/mapimg"
)

func init() {
	register(&Command{
		Name:  "render",
		Usage: "(--scenario ID|FILE.yaml | --store FILE --game ID) [--out FILE.png] [--hex PIXELS] [--max-width PIXELS]",
		Short: "draw a battle at its start, or a stored game now, as a PNG",
		Long: `
Render draws the battlefield as Herald's mails show it: a battle at its
opening position (--scenario), or a game of a store as it stands now
(--store and --game; stop herald serve first, the store is single-process).`,
		Flags: func(fs *flag.FlagSet) {
			fs.String("scenario", "", "battle id or YAML file")
			fs.String("store", "", "store file of a game")
			fs.String("game", "", "game id in the store")
			fs.String("out", "map.png", "PNG file to write")
			fs.Float64("hex", 34, "hex size in pixels (centre to vertex)")
			fs.Int("max-width", 1600, "largest width of the image")
		},
		Run: runRender,
	})
}

func runRender(env Env, fs *flag.FlagSet) int {
	get := func(name string) string { return fs.Lookup(name).Value.String() }
	sc, st, err := renderSubject(get("scenario"), get("store"), get("game"))
	if err != nil {
		return fail(env, "render", err)
	}
	opt := mapimg.Options{HexSize: fs.Lookup("hex").Value.(flag.Getter).Get().(float64),
		MaxWidth: fs.Lookup("max-width").Value.(flag.Getter).Get().(int)}
	b, err := mapimg.PNG(sc, st, opt)
	if err != nil {
		return fail(env, "render", err)
	}
	if err := os.WriteFile(get("out"), b, 0o644); err != nil {
		return fail(env, "render", err)
	}
	fmt.Fprintf(env.Stdout, "wrote %s (%d bytes)\n", get("out"), len(b))
	return 0
}

// renderSubject is the battle and state to draw.
func renderSubject(scenario, storePath, game string) (*engine.Scenario, *engine.State, error) {
	switch {
	case scenario != "" && storePath == "":
		sc, err := data.Scenario(scenario)
		if err != nil {
			return nil, nil, err
		}
		return sc, engine.NewState(sc), nil
	case scenario == "" && storePath != "" && game != "":
		svc, closeStore, err := openStore("", storePath, "herald@localhost")
		if err != nil {
			return nil, nil, err
		}
		defer closeStore()
		return svc.Position(game)
	}
	return nil, nil, errors.New("want --scenario, or --store and --game")
}
