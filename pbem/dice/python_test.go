package dice

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// pyResult is what tools/verify-dice.py prints: its first line, and for
// an export that verifies the rolls it counted.
type pyResult struct {
	OK    bool
	Line  string // the first line printed: "OK: …" or "FAILED: line N (entry M, …): …"
	Rolls uint64
}

// pyOK reads the rolls counted from the script's summary line.
var pyOK = regexp.MustCompile(`^OK: \d+ entries, \d+ batches, (\d+) rolls, `)

func pythonVerifier(t *testing.T) (python, script string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH: skipping the check that tools/verify-dice.py agrees with Verify")
	}
	_, file, _, _ := runtime.Caller(0)
	script = filepath.Join(filepath.Dir(file), "..", "..", "tools", "verify-dice.py")
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("tools/verify-dice.py: %v", err)
	}
	return python, script
}

// runScript runs the script with args and returns what it printed and
// whether it exited 0 (it must exit 0 or 1).
func runScript(t *testing.T, python string, args ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command(python, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), err == nil
}

func runPython(t *testing.T, python, script string, export []byte, opts Options) pyResult {
	t.Helper()
	path := filepath.Join(t.TempDir(), "export.jsonl")
	if err := os.WriteFile(path, export, 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{script, path}
	for _, c := range opts.Checkpoints {
		args = append(args, "--checkpoint", c.String())
	}
	if opts.PublicKey != nil {
		args = append(args, "--public-key", opts.PublicKey.String())
	}
	out, ok := runScript(t, python, args...)
	r := pyResult{OK: ok, Line: strings.SplitN(out, "\n", 2)[0]}
	switch m := pyOK.FindStringSubmatch(r.Line); {
	case ok && m == nil:
		t.Fatalf("verify-dice.py exited 0 and printed %q", out)
	case ok:
		r.Rolls, _ = strconv.ParseUint(m[1], 10, 64)
	case !strings.HasPrefix(r.Line, "FAILED: line "):
		t.Fatalf("verify-dice.py exited 1 and printed %q", out)
	}
	return r
}

// agree runs both verifiers on export and fails unless they reach the same
// verdict, naming the failing line the same way: the script's failure must
// begin with "FAILED: " and Failure.Where, as herald verify prints it
// (the reasons' words may differ).
func agree(t *testing.T, python, script, name string, export []byte, opts Options) pyResult {
	t.Helper()
	rep, err := Verify(bytes.NewReader(export), opts)
	py := runPython(t, python, script, export, opts)
	var f *Failure
	switch {
	case err == nil && !py.OK:
		t.Errorf("%s: Verify = OK, verify-dice.py = %s", name, py.Line)
	case err != nil && !errors.As(err, &f):
		t.Fatalf("%s: Verify = %v", name, err)
	case err != nil && py.OK:
		t.Errorf("%s: Verify = %v, verify-dice.py = OK", name, err)
	case err != nil && !strings.HasPrefix(py.Line, "FAILED: "+f.Where()+": "):
		t.Errorf("%s: herald verify prints\n\t%s\nverify-dice.py\n\t%s", name, strings.SplitN(rep.String(), "\n", 2)[0], py.Line)
	case err == nil && py.Rolls != rep.Rolls:
		t.Errorf("%s: Verify counted %d rolls, verify-dice.py %d", name, rep.Rolls, py.Rolls)
	}
	return py
}

func TestPythonVerifierAgrees(t *testing.T) {
	python, script := pythonVerifier(t)
	if out, err := exec.Command(python, script, "--self-test").CombinedOutput(); err != nil {
		t.Fatalf("verify-dice.py --self-test: %v\n%s", err, out)
	}
	big := genGame(t, 7, 200)
	opts := Options{Checkpoints: big.checkpoints(), PublicKey: &big.header.PublicKey}
	if py := agree(t, python, script, "untampered 200-roll game", big.export, opts); !py.OK || py.Rolls < 200 {
		t.Errorf("verify-dice.py(untampered) = %+v, want OK with at least 200 rolls", py)
	}
	// One tampered roll value, deep in the game.
	i := bytes.LastIndex(big.export, []byte(`"value":`)) + len(`"value":`)
	tampered := append([]byte(nil), big.export...)
	tampered[i] = '0' + (tampered[i]-'0'+1)%10
	if py := agree(t, python, script, "tampered roll value", tampered, opts); py.OK {
		t.Errorf("verify-dice.py(tampered) = OK, want a failure")
	}

	small := genGame(t, 8, 10)
	cps := small.checkpoints()
	targets := map[string]string{
		"roll value": `"value":`, "purpose": `"purpose":"`, "orders": `"orders":"`, "seed": `"seed":"`,
		"next commit": `"next_commit":"`, "prev": `"prev":"`, "hash": `"hash":"`, "sig": `"sig":"`,
		"public key": `"public_key":"`, "batch": `"batch":`, "seq": `"seq":`,
	}
	for name, at := range targets {
		i := bytes.Index(small.export[200:], []byte(at)) + 200 + len(at)
		b := append([]byte(nil), small.export...)
		b[i] ^= 0x01
		if py := agree(t, python, script, name, b, Options{}); py.OK {
			t.Errorf("verify-dice.py(%s tampered) = OK, want a failure", name)
		}
	}
	rng := rand.New(rand.NewPCG(8, 8))
	flips := 12
	if testing.Short() {
		flips = 3
	}
	for range flips {
		b := append([]byte(nil), small.export...)
		i := rng.IntN(len(b))
		b[i] ^= []byte{0x01, 0x02, 0x20, 0x80}[rng.IntN(4)]
		agree(t, python, script, "random flip", b, Options{})
	}
	cp := cps[2]
	for name, o := range map[string]Options{
		"checkpoints":             {Checkpoints: cps},
		"checkpoint head differs": {Checkpoints: []Checkpoint{{Length: cp.Length, Head: Hash{1}}}},
		"checkpoint beyond":       {Checkpoints: []Checkpoint{{Length: 1000, Head: Hash{1}}}},
		"checkpoint bad sig":      {Checkpoints: []Checkpoint{{Length: cp.Length, Head: cp.Head, Sig: cps[1].Sig}}},
		"other public key":        {PublicKey: &PublicKey{1}},
	} {
		agree(t, python, script, name, small.export, o)
	}
	agree(t, python, script, "truncated inside a batch", edit(small.export, len(small.entries), func([]byte) []byte { return nil }), Options{})
	agree(t, python, script, "empty", nil, Options{})
	agree(t, python, script, "no final newline", small.export[:len(small.export)-1], Options{})
}

// genGameV1 plays batches of a version 1 game (rolls bound to the whole
// order text) with queued standing orders in every block, as games
// started before version 2 go on.
func genGameV1(t *testing.T, stream uint64, batches int) []byte {
	t.Helper()
	fixedSeeds(t, stream)
	key := testKey(t)
	h, u, err := NewGame(key, "ladder-1", "crecy", []string{"English", "French"})
	if err != nil {
		t.Fatal(err)
	}
	h.Version = VersionOne
	h.Hash = h.ComputeHash()
	c := Chain{Version: VersionOne, Game: h.Game, Head: h.Hash, Commit: h.Commit}
	open := &Update{Next: u.Next}
	if err := open.seal(key, &c); err != nil {
		t.Fatal(err)
	}
	entries, seed := open.Entries, u.Next
	for i := range batches {
		orders := fmt.Sprintf("[English]\nSTANDING SEIZE NEVER\n[French]\nACTIVATE Doria %d\n", i)
		b, err := Begin(c, seed, "French", uint64(i+1), orders)
		if err != nil {
			t.Fatal(err)
		}
		for j := range i % 3 {
			if _, err := b.Roll(fmt.Sprintf("Continuity DR: Doria %d.%d", i, j)); err != nil {
				t.Fatal(err)
			}
		}
		up, err := b.Close(key, Hash{1}, Hash{2})
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, up.Entries...)
		c, seed = up.Chain, up.Next
	}
	var buf bytes.Buffer
	if err := WriteExport(&buf, h, entries); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The script reads version 1 exports as before and names the same line as
// Verify on the corner cases of docs/dice.md's canonical form: lone
// surrogates, integers out of range, the line limit without its newline,
// a member name Go's encoding/json matches without case.
func TestPythonVerifierEdges(t *testing.T) {
	python, script := pythonVerifier(t)
	v1 := genGameV1(t, 11, 6)
	if py := agree(t, python, script, "version 1 game", v1, Options{}); !py.OK || py.Rolls == 0 {
		t.Errorf("verify-dice.py(version 1) = %+v, want OK with rolls", py)
	}
	i := bytes.LastIndex(v1, []byte(`"value":`)) + len(`"value":`)
	b := append([]byte(nil), v1...)
	b[i] = '0' + (b[i]-'0'+1)%10
	agree(t, python, script, "version 1, a roll value changed", b, Options{})

	g := genGame(t, 12, 10)
	var roll int // the line of the first roll
	for n, l := range bytes.Split(g.export, []byte{'\n'}) {
		if bytes.Contains(l, []byte(`"kind":"roll"`)) {
			roll = n
			break
		}
	}
	set := func(member, value string) func([]byte) []byte { // a number member's value
		re := regexp.MustCompile(`"` + member + `":-?[0-9]+`)
		return func(l []byte) []byte { return re.ReplaceAll(l, []byte(`"`+member+`":`+value)) }
	}
	rehashed := func(value int) []byte { // the first roll's value, the chain re-hashed and re-signed
		return rewrite(t, g, func(es []Entry) []Entry {
			for i := range es {
				if es[i].Kind == KindRoll {
					es[i].Value = value
					break
				}
			}
			return es
		})
	}
	replace := func(old, new string) func([]byte) []byte {
		return func(l []byte) []byte {
			if !bytes.Contains(l, []byte(old)) {
				t.Fatalf("%q not in %s", old, l)
			}
			return bytes.Replace(l, []byte(old), []byte(new), 1)
		}
	}
	purpose := func(l []byte) string {
		_, rest, _ := bytes.Cut(l, []byte(`"purpose":"`))
		p, _, _ := bytes.Cut(rest, []byte(`","value"`))
		return `"purpose":"` + string(p) + `"`
	}(bytes.Split(g.export, []byte{'\n'})[roll])
	long := func(n int) func([]byte) []byte { // the line n bytes long, newline not counted
		return func(l []byte) []byte {
			pad := n - (len(l) - 1) + len(purpose) - len(`"purpose":"x"`) + 1
			l = bytes.Replace(l, []byte(purpose), []byte(`"purpose":"`+strings.Repeat("x", pad)+`"`), 1)
			if len(l)-1 != n {
				t.Fatalf("made a line of %d bytes, want %d", len(l)-1, n)
			}
			return l
		}
	}
	cases := map[string][]byte{
		"lone high surrogate":      edit(g.export, roll, replace(purpose, `"purpose":"a\ud800b"`)),
		"lone low surrogate":       edit(g.export, roll, replace(purpose, `"purpose":"\udc00"`)),
		"surrogates reversed":      edit(g.export, roll, replace(purpose, `"purpose":"\ude00\ud83d"`)),
		"proper pair":              edit(g.export, roll, replace(purpose, `"purpose":"\ud83d\ude00"`)),
		"value 10":                 edit(g.export, roll, set("value", "10")),
		"value -1":                 edit(g.export, roll, set("value", "-1")),
		"value 10, re-hashed":      rehashed(10),
		"value -1, re-hashed":      rehashed(-1),
		"value 2^63":               edit(g.export, roll, set("value", "9223372036854775808")),
		"value -2^63":              edit(g.export, roll, set("value", "-9223372036854775808")),
		"value -2^63-1":            edit(g.export, roll, set("value", "-9223372036854775809")),
		"seq 2^64-1":               edit(g.export, roll, set("seq", "18446744073709551615")),
		"seq 2^64":                 edit(g.export, roll, set("seq", "18446744073709551616")),
		"seq -0":                   edit(g.export, roll, set("seq", "-0")),
		"seq 01":                   edit(g.export, roll, set("seq", "01")),
		"seq 1e0":                  edit(g.export, roll, set("seq", "1e0")),
		"herald_dice 3":            edit(g.export, 0, set("herald_dice", "3")),
		"herald_dice 0":            edit(g.export, 0, set("herald_dice", "0")),
		"herald_dice 2^63":         edit(g.export, 0, set("herald_dice", "9223372036854775808")),
		"kinD":                     edit(g.export, roll, replace(`"kind"`, `"kinD"`)),
		"Kelvin kind":              edit(g.export, roll, replace(`"kind"`, `"\u212aind"`)),
		"kind twice":               edit(g.export, roll, replace(`"kind":"roll"`, `"kind":"roll","KIND":null`)),
		"kind a number":            edit(g.export, roll, replace(`"kind":"roll"`, `"kind":"roll","Kind":1`)),
		"NaN":                      edit(g.export, roll, replace(`"value":`, `"value":NaN,"x":`)),
		"invalid UTF-8":            edit(g.export, roll, replace(purpose, "\"purpose\":\"\xff\"")),
		"line of 1 MiB":            edit(g.export, roll, long(MaxLine)),
		"line of 1 MiB and 1 byte": edit(g.export, roll, long(MaxLine+1)),
		"last line of 1 MiB+1, no newline": func() []byte {
			lines := bytes.SplitAfter(edit(g.export, roll, long(MaxLine+1)), []byte{'\n'})
			return bytes.TrimSuffix(bytes.Join(lines[:roll+1], nil), []byte{'\n'})
		}(),
	}
	for name, b := range cases {
		py := agree(t, python, script, name, b, Options{})
		t.Logf("%s: %.100s", name, py.Line)
	}
}
