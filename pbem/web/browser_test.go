package web

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestBrowser drives a real headless Chromium through the status page:
// the ladder's standings, a game's page with its map loaded, the verify
// button on the store's log, and an export with one roll changed
// uploaded for verification. With HERALD_WEB_SCREENSHOTS set to a
// directory it saves the four screenshots there (docs/img: web-ladder.png,
// web-game.png, web-verify-ok.png, web-verify-tampered.png).
func TestBrowser(t *testing.T) {
	chromium, driverPath := browserPaths(t)
	s := newSite(t, 24)
	b := startDriver(t, driverPath).newSession(chromium, 1280, 1000)
	shots := map[string][]byte{}

	b.navigate(s.srv.URL + "/ladder/club")
	if title := b.title(); !strings.Contains(title, "Ladder club") {
		t.Errorf("the ladder page's title is %q", title)
	}
	standings := b.text(b.find("#standings"))
	for _, w := range []string{"alice@club.example", "bob@club.example", "carol@club.example", hostileMember, "1516", "1484"} {
		if !strings.Contains(standings, w) {
			t.Errorf("the standings lack %q:\n%s", w, standings)
		}
	}
	shots["web-ladder.png"] = b.screenshot()

	b.navigate(s.srv.URL + "/game/" + s.game)
	img := b.find("#map")
	var width int
	for i := 0; i < 100 && width == 0; i++ {
		width, _ = strconv.Atoi(string(b.property(img, "naturalWidth")))
	}
	if width <= 0 {
		t.Fatalf("the map did not load: naturalWidth %s", b.property(img, "naturalWidth"))
	}
	if got := b.text(b.find("#waiting")); got == "" {
		t.Error("the game page does not say whose move it is")
	}
	if clock := b.text(b.find("#clock")); !strings.Contains(clock, "now") {
		t.Errorf("the clock: %q", clock)
	}
	if audit := b.text(b.find("#audit")); !strings.Contains(audit, "The dice log holds together") {
		t.Errorf("the audit: %q", audit)
	}
	shots["web-game.png"] = b.screenshot()

	b.click(b.find("#verify"))
	b.waitText("#result", "OK: the dice log verifies")
	if report := b.text(b.find("#report")); !strings.Contains(report, "engine replay: every block reproduced its events and state") {
		t.Errorf("the report of the store's log:\n%s", report)
	}
	shots["web-verify-ok.png"] = b.screenshot()

	bad, entry := tamper(t, s.export(), 3)
	file := filepath.Join(t.TempDir(), s.game+"-tampered.jsonl")
	if err := os.WriteFile(file, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	b.navigate(s.srv.URL + "/game/" + s.game)
	b.typeInto(b.find("#export"), file)
	b.click(b.find("#verify-upload"))
	got := b.waitText("#result", "FAILED")
	if want := fmt.Sprintf("FAILED at line %d (entry %d, roll #3", entry+1, entry); !strings.Contains(got, want) {
		t.Errorf("the tampered export: %q, want %q", got, want)
	}
	if reason := b.text(b.find("#reason")); reason == "" {
		t.Error("the failure gives no reason")
	}
	shots["web-verify-tampered.png"] = b.screenshot()

	dir := os.Getenv("HERALD_WEB_SCREENSHOTS")
	for name, shot := range shots {
		im, err := png.Decode(bytes.NewReader(shot))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r := im.Bounds(); r.Dx() != 1280 || r.Dy() < 600 {
			t.Errorf("%s: %v", name, r)
		}
		if dir == "" {
			continue
		}
		// Chromium's PNGs are quickly compressed: compress them harder.
		var small bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&small, im); err != nil {
			t.Fatal(err)
		}
		if small.Len() < len(shot) {
			shot = small.Bytes()
		}
		if len(shot) > 300<<10 {
			t.Errorf("%s: %d bytes, more than 300 kB", name, len(shot))
		}
		if err := os.WriteFile(filepath.Join(dir, name), shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
