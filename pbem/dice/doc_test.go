package dice

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// The worked example of docs/dice.md, computed here so that the document
// cannot drift: TestWorkedExample checks every number it prints.
const (
	exGame     = "ladder-7"
	exScenario = "crecy"
	exKeySeed  = "686572616c6420776f726b6564206578616d706c652c206e6576657220757365" // "herald worked example, never use"
	exSeed1    = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	exSeed2    = "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
	exOrders   = "ACTIVATE Doria\nEND\nCONTINUE Grimaldi\n"
	exPurpose  = "Continuity DR: Grimaldi (AR 2)"
	// The worked example's D20: RollN(exD20, 20) as the batch's second
	// roll (index 1), which the example's export does not hold.
	exD20 = "To-hit: Ogre at Bear"
)

var exSides = []string{"English", "French"}

type example struct {
	header  *Header
	entries []Entry
	export  []byte
	key     *Key
	mac     []byte
	value   int
	// The D20 the batch would have rolled second: its message, MAC and
	// value (0–19).
	d20Msg   []byte
	d20MAC   []byte
	d20Value int
}

func workedExample(t *testing.T) *example {
	t.Helper()
	seeds := []string{exSeed1, exSeed2}
	old := newSeed
	t.Cleanup(func() { newSeed = old })
	newSeed = func() (Seed, error) {
		var s Seed
		if len(seeds) == 0 {
			return s, fmt.Errorf("worked example: no more seeds")
		}
		hex.Decode(s[:], []byte(seeds[0]))
		seeds = seeds[1:]
		return s, nil
	}
	ks, _ := hex.DecodeString(exKeySeed)
	key, err := KeyFromSeed(ks)
	if err != nil {
		t.Fatal(err)
	}
	h, u, err := NewGame(key, exGame, exScenario, exSides)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Begin(u.Chain, u.Next, "French", 1, exOrders)
	if err != nil {
		t.Fatal(err)
	}
	v, err := b.Roll(exPurpose)
	if err != nil {
		t.Fatal(err)
	}
	u2, err := b.Close(key, sha256.Sum256([]byte("example events\n")), sha256.Sum256([]byte("example state\n")))
	if err != nil {
		t.Fatal(err)
	}
	ex := &example{header: h, entries: append(u.Entries, u2.Entries...), key: key, value: v}
	var buf bytes.Buffer
	if err := WriteExport(&buf, h, ex.entries); err != nil {
		t.Fatal(err)
	}
	ex.export = buf.Bytes()
	var seed [32]byte
	hex.Decode(seed[:], []byte(exSeed1))
	d := newDeriver(seed)
	d.deriveV2(exGame, 1, 0, exPurpose, sha256.Sum256([]byte(exOrders)), Checkpoint{Length: 0, Head: h.Hash})
	ex.mac = d.sum
	// The D20: a second batch from the same seed rolls it second.
	b2, err := Begin(u.Chain, u.Next, "French", 1, exOrders)
	if err != nil {
		t.Fatal(err)
	}
	b2.Roll(exPurpose)
	if ex.d20Value, err = b2.RollN(exD20, 20); err != nil {
		t.Fatal(err)
	}
	ex.d20Msg = RollMessageN(exGame, 1, 1, exD20, sha256.Sum256([]byte(exOrders)), Checkpoint{Length: 0, Head: h.Hash}, 20, 0)
	d2 := newDeriver(seed)
	d2.deriveN(exGame, 1, 1, exD20, sha256.Sum256([]byte(exOrders)), Checkpoint{Length: 0, Head: h.Hash}, 20)
	ex.d20MAC = slices.Clone(d2.sum)
	return ex
}

// annotated writes message bytes as the document's annotated hex lines:
// each field's length and content on one line, with a comment.
func annotatedField(s []byte, comment string) string {
	return fmt.Sprintf("> %016x %x  # %s\n", len(s), s, comment)
}

func readDoc(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "docs", "dice.md"))
	if err != nil {
		t.Fatalf("docs/dice.md: %v", err)
	}
	return string(b)
}

func TestWorkedExample(t *testing.T) {
	ex := workedExample(t)
	doc := readDoc(t)
	seed1, _ := hex.DecodeString(exSeed1)
	ordersH := sha256.Sum256([]byte(exOrders))
	firstByte := -1
	for _, c := range ex.mac {
		if c < 250 {
			firstByte = int(c)
			break
		}
	}
	block, roll, seal := ex.entries[1], ex.entries[2], ex.entries[3]
	line3, _ := block.Line()
	withoutHash := strings.TrimSuffix(string(line3), `,"hash":"`+block.Hash.String()+`"}`) + "}"
	want := []struct{ what, text string }{
		{"the export", "```jsonl\n" + string(ex.export) + "```\n"},
		{"commitment of seed 1", "$ printf '%s' " + exSeed1 + " | xxd -r -p | sha256sum\n" + Seed(seed1).Commitment().String() + "  -\n"},
		{"hash of the orders", "$ printf 'ACTIVATE Doria\\nEND\\nCONTINUE Grimaldi\\n' | sha256sum\n" + Hash(ordersH).String() + "  -\n"},
		{"roll message", "$ sed 's/#.*//' > roll.hex <<'EOF'\n" +
			annotatedField([]byte(rollDomainV2), `"herald/dice/roll/v2"`) +
			annotatedField([]byte(exGame), `game "`+exGame+`"`) +
			"> 0000000000000001  # batch 1\n" +
			"> 0000000000000000  # index 0\n" +
			annotatedField([]byte(exPurpose), "purpose") +
			annotatedField(ordersH[:], "SHA-256 of the sender's block") +
			"> 0000000000000000  # after: length 0\n" +
			annotatedField(ex.header.Hash[:], "after: head, the header's hash") +
			"> 0000000000000000  # attempt 0\n> EOF\n"},
		{"roll message length", fmt.Sprintf("$ xxd -r -p roll.hex > roll.bin && wc -c < roll.bin\n%d\n", len(RollMessageV2(exGame, 1, 0, exPurpose, ordersH, Checkpoint{Head: ex.header.Hash}, 0)))},
		{"HMAC", "$ openssl dgst -sha256 -mac HMAC -macopt hexkey:" + exSeed1 + " roll.bin\nHMAC-SHA2-256(roll.bin)= " + hex.EncodeToString(ex.mac) + "\n"},
		{"first byte", fmt.Sprintf("$ echo $((0x%02x %% 10))\n%d\n", firstByte, ex.value)},
		{"roll entry value", fmt.Sprintf(`"purpose":%q,"value":%d`, exPurpose, roll.Value)},
		{"D20 message", "$ sed 's/#.*//' > d20.hex <<'EOF'\n" +
			annotatedField([]byte(rollDomainN), `"herald/dice/roll/v2/faces"`) +
			annotatedField([]byte(exGame), `game "`+exGame+`"`) +
			"> 0000000000000001  # batch 1\n" +
			"> 0000000000000001  # index 1\n" +
			annotatedField([]byte(exD20), "purpose") +
			annotatedField(ordersH[:], "SHA-256 of the sender's block") +
			"> 0000000000000000  # after: length 0\n" +
			annotatedField(ex.header.Hash[:], "after: head, the header's hash") +
			"> 0000000000000014  # faces 20\n" +
			"> 0000000000000000  # attempt 0\n> EOF\n"},
		{"D20 message length", fmt.Sprintf("$ xxd -r -p d20.hex > d20.bin && wc -c < d20.bin\n%d\n", len(ex.d20Msg))},
		{"D20 HMAC", "$ openssl dgst -sha256 -mac HMAC -macopt hexkey:" + exSeed1 + " d20.bin\nHMAC-SHA2-256(d20.bin)= " + hex.EncodeToString(ex.d20MAC) + "\n"},
		{"D20 first byte", fmt.Sprintf("$ echo $((0x%02x %% 20))\n%d\n", ex.d20MAC[0], ex.d20Value)},
		{"D20 shows", fmt.Sprintf("mod 20 = %d, and the D20 shows %d + 1 = %d.", ex.d20Value, ex.d20Value, ex.d20Value+1)},
		{"D20 log line", fmt.Sprintf(`"index":1,"purpose":%q,"faces":20,"value":%d`, exD20, ex.d20Value)},
		{"D20 record line", fmt.Sprintf("`roll 2 1 d20 %d %s`", ex.d20Value, exD20)},
		{"entry hash", "$ sed -n 3p example.jsonl | sed -E 's/,\"hash\":\"[0-9a-f]{64}\"}$/}/' | tr -d '\\n' | sha256sum\n" + block.Hash.String() + "  -\n"},
		{"entry without hash", withoutHash},
		{"head message", "$ sed 's/#.*//' > head.hex <<'EOF'\n" +
			annotatedField([]byte(headDomain), `"herald/dice/head/v1"`) +
			annotatedField([]byte(exGame), `game "`+exGame+`"`) +
			"> 0000000000000003  # length 3\n" +
			annotatedField(roll.Hash[:], "head: the hash of entry 3") +
			"> EOF\n"},
		{"public key", "$ printf '302a300506032b6570032100%s' " + ex.key.Public().String() + " | xxd -r -p | openssl pkey -pubin -inform DER -out pub.pem\n"},
		{"signature", "$ printf '%s' " + seal.Sig.String() + " | xxd -r -p > sig.bin\n"},
		{"verify", "$ herald verify --no-replay --checkpoint 3:" + roll.Hash.String() + " example.jsonl\n"},
		{"python", "$ python3 tools/verify-dice.py --checkpoint 3:" + roll.Hash.String() + " example.jsonl\n"},
	}
	if ex.d20MAC[0] >= 240 {
		t.Errorf("the D20's first MAC byte is %d: docs/dice.md says it is used", ex.d20MAC[0])
	}
	for _, w := range want {
		if !strings.Contains(doc, w.text) {
			t.Errorf("docs/dice.md lacks %s; want the text\n%s", w.what, w.text)
		}
	}
	if t.Failed() {
		return
	}
	if rep, err := Verify(bytes.NewReader(ex.export), Options{Checkpoints: []Checkpoint{{Length: 3, Head: roll.Hash, Sig: &seal.Sig}}}); err != nil {
		t.Errorf("Verify(worked example) = %v\n%s", err, rep)
	}
	runConsole(t, doc, ex.export)
}

// runConsole runs the worked example's shell commands (lines "$ cmd",
// continued by "> " lines) in a temporary directory holding example.jsonl,
// and compares what they print with the lines the document shows after
// them. It skips when a tool is missing.
func runConsole(t *testing.T, doc string, export []byte) {
	for _, tool := range []string{"bash", "xxd", "sha256sum", "openssl", "sed", "tr", "wc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Logf("%s is not on PATH: not running the worked example's commands", tool)
			return
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "example.jsonl"), export, 0o600); err != nil {
		t.Fatal(err)
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	i := strings.Index(doc, "## Worked example")
	if i < 0 {
		t.Fatal(`docs/dice.md has no "## Worked example"`)
	}
	section := doc[i:]
	if j := strings.Index(section[3:], "\n## "); j >= 0 {
		section = section[:j+3]
	}
	hmacLine := regexp.MustCompile(`^HMAC-[A-Z0-9-]+\(.*\)= ([0-9a-f]+)$`)
	norm := func(s string) string {
		var out []string
		for l := range strings.SplitSeq(strings.TrimRight(s, "\n"), "\n") {
			if m := hmacLine.FindStringSubmatch(l); m != nil {
				l = "HMAC(…)= " + m[1]
			}
			out = append(out, l)
		}
		return strings.Join(out, "\n")
	}
	ran := 0
	for _, block := range consoleBlocks(section) {
		for _, c := range block {
			if strings.HasPrefix(c.cmd, "herald ") {
				continue // the binary is built elsewhere
			}
			cmd := strings.ReplaceAll(c.cmd, "tools/verify-dice.py", filepath.Join(root, "tools", "verify-dice.py"))
			out, err := exec.Command("bash", "-c", "cd "+dir+" && "+cmd).CombinedOutput()
			if err != nil {
				t.Errorf("$ %s\n%s: %v", c.cmd, out, err)
				continue
			}
			if norm(string(out)) != norm(c.out) {
				t.Errorf("$ %s\nprints\n%s\nthe document shows\n%s", c.cmd, out, c.out)
			}
			ran++
		}
	}
	if ran < 8 {
		t.Errorf("ran %d commands of the worked example, want at least 8", ran)
	}
}

type console struct{ cmd, out string }

// consoleBlocks parses the ```console blocks of a text.
func consoleBlocks(text string) [][]console {
	var blocks [][]console
	var cur []console
	in := false
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		l := sc.Text()
		switch {
		case !in && l == "```console":
			in, cur = true, nil
		case in && l == "```":
			in = false
			blocks = append(blocks, cur)
		case in && strings.HasPrefix(l, "$ "):
			cur = append(cur, console{cmd: l[2:]})
		case in && strings.HasPrefix(l, "> ") && len(cur) > 0 && cur[len(cur)-1].out == "":
			cur[len(cur)-1].cmd += "\n" + l[2:]
		case in && len(cur) > 0:
			cur[len(cur)-1].out += l + "\n"
		}
	}
	return blocks
}

// TestWorkedExampleValues prints the example's numbers (go test -run
// WorkedExampleValues -v) for whoever rewrites docs/dice.md.
func TestWorkedExampleValues(t *testing.T) {
	ex := workedExample(t)
	t.Logf("export:\n%s", ex.export)
	t.Logf("public key %s, mac %x, value %d", ex.key.Public(), ex.mac, ex.value)
	t.Logf("d20: message %d bytes, mac %x, value %d", len(ex.d20Msg), ex.d20MAC, ex.d20Value)
	for _, e := range ex.entries {
		t.Logf("entry %d %s hash %s", e.I, e.Kind, e.Hash)
	}
}
