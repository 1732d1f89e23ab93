package dice

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// pyResult is what tools/verify-dice.py --json prints.
type pyResult struct {
	OK     bool   `json:"ok"`
	Entry  uint64 `json:"entry"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
	Rolls  uint64 `json:"rolls"`
}

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

func runPython(t *testing.T, python, script string, export []byte, opts Options) pyResult {
	t.Helper()
	path := filepath.Join(t.TempDir(), "export.jsonl")
	if err := os.WriteFile(path, export, 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{script, "--json", path}
	for _, c := range opts.Checkpoints {
		args = append(args, "--checkpoint", c.String())
	}
	if opts.PublicKey != nil {
		args = append(args, "--public-key", opts.PublicKey.String())
	}
	cmd := exec.Command(python, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	var r pyResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("verify-dice.py printed %q: %v", out, err)
	}
	return r
}

// agree runs both verifiers on export and fails unless they reach the same
// verdict at the same entry.
func agree(t *testing.T, python, script, name string, export []byte, opts Options) pyResult {
	t.Helper()
	rep, err := Verify(bytes.NewReader(export), opts)
	py := runPython(t, python, script, export, opts)
	var f *Failure
	switch {
	case err == nil && !py.OK:
		t.Errorf("%s: Verify = OK, verify-dice.py = entry %d (%s): %s", name, py.Entry, py.Kind, py.Reason)
	case err != nil && !errors.As(err, &f):
		t.Fatalf("%s: Verify = %v", name, err)
	case err != nil && py.OK:
		t.Errorf("%s: Verify = %v, verify-dice.py = OK", name, err)
	case err != nil && py.Entry != f.Entry:
		t.Errorf("%s: Verify = %v, verify-dice.py = entry %d (%s): %s", name, err, py.Entry, py.Kind, py.Reason)
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
