package command

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"herald/data"
	"herald/engine"
	"herald/pbem/games"
)

func init() {
	register(&Command{
		Name:  "play",
		Usage: "--scenario NAME|FILE [--orders FILE] [--dice 3,7,0,…] [--counters SIDE=ID,…;…] [--json]",
		Short: "play a battle hot-seat on the terminal, no mail involved",
		Long: `
Play applies order blocks to a battle and prints what happens. Each block
starts with a line naming the side that sends it, in brackets:

    [French]
    ACTIVATE Doria
    END
    CONTINUE Grimaldi

With --orders the blocks are read from a file and applied in sequence;
without it, blocks are read from standard input: type the orders of the side
the game waits for, then an empty line to send them; "help", "map" (the
board as text) and "units" (every unit's hex, facing and state) typed alone
answer at once. The order language is described in docs/orders.md.

Dice come from --dice (comma-separated faces 0-9, used in order) or, without
it, from a secure random source. With --json every event is printed as one
JSON object per line, then the final state.

In a battle with Seizure counters (Blood & Roses 6.3) each side draws its
number of them blindly from its tables' pool, and the hands are printed:
hot-seat, both players see them. --counters gives the hands instead, by the
pool's ids: --counters "Yorkists=SO5,SN,BC;Lancastrians=SO4,IB".`,
		Flags: func(fs *flag.FlagSet) {
			fs.String("scenario", "crecy", "battle id (herald check lists them) or a scenario YAML file")
			fs.String("orders", "", "file of order blocks; standard input when empty")
			fs.String("dice", "", "scripted dice, e.g. 3,7,0; random when empty")
			fs.Bool("json", false, "print events and the final state as JSON lines")
			fs.String("counters", "", "Seizure counters of each side by pool id, e.g. \"Yorkists=SO5,SN;Lancastrians=IB\"; drawn at random when empty")
		},
		Run: runPlay,
	})
}

// player is one hot-seat session.
type player struct {
	env  Env
	sc   *engine.Scenario
	st   *engine.State
	dice engine.Dice
	json bool
}

func runPlay(env Env, fs *flag.FlagSet) int {
	get := func(name string) string { return fs.Lookup(name).Value.String() }
	sc, err := data.Scenario(get("scenario"))
	if err != nil {
		if b, berr := games.LoadBattle(get("scenario")); berr == nil && !games.IsMenOfIron(b) {
			err = fmt.Errorf("herald play plays Men of Iron battles; %s is a battle of another game system: play it by mail (herald game new) or watch herald demo --scenario %s", get("scenario"), get("scenario"))
		}
		return fail(env, "play", err)
	}
	p := &player{env: env, sc: sc, st: engine.NewState(sc), json: get("json") == "true"}
	if p.st, err = dealForPlay(env, sc, p.st, get("counters")); err != nil {
		fmt.Fprintf(env.Stderr, "herald play: --counters: %v\n", err)
		return 2
	}
	p.dice, err = playDice(get("dice"))
	if err != nil {
		fmt.Fprintf(env.Stderr, "herald play: --dice: %v\n", err)
		return 2
	}
	if file := get("orders"); file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return fail(env, "play", err)
		}
		blocks, err := parseBlocks(string(b))
		if err != nil {
			return fail(env, "play", fmt.Errorf("%s:%w", file, err))
		}
		for _, bl := range blocks {
			if err := p.apply(bl); err != nil {
				p.report(err)
				p.summary()
				return 1
			}
		}
		p.summary()
		return 0
	}
	return p.interactive()
}

func playDice(spec string) (engine.Dice, error) {
	if spec == "" {
		return secureDice{}, nil
	}
	var vals []int
	for _, f := range strings.Split(spec, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 0 || v > 9 {
			return nil, fmt.Errorf("%q is not a d10 face 0-9", f)
		}
		vals = append(vals, v)
	}
	return engine.NewScript(vals...), nil
}

// block is one order block of a play file: the side that sends it and its
// lines, numbered as in the file.
type block struct {
	Side  string
	Lines []engine.Line
}

// parseBlocks splits a play file into blocks at "[Side]" header lines.
func parseBlocks(text string) ([]block, error) {
	var out []block
	for _, l := range engine.SplitLines(text) {
		t := strings.TrimSpace(l.Text)
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			out = append(out, block{Side: strings.TrimSpace(t[1 : len(t)-1])})
			continue
		}
		if len(out) == 0 {
			if c := strings.TrimSpace(strings.SplitN(t, "#", 2)[0]); c != "" {
				return nil, fmt.Errorf("%d: %q comes before any [Side] header", l.No, t)
			}
			continue
		}
		out[len(out)-1].Lines = append(out[len(out)-1].Lines, l)
	}
	return out, nil
}

// apply sends one block to the engine and prints what happened.
func (p *player) apply(bl block) error {
	side, ok := p.sc.SideByName(bl.Side)
	if !ok {
		return fmt.Errorf("[%s]: no side of this battle is called %q; the sides are %s and %s",
			bl.Side, bl.Side, p.sc.Sides[0].Name, p.sc.Sides[1].Name)
	}
	orders, err := engine.ParseOrders(bl.Lines)
	if err != nil {
		return err
	}
	res, err := engine.Apply(p.sc, p.st, side, orders, p.dice)
	if err != nil {
		return err
	}
	p.st = res.State
	p.printResult(side, res)
	if res.Refused != nil {
		return res.Refused
	}
	return nil
}

func (p *player) printResult(side engine.Side, res *engine.BlockResult) {
	w := p.env.Stdout
	if p.json {
		for _, e := range res.Events {
			raw, err := engine.MarshalEvent(e)
			if err != nil {
				panic(err) // events are plain data
			}
			line := map[string]any{"side": p.sc.SideName(side), "text": engine.Describe(p.sc, e)}
			var env map[string]json.RawMessage
			_ = json.Unmarshal(raw, &env)
			line["event"], line["data"] = env["event"], env["data"]
			writeJSON(w, line)
		}
		for _, o := range res.NotApplied {
			writeJSON(w, map[string]any{"not_applied": o.String(), "line": o.LineNo(), "reason": res.Stopped})
		}
		for _, o := range res.Held {
			writeJSON(w, map[string]any{"held": o.String(), "line": o.LineNo(), "reason": "kept until the " + p.sc.SideName(side.Other()) + " decide on Seizure"})
		}
		return
	}
	fmt.Fprintf(w, "== %s (move %d) ==\n", p.sc.SideName(side), res.State.Move)
	for _, e := range res.Events {
		if _, ok := e.(engine.OrdersApplied); ok {
			continue
		}
		if line := engine.Describe(p.sc, e); line != "" { // "" marks a bookkeeping event
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	if len(res.NotApplied) > 0 {
		fmt.Fprintf(w, "  Not applied (%s):\n", res.Stopped)
		for _, o := range res.NotApplied {
			fmt.Fprintf(w, "    line %d: %s\n", o.LineNo(), o)
		}
	}
	if len(res.Held) > 0 {
		fmt.Fprintf(w, "  Kept until the %s decide on Seizure, carried out if the Continuation succeeds:\n", p.sc.SideName(side.Other()))
		for _, o := range res.Held {
			fmt.Fprintf(w, "    line %d: %s\n", o.LineNo(), o)
		}
	}
	for _, rel := range res.Released {
		for _, o := range rel.NotApplied {
			why := rel.Stopped
			if rel.Refused != nil && rel.Refused.Line == o.LineNo() {
				why = rel.Refused.Reason
			}
			fmt.Fprintf(w, "  Kept order of the %s not carried out: %s (%s)\n", p.sc.SideName(rel.Side), o, why)
		}
	}
}

// report prints an error from a block: for an illegal order, the line, the
// rule, the reason and what would be legal.
func (p *player) report(err error) {
	var ill *engine.IllegalOrderError
	if p.json {
		obj := map[string]any{"error": err.Error()}
		if errors.As(err, &ill) {
			obj = map[string]any{"error": ill.Reason, "line": ill.Line, "text": ill.Text, "rule": ill.Rule, "legal": ill.Legal}
		}
		writeJSON(p.env.Stdout, obj)
		return
	}
	if errors.As(err, &ill) {
		fmt.Fprintf(p.env.Stdout, "Refused, line %d: %s\n  %s (%s)\n", ill.Line, ill.Text, ill.Reason, ill.Rule)
		if len(ill.Legal) > 0 {
			fmt.Fprintf(p.env.Stdout, "  Legal now: %s\n", strings.Join(ill.Legal, " | "))
		}
		fmt.Fprintln(p.env.Stdout, "  Nothing in this block was applied.")
		return
	}
	fmt.Fprintf(p.env.Stdout, "Error: %v\n", err)
}

// summary prints who is active, what the game waits for, the Flight Points.
func (p *player) summary() {
	sc, st := p.sc, p.st
	fp := func(s engine.Side) map[string]int {
		return map[string]int{"flight_points": engine.FlightPoints(sc, st, s), "flight_level": sc.Sides[s].FlightLevel}
	}
	if p.json {
		writeJSON(p.env.Stdout, map[string]any{
			"move": st.Move, "phase": st.Phase.String(), "active": sc.SideName(st.Active),
			"waiting": engine.Waiting(sc, st), "legal": engine.Legal(sc, st),
			"flight":  map[string]any{sc.Sides[0].Name: fp(0), sc.Sides[1].Name: fp(1)},
			"outcome": st.Outcome, "state": json.RawMessage(st.Encode()),
		})
		return
	}
	w := p.env.Stdout
	fmt.Fprintf(w, "-- after move %d --\n", st.Move)
	fmt.Fprintf(w, "Phase: %s; active: %s\n", st.Phase, sc.SideName(st.Active))
	fmt.Fprintf(w, "Now: %s\n", engine.Waiting(sc, st))
	if legal := engine.Legal(sc, st); len(legal) > 0 {
		fmt.Fprintf(w, "Legal: %s\n", strings.Join(legal, " | "))
	}
	for s := engine.Side(0); s <= 1; s++ {
		fmt.Fprintf(w, "Flight Points: %s %d (Flight Level %d)\n", sc.SideName(s), engine.FlightPoints(sc, st, s), sc.Sides[s].FlightLevel)
	}
}

// interactive reads blocks from standard input: the lines of the side the
// game waits for, sent by an empty line.
func (p *player) interactive() int {
	in := bufio.NewScanner(p.env.Stdin)
	no := 0
	for p.st.Outcome == nil {
		p.summary()
		fmt.Fprintf(p.env.Stdout, "%s> ", p.sc.SideName(p.st.Pending.Side))
		bl := block{Side: p.sc.SideName(p.st.Pending.Side)}
		for {
			if !in.Scan() {
				if len(bl.Lines) > 0 {
					p.send(bl)
				}
				return 0
			}
			no++
			t := in.Text()
			if strings.TrimSpace(t) == "" {
				break
			}
			if len(bl.Lines) == 0 && p.playWord(t) {
				fmt.Fprintf(p.env.Stdout, "%s> ", bl.Side)
				continue
			}
			if s := strings.TrimSpace(t); strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
				bl.Side = strings.TrimSpace(s[1 : len(s)-1])
				continue
			}
			bl.Lines = append(bl.Lines, engine.Line{No: no, Text: t})
		}
		if len(bl.Lines) > 0 {
			p.send(bl)
		}
	}
	p.summary()
	return 0
}

func (p *player) send(bl block) {
	if err := p.apply(bl); err != nil {
		p.report(err)
	}
}

func writeJSON(w io.Writer, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain data is printed
	}
	fmt.Fprintf(w, "%s\n", b)
}
