package command

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/pbem/dice"
	"herald/pbem/games"
	"herald/pbem/mailbox"
	"herald/pbem/store"
)

// recorded is a game played with the verifiable dice as the daemon records
// one: its export, and the export's lines (line i is entry i, 0 the header).
type recorded struct {
	export []byte
	lines  [][]byte
	rolls  int
}

// recordGame plays legal orders on the sample battle with the verifiable
// dice, as the daemon records a game, until at least minRolls dice have
// been rolled, and returns the export. Each block is chosen to roll often
// (see eagerBlock).
func recordGame(t *testing.T, minRolls int) *recorded {
	t.Helper()
	sc, err := data.Scenario("crecy")
	if err != nil {
		t.Fatal(err)
	}
	key, err := dice.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	h, up, err := dice.NewGame(key, "crecy-test", "crecy", []string{sc.Sides[0].Name, sc.Sides[1].Name})
	if err != nil {
		t.Fatal(err)
	}
	entries, chain, seed := up.Entries, up.Chain, up.Next
	st := engine.NewState(sc)
	rolls, standing := 0, []string{"STANDING SEIZE NEVER"}
	for i := 0; rolls < minRolls; i++ {
		if st.Outcome != nil || i == 20*minRolls+100 {
			t.Fatalf("after %d blocks (%v) only %d rolls, want %d", i, st.Outcome, rolls, minRolls)
		}
		side := st.Pending.Side
		var first []string // the English never Seize, so French Continuations roll in the French blocks
		if sc.SideName(side) == sc.Sides[0].Name {
			first, standing = standing, nil
		}
		orders := eagerBlock(t, sc, st, i, first)
		b, err := dice.Begin(chain, seed, sc.SideName(side), uint64(st.Move+1), engine.CanonicalBlock(orders))
		if err != nil {
			t.Fatal(err)
		}
		res, err := engine.Apply(sc, st, side, orders, b)
		if err != nil {
			t.Fatalf("block %d %v: %v", i, orders, err)
		}
		d, err := games.Digests(res)
		if err != nil {
			t.Fatal(err)
		}
		up, err := b.Close(key, d.EventsSHA256, d.StateSHA256)
		if err != nil {
			t.Fatal(err)
		}
		rolls += len(up.Rolls)
		entries, chain, seed, st = append(entries, up.Entries...), up.Chain, up.Next, res.State
	}
	var buf bytes.Buffer
	if err := dice.WriteExport(&buf, h, entries); err != nil {
		t.Fatal(err)
	}
	return &recorded{export: buf.Bytes(), lines: bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n")), rolls: rolls}
}

// eagerBlock is the next block of a player who likes dice: from the legal
// orders it prefers SEIZE, CONTINUE, END and ACTIVATE, in turn among
// Commands, and it adds orders while none of them rolls a die and the
// sender keeps the move (a check-only run finds the first roll), so a
// block reads like a player's: ACTIVATE Doria, END, CONTINUE Grimaldi.
// The block begins with the given orders (standing orders).
func eagerBlock(t *testing.T, sc *engine.Scenario, st *engine.State, turn int, first []string) []engine.Order {
	t.Helper()
	side := st.Pending.Side
	var lines []engine.Line
	for _, o := range first {
		lines = append(lines, engine.Line{No: len(lines) + 1, Text: o})
	}
	for cur := st; ; {
		lines = append(lines, engine.Line{No: len(lines) + 1, Text: eagerOrder(engine.Legal(sc, cur), turn)})
		orders, err := engine.ParseOrders(lines)
		if err != nil {
			t.Fatal(err)
		}
		res, err := engine.Apply(sc, st, side, orders, checkOnly{})
		if err != nil {
			t.Fatalf("check %v: %v", orders, err)
		}
		if res.CheckStopped || res.State.Outcome != nil || res.State.Pending.Side != side || len(lines) == 6 {
			return orders
		}
		cur = res.State
	}
}

func eagerOrder(legal []string, turn int) string {
	for _, prefix := range []string{"SEIZE ", "CONTINUE ", "END", "ACTIVATE "} {
		var found []string
		for _, l := range legal {
			if strings.HasPrefix(l, prefix) && !strings.Contains(l, "<") {
				found = append(found, l)
			}
		}
		if len(found) > 0 {
			return found[turn%len(found)]
		}
	}
	return legal[len(legal)-1] // PASS or DECLINE
}

// checkOnly stops a block at its first roll, as a check-only mail does.
type checkOnly struct{}

func (checkOnly) Roll(string) (int, error) { return 0, engine.ErrCheckStop }

// verifyArgs runs herald verify with args and returns its exit code and
// everything it printed.
func verifyArgs(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(append([]string{"verify"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String() + errb.String()
}

func runVerifyOn(t *testing.T, export []byte, args ...string) (int, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "game.jsonl")
	if err := os.WriteFile(file, export, 0o600); err != nil {
		t.Fatal(err)
	}
	return verifyArgs(t, append(args, file)...)
}

var failedEntry = regexp.MustCompile(`(?m)^FAILED: line \d+ \(entry (\d+)[,)]`)

// verifyFails checks that herald verify rejects export naming entry want.
func verifyFails(t *testing.T, name string, export []byte, want int) {
	t.Helper()
	code, out := runVerifyOn(t, export)
	m := failedEntry.FindStringSubmatch(out)
	if code != 1 || m == nil || m[1] != strconv.Itoa(want) {
		t.Errorf("%s: herald verify exit %d, want 1 naming entry %d:\n%s", name, code, want, out)
	}
}

// pyVerdict is what tools/verify-dice.py --json prints.
type pyVerdict struct {
	OK     bool   `json:"ok"`
	Entry  int    `json:"entry"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
	Rolls  int    `json:"rolls"`
}

// python3 returns the path of python3, or skips the test.
func python3(t *testing.T) string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH: not checking that tools/verify-dice.py agrees (CI has it)")
	}
	return python
}

// verifyDicePy runs the standalone verifier on an export.
func verifyDicePy(t *testing.T, python string, export []byte) pyVerdict {
	t.Helper()
	file := filepath.Join(t.TempDir(), "game.jsonl")
	if err := os.WriteFile(file, export, 0o600); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(python, filepath.Join("..", "..", "..", "tools", "verify-dice.py"), "--json", file)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if exit := (*exec.ExitError)(nil); err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("verify-dice.py: %v\n%s", err, stderr.String())
	}
	var v pyVerdict
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("verify-dice.py printed %q: %v", out, err)
	}
	return v
}

// tampered is an export with one change, and the entry both verifiers must
// name.
type tampered struct {
	name   string
	export []byte
	entry  int
}

// An untampered game of more than 200 rolls verifies with herald verify,
// replay included, and with tools/verify-dice.py. Changing any one byte of
// any member's value of a header, seal, block or roll line, or rewriting a
// roll or a seed and re-hashing the whole chain after it, fails both,
// naming that entry.
func TestVerifyRecordedGame(t *testing.T) {
	g := recordGame(t, 200)
	code, out := runVerifyOn(t, g.export)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("%d rolls", g.rolls)) || !strings.Contains(out, "engine replay: every block reproduced") {
		t.Fatalf("untampered game of %d rolls: verify exit %d:\n%s", g.rolls, code, out)
	}
	cases := tamperCases(t, g)
	for _, c := range cases {
		verifyFails(t, c.name, c.export, c.entry)
	}
	t.Run("verify-dice.py", func(t *testing.T) {
		python := python3(t)
		if v := verifyDicePy(t, python, g.export); !v.OK || v.Rolls != g.rolls {
			t.Errorf("untampered game of %d rolls: verify-dice.py = %+v", g.rolls, v)
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				if v := verifyDicePy(t, python, c.export); v.OK || v.Entry != c.entry {
					t.Errorf("verify-dice.py = %+v, want a failure at entry %d", v, c.entry)
				}
			})
		}
	})
}

// tamperCases picks the header and the first block with a roll and orders
// of more than one line, its first roll and its seal, and changes one byte
// in each member's value of each, keeping the line valid JSON; then the
// value of the last roll, and two forgeries that re-hash the chain.
func tamperCases(t *testing.T, g *recorded) []tampered {
	t.Helper()
	blk := -1
	for i, l := range g.lines {
		e, err := dice.ParseEntry(l)
		if i > 0 && err == nil && e.Kind == dice.KindBlock && e.Rolls > 0 && strings.Count(e.Orders, "\n") > 1 {
			blk = i
			break
		}
	}
	if blk < 0 {
		t.Fatal("no block with a roll and several orders")
	}
	seal := blk + 1
	for !bytes.Contains(g.lines[seal], []byte(`"kind":"seal"`)) {
		seal++
	}
	var cases []tampered
	kinds := map[string]bool{}
	for _, i := range []int{0, blk, blk + 1, seal} {
		for _, m := range members(t, g.lines[i]) {
			line := bytes.Clone(g.lines[i])
			mutate(line, m.at)
			if bytes.Equal(line, g.lines[i]) {
				t.Fatalf("entry %d %q: nothing changed", i, m.key)
			}
			kind := kindName(g.lines[i])
			kinds[kind] = true
			cases = append(cases, tampered{fmt.Sprintf("entry %d (%s) %q", i, kind, m.key), join(g.lines, i, line), i})
		}
	}
	if len(kinds) != 4 || len(cases) != 7+14+9+5 {
		t.Fatalf("tampered %d members of %v, want 35 of header, block, roll and seal", len(cases), kinds)
	}
	// One roll deep in the game.
	last := len(g.lines) - 1
	for !bytes.Contains(g.lines[last], []byte(`"kind":"roll"`)) {
		last--
	}
	line := bytes.Clone(g.lines[last])
	mutate(line, bytes.Index(line, []byte(`"value":`))+len(`"value":`))
	cases = append(cases, tampered{fmt.Sprintf("entry %d (roll) \"value\", the last roll", last), join(g.lines, last, line), last})
	// A forger who re-hashes the chain from the changed entry on is caught
	// by the check the hash no longer guards: the roll's derivation, the
	// seed's commitment.
	cases = append(cases,
		tampered{"roll value, chain re-hashed", rehashed(t, g.lines, blk+1, func(e *dice.Entry) { e.Value = (e.Value + 1) % 10 }), blk + 1},
		tampered{"seed, chain re-hashed", rehashed(t, g.lines, blk, func(e *dice.Entry) { e.Seed[7] ^= 1 }), blk})
	return cases
}

// member is a member of a JSON line and the offset of its value.
type member struct {
	key string
	at  int
}

func members(t *testing.T, line []byte) []member {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(line))
	var out []member
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, member{k.(string), int(dec.InputOffset()) + 1}) // canonical: no space after ':'
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

var hexValue = regexp.MustCompile(`^"[0-9a-f]+"`)

// mutate changes one byte of the value at line[at] and keeps the line
// valid JSON: a hex digit in the middle of a hash, seed, key or signature
// becomes the next digit; a text's first letter changes case; a number's
// last digit changes.
func mutate(line []byte, at int) {
	const hexDigits = "0123456789abcdef"
	switch c := line[at]; {
	case hexValue.Match(line[at:]):
		p := at + 1 + bytes.IndexByte(line[at+1:], '"')/2
		line[p] = hexDigits[(strings.IndexByte(hexDigits, line[p])+1)%16]
	case c == '"' || c == '[':
		p := at + bytes.IndexFunc(line[at:], func(r rune) bool { return 'a' <= r|0x20 && r|0x20 <= 'z' })
		line[p] ^= 0x20
	default:
		p := at
		for p < len(line) && '0' <= line[p] && line[p] <= '9' {
			p++
		}
		line[p-1] = '0' + (line[p-1]-'0'+1)%10
	}
}

func kindName(line []byte) string {
	var k struct {
		Kind string `json:"kind"`
	}
	json.Unmarshal(line, &k)
	if k.Kind == "" {
		return "header"
	}
	return k.Kind
}

// join is the export of lines with line i replaced.
func join(lines [][]byte, i int, line []byte) []byte {
	var b bytes.Buffer
	for j, l := range lines {
		if j == i {
			l = line
		}
		b.Write(l)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// rehashed changes entry i and re-hashes it and every entry after it, so
// that every hash and prev is consistent again.
func rehashed(t *testing.T, lines [][]byte, i int, change func(*dice.Entry)) []byte {
	t.Helper()
	out := slices.Clone(lines)
	prev, err := dice.ParseEntry(lines[i-1])
	if err != nil {
		t.Fatal(err)
	}
	head := prev.Hash
	for j := i; j < len(lines); j++ {
		e, err := dice.ParseEntry(lines[j])
		if err != nil {
			t.Fatal(err)
		}
		if j == i {
			change(&e)
		}
		e.Prev = head
		if e.Hash, err = e.ComputeHash(); err != nil {
			t.Fatal(err)
		}
		if out[j], err = e.Line(); err != nil {
			t.Fatal(err)
		}
		head = e.Hash
	}
	return join(out, -1, nil)
}

// storeGame creates a game in a new store file with games.Service, has two
// Autoplayers answer Herald's mails until they have sent at least blocks
// order mails, handled as herald serve would, and returns the store's
// path, closed.
func storeGame(t *testing.T, id string, blocks int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "herald.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc, err := games.New(games.Config{Store: st, Address: "herald@localhost", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateGame(games.NewGame{ID: id, Scenario: "crecy", Players: []games.PlayerSpec{
		{Side: "English", Address: "alice@localhost"}, {Side: "French", Address: "bob@localhost"}}}); err != nil {
		t.Fatal(err)
	}
	players := map[string]*games.Autoplayer{"alice@localhost": {Address: "alice@localhost"}, "bob@localhost": {Address: "bob@localhost"}}
	sent := 0
	for round := 0; sent < blocks; round++ {
		var replies [][]byte
		_, err := svc.DrainOutbox(context.Background(), func(_ context.Context, _ string, to []string, raw []byte) error {
			reply, err := players[to[0]].Reply(raw)
			if err != nil || reply == nil {
				return err
			}
			b, err := mailbox.Compose(*reply)
			replies = append(replies, b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(replies) == 0 || round == 10*blocks {
			t.Fatalf("the players stopped after %d order mails, want %d", sent, blocks)
		}
		for _, raw := range replies {
			if _, err := svc.HandleMail(raw); err != nil {
				t.Fatal(err)
			}
			sent++
		}
	}
	return path
}

// herald verify --store/--config --game verifies a game straight from the
// store: the same verdict as on the file herald game export writes (or on
// it read from standard input), with checkpoints and the store's key.
func TestVerifyFromStore(t *testing.T) {
	db := storeGame(t, "crecy-store", 12)
	code, out := verifyArgs(t, "--store", db, "--game", "crecy-store")
	if code != 0 || !strings.Contains(out, `OK: game "crecy-store"`) || !strings.Contains(out, "engine replay: every block reproduced") {
		t.Fatalf("verify --store: exit %d:\n%s", code, out)
	}
	var export, stderr bytes.Buffer
	if code := Main([]string{"game", "export", "--store", db, "crecy-store"}, nil, &export, &stderr); code != 0 {
		t.Fatalf("game export: %s", stderr.String())
	}
	if code, fromFile := runVerifyOn(t, export.Bytes()); code != 0 || fromFile != out {
		t.Errorf("the export verifies differently (exit %d):\n%s\nfrom the store:\n%s", code, fromFile, out)
	}
	var stdin bytes.Buffer
	if code := Main([]string{"verify", "-"}, bytes.NewReader(export.Bytes()), &stdin, &stderr); code != 0 || stdin.String() != out {
		t.Errorf("verify - (standard input): exit %d:\n%s", code, stdin.String())
	}
	lines := bytes.Split(bytes.TrimSuffix(export.Bytes(), []byte("\n")), []byte("\n"))
	e, err := dice.ParseEntry(lines[5])
	if err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(filepath.Dir(db), "herald.yaml")
	os.WriteFile(config, []byte("address: herald@localhost\nstore: herald.db\nimap:\n  addr: localhost:143\n  username: herald\nsmtp:\n  addr: localhost:25\n"), 0o600)
	cp := fmt.Sprintf("5:%s", e.Hash)
	if code, out := verifyArgs(t, "--checkpoint", cp, "--config", config, "--game", "crecy-store"); code != 0 || !strings.Contains(out, "checkpoints matched: 1") {
		t.Errorf("verify --config --checkpoint %s: exit %d:\n%s", cp, code, out)
	}
	bad := fmt.Sprintf("5:%s", e.Prev)
	if code, out := verifyArgs(t, "--checkpoint", bad, "--store", db, "--game", "crecy-store"); code != 1 || !strings.Contains(out, "FAILED: line 6 (entry 5, ") {
		t.Errorf("verify --checkpoint %s (another head): exit %d, want 1 naming entry 5:\n%s", bad, code, out)
	}
	other := strings.Repeat("ab", 32)
	if code, out := verifyArgs(t, "--key", other, "--store", db, "--game", "crecy-store"); code != 1 || !strings.Contains(out, "FAILED: line 1 (entry 0, header)") {
		t.Errorf("verify --key (another installation's): exit %d, want 1 naming the header:\n%s", code, out)
	}
	if code, out := verifyArgs(t, "--store", db, "--game", "crecy-nosuch"); code != 1 || !strings.Contains(out, "crecy-nosuch") {
		t.Errorf("verify an unknown game: exit %d, want 1 naming it:\n%s", code, out)
	}
	nofile := filepath.Join(filepath.Dir(db), "typo.db")
	if code, out := verifyArgs(t, "--store", nofile, "--game", "crecy-store"); code != 1 || !strings.Contains(out, "typo.db") {
		t.Errorf("verify --store (no such file): exit %d, want 1:\n%s", code, out)
	}
	if _, err := os.Stat(nofile); err == nil {
		t.Error("verify --store created a store")
	}
	for _, args := range [][]string{{"--game", "crecy-store"}, {"--store", db}, {"--store", db, "--game", "crecy-store", "game.jsonl"}, {}} {
		if code, out := verifyArgs(t, args...); code != 2 {
			t.Errorf("verify %q: exit %d, want 2 (usage):\n%s", args, code, out)
		}
	}
}

// The herald commands of docs/dice.md's worked example print what the
// document shows, on the document's export.
func TestDocWorkedExample(t *testing.T) {
	doc := string(mustRead(t, filepath.Join("..", "..", "..", "docs", "dice.md")))
	_, section, ok := strings.Cut(doc, "\n## Worked example\n")
	_, export, ok2 := strings.Cut(section, "\n```jsonl\n")
	export, _, ok3 := strings.Cut(export, "```\n")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/dice.md has no worked example with a ```jsonl export")
	}
	file := filepath.Join(t.TempDir(), "example.jsonl")
	if err := os.WriteFile(file, []byte(export), 0o600); err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, block := range strings.Split(section, "```console\n")[1:] {
		block, _, _ = strings.Cut(block, "```\n")
		for _, c := range strings.Split("\n"+block, "\n$ ")[1:] {
			cmd, want, _ := strings.Cut(c, "\n")
			args := strings.Fields(cmd)
			if args[0] != "herald" {
				continue
			}
			for i, a := range args {
				if a == "example.jsonl" {
					args[i] = file
				}
			}
			var out, errb bytes.Buffer
			if code := Main(args[1:], nil, &out, &errb); code != 0 || out.String() != want {
				t.Errorf("$ %s\nexit %d, prints\n%s%s\nthe document shows\n%s", cmd, code, out.String(), errb.String(), want)
			}
			ran++
		}
	}
	if ran == 0 {
		t.Error("the worked example runs no herald command")
	}
}

// A failure names the line as an editor counts it (the header is line 1)
// and the roll in words, its seq and purpose (issue 16, item 9).
func TestVerifyNamesLineAndRoll(t *testing.T) {
	g := recordGame(t, 5)
	last := len(g.lines) - 1
	for !bytes.Contains(g.lines[last], []byte(`"kind":"roll"`)) {
		last--
	}
	e, err := dice.ParseEntry(g.lines[last])
	if err != nil {
		t.Fatal(err)
	}
	line := bytes.Clone(g.lines[last])
	mutate(line, bytes.Index(line, []byte(`"value":`))+len(`"value":`))
	export := join(g.lines, last, line)
	code, out := runVerifyOn(t, export)
	want := fmt.Sprintf("FAILED: line %d (entry %d, roll #%d, %s): ", last+1, last, e.Seq, e.Purpose)
	if code != 1 || !strings.Contains(out, want) {
		t.Fatalf("exit %d, want 1 and %q:\n%s", code, want, out)
	}
	// Line last+1, counted from 1 as an editor does, is that roll.
	if ed := strings.Split(string(export), "\n")[last]; !strings.Contains(ed, `"kind":"roll"`) || !strings.Contains(ed, fmt.Sprintf(`"seq":%d,`, e.Seq)) {
		t.Errorf("line %d of the file is %s, not roll #%d", last+1, ed, e.Seq)
	}
}
