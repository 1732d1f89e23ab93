package command

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// herald ladder mirrors the mail commands: create, add, start, adjudicate,
// show; a refused command exits 1 with the reason and changes nothing.
func TestLadderCLI(t *testing.T) {
	db := filepath.Join(t.TempDir(), "herald.db")
	run := func(want int, args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		args = append(args, "--store", db)
		if code := Main(args, strings.NewReader(""), &stdout, &stderr); code != want {
			t.Fatalf("herald %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, want, stdout.String(), stderr.String())
		}
		return stdout.String() + stderr.String()
	}
	run(0, "ladder", "create", "club", "ladder", "scenarios=crecy", "clock=3d+1d", "cap=5d", "--as", "org@x.org")
	run(0, "ladder", "club", "ADD", "alice@x.org")
	run(0, "ladder", "club", "ADD", "bob@x.org")
	out := run(0, "ladder", "club", "START", "crecy", "alice@x.org", "bob@x.org")
	if !strings.Contains(out, "Game crecy-") {
		t.Fatalf("start: %s", out)
	}
	id := strings.Fields(out[strings.Index(out, "crecy-"):])[0]
	before := run(0, "ladder", "show", "club")
	for _, bad := range [][]string{
		{"ladder", "club", "ADD", "carol@x.org", "--as", "alice@x.org"},                // not an organizer
		{"ladder", "club", "ADJUDICATE", "crecy-none", "english"},                      // unknown game
		{"ladder", "club", "START", "crecy", "alice@x.org", "eve@x.org"},               // unknown member
		{"ladder", "club", "CHALLENGE", "eve@x.org", "--as", "bob@x.org"},              // unknown member
		{"ladder", "nope", "STANDINGS"},                                                // unknown ladder
		{"ladder", "create", "club", "ladder", "scenarios=crecy", "--as", "org@x.org"}, // exists
	} {
		if out := run(1, bad...); !strings.Contains(out, "herald ladder:") {
			t.Errorf("%v: %s", bad, out)
		}
		if after := run(0, "ladder", "show", "club"); after != before {
			t.Errorf("%v changed the ladder:\n%s\n%s", bad, before, after)
		}
	}
	out = run(0, "ladder", "club", "ADJUDICATE", id, "english")
	if !strings.Contains(out, "won by org@x.org's adjudication") {
		t.Errorf("adjudicate: %s", out)
	}
	if out := run(1, "ladder", "club", "ADJUDICATE", id, "french"); !strings.Contains(out, "game already finished") {
		t.Errorf("adjudicate again: %s", out)
	}
	show := run(0, "ladder", "show", "club")
	if !strings.Contains(show, "1516") || !strings.Contains(show, "1484") {
		t.Errorf("ratings after a win between equals with K 32:\n%s", show)
	}
	if list := run(0, "ladder", "list"); !strings.Contains(list, "club") {
		t.Errorf("list: %s", list)
	}
	k := run(0, "ladder", "key", "club", "alice@x.org")
	if len(strings.TrimSpace(k)) != 19 {
		t.Errorf("key %q", k)
	}
}
