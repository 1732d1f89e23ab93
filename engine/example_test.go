package engine_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
)

var update = flag.Bool("update", false, "rewrite the expected part of testdata/examples/*.txt")

// TestBookExamples replays the rule books' worked examples. Each file in
// testdata/examples holds a header (scenario, scripted dice), order blocks
// opened by "[Side]" lines, a "----" separator, and the expected narrative:
// for each block a "[Side] move N" line and one line per event, or a
// "refused:" line. Files are named book-section-slug.
func TestBookExamples(t *testing.T) {
	files, _ := filepath.Glob("testdata/examples/*.txt")
	if len(files) == 0 {
		t.Fatal("no examples found")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			input, want, ok := strings.Cut(string(raw), "\n----\n")
			if !ok {
				t.Fatalf("%s: no ---- separator", file)
			}
			got := runExample(t, input)
			if *update {
				if err := os.WriteFile(file, []byte(input+"\n----\n"+got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got != want {
				t.Errorf("%s: narrative differs\n--- got\n%s--- want\n%s", file, got, want)
			}
		})
	}
}

func runExample(t *testing.T, input string) string {
	var sc *engine.Scenario
	var dice []int
	type block struct {
		side  string
		lines []engine.Line
	}
	var blocks []block
	for _, l := range engine.SplitLines(input) {
		text := strings.TrimSpace(l.Text)
		switch {
		case strings.HasPrefix(text, "scenario:"):
			var err error
			if sc, err = data.Scenario(strings.TrimSpace(strings.TrimPrefix(text, "scenario:"))); err != nil {
				t.Fatal(err)
			}
		case strings.HasPrefix(text, "dice:"):
			for _, f := range strings.Split(strings.TrimPrefix(text, "dice:"), ",") {
				v, err := strconv.Atoi(strings.TrimSpace(f))
				if err != nil {
					t.Fatalf("line %d: dice: %v", l.No, err)
				}
				dice = append(dice, v)
			}
		case strings.HasPrefix(text, "[") && strings.HasSuffix(text, "]"):
			blocks = append(blocks, block{side: text[1 : len(text)-1]})
		case len(blocks) > 0:
			blocks[len(blocks)-1].lines = append(blocks[len(blocks)-1].lines, l)
		}
	}
	if sc == nil {
		t.Fatal("example names no scenario")
	}
	g := newGame(t, sc, dice...)
	var out strings.Builder
	for _, b := range blocks {
		side, ok := sc.SideByName(b.side)
		if !ok {
			t.Fatalf("no side %q", b.side)
		}
		orders, err := engine.ParseOrders(b.lines)
		if err != nil {
			fmt.Fprintf(&out, "[%s] refused: %v\n", b.side, err)
			continue
		}
		res, err := engine.Apply(sc, g.st, side, orders, g.dice)
		if err != nil {
			fmt.Fprintf(&out, "[%s] refused: %v\n", b.side, err)
			continue
		}
		g.st = res.State
		fmt.Fprintf(&out, "[%s] move %d\n", b.side, res.State.Move)
		for _, e := range res.Events {
			if _, ok := e.(engine.OrdersApplied); !ok && engine.Describe(sc, e) != "" {
				fmt.Fprintln(&out, engine.Describe(sc, e))
			}
		}
		for _, o := range res.NotApplied {
			fmt.Fprintf(&out, "not applied: line %d: %s (%s)\n", o.LineNo(), o, res.Stopped)
		}
	}
	fmt.Fprintf(&out, "now: %s\n", engine.Waiting(sc, g.st))
	if n := g.dice.Remaining(); n != 0 {
		t.Errorf("%d scripted dice left unused", n)
	}
	return out.String()
}
