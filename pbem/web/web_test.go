package web

import (
	"bytes"
	"fmt"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// get fetches a path of the site.
func (s *site) get(path string) (int, http.Header, string) {
	s.t.Helper()
	resp, err := http.Get(s.srv.URL + path)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

// verify posts the verify form of a game, with an export file when
// export is not nil.
func (s *site) verify(game string, export []byte) (int, string) {
	s.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if export != nil {
		fw, err := mw.CreateFormFile("export", game+".jsonl")
		if err != nil {
			s.t.Fatal(err)
		}
		fw.Write(export)
	}
	mw.Close()
	resp, err := http.Post(s.srv.URL+"/game/"+game+"/verify", mw.FormDataContentType(), &body)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// tamper changes the value of the n-th roll (from 1) of an export and
// returns it with the roll's entry number.
func tamper(t testing.TB, export []byte, n int) ([]byte, int) {
	t.Helper()
	lines := strings.Split(string(export), "\n")
	value := regexp.MustCompile(`"value":(\d)`)
	seen := 0
	for i, l := range lines {
		if !strings.Contains(l, `"kind":"roll"`) {
			continue
		}
		if seen++; seen < n {
			continue
		}
		m := value.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("roll line without a value: %s", l)
		}
		v, _ := strconv.Atoi(m[1])
		lines[i] = strings.Replace(l, m[0], fmt.Sprintf(`"value":%d`, (v+1)%10), 1)
		return []byte(strings.Join(lines, "\n")), i // line i+1 is entry i
	}
	t.Fatalf("the export has fewer than %d rolls", n)
	return nil, 0
}

func TestPages(t *testing.T) {
	s := newSite(t, 16)
	for _, tc := range []struct {
		path   string
		status int
		want   []string
	}{
		{"/", 200, []string{"Ladders", `href="/ladder/club"`, `href="/game/crecy-ladder-1"`, `href="/game/crecy-friendly"`, "carol@club.example"}},
		{"/ladder/club", 200, []string{"Standings", "alice@club.example", "bob@club.example", "carol@club.example",
			"1516", "crecy-elsewhere", `href="/game/crecy-ladder-1"`, "won", "3d to start"}},
		{"/game/crecy-ladder-1", 200, []string{`<img id="map" src="/game/crecy-ladder-1/map.png"`, `<a href="/game/crecy-ladder-1/map.png"`, "Events", "Dice audit",
			"The dice log holds together", `action="/game/crecy-ladder-1/verify"`, "Ladder", `href="/ladder/club"`, "Time left", "English", "French", "orders of the French"}},
		{"/game/crecy-friendly", 200, []string{"Nothing has happened yet", "crecy-friendly"}},
		{"/game/no-such-game", 404, []string{"not in this Herald&#39;s store"}},
		{"/game/no-such-game/map.png", 404, nil},
		{"/ladder/no-such-ladder", 404, []string{"Ladder &#34;no-such-ladder&#34; is not in"}},
		{"/nothing/here", 404, nil},
		{"/style.css", 200, []string{"body {"}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			status, h, body := s.get(tc.path)
			if status != tc.status {
				t.Fatalf("status %d, want %d:\n%s", status, tc.status, body)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("the page lacks %q:\n%s", w, body)
				}
			}
			if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
				t.Errorf("Content-Security-Policy %q", csp)
			}
			if strings.Contains(body, "<script") {
				t.Errorf("a page with a script:\n%s", body)
			}
		})
	}
}

// TestMapIsThePicture: the map's URL serves the service's picture of the
// game now, a PNG.
func TestMapIsThePicture(t *testing.T) {
	s := newSite(t, 2)
	resp, err := http.Get(s.srv.URL + "/game/" + s.game + "/map.png")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("status %d, type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	want, err := s.svc.Picture(s.game)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, want) {
		t.Error("the map served is not the service's picture of the game")
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() < 200 || r.Dy() < 200 {
		t.Errorf("a map of %v", r)
	}
}

// TestEscaping: hostile player and member addresses come out as text.
func TestEscaping(t *testing.T) {
	s := newSite(t, 1)
	for _, path := range []string{"/", "/game/" + s.other, "/ladder/club"} {
		_, _, body := s.get(path)
		for _, raw := range []string{"<script>", hostile} {
			if strings.Contains(body, raw) {
				t.Errorf("%s prints %q unescaped", path, raw)
			}
		}
	}
	_, _, body := s.get("/game/" + s.other)
	if !strings.Contains(body, "o&#39;neil&amp;amp=x@evil.example") {
		t.Errorf("the game page does not show the hostile player's address as text:\n%s", body)
	}
	_, _, body = s.get("/ladder/club")
	if !strings.Contains(body, "&lt;script&gt;alert(&#34;pwned&#34;)&lt;/script&gt;@evil.example") {
		t.Errorf("the ladder page does not show the hostile member's address as text:\n%s", body)
	}
}

// TestHiddenInformationAbsent: a standing order the English set is in
// the store, but no page and no verify report shows it.
func TestHiddenInformationAbsent(t *testing.T) {
	s := newSite(t, 0)
	// The French act first at Crécy; the English set a standing order
	// meanwhile, which is theirs alone until it acts.
	key := s.keyOf(alice)
	if out := s.send(alice, key, 1, "STANDING SEIZE NEVER"); out.Status != "applied" {
		t.Fatalf("the standing order: %+v", out)
	}
	s.play(1) // the French block, carrying the English standing order's event
	if !strings.Contains(string(s.export()), "SEIZE NEVER") {
		t.Fatal("the dice log does not hold the standing order: the test proves nothing")
	}
	_, _, page := s.get("/game/" + s.game)
	_, report := s.verify(s.game, nil)
	for what, body := range map[string]string{"game page": page, "verify page": report} {
		for _, secret := range []string{"SEIZE NEVER", "set a standing order", key} {
			if strings.Contains(body, secret) {
				t.Errorf("the %s shows %q", what, secret)
			}
		}
	}
	if !strings.Contains(report, "OK: the dice log verifies") {
		t.Errorf("the log with a standing order does not verify:\n%s", report)
	}
}

func TestVerify(t *testing.T) {
	s := newSite(t, 16)
	status, body := s.verify(s.game, nil)
	if status != 200 || !strings.Contains(body, `<p id="result" class="verdict ok">OK: the dice log verifies</p>`) ||
		!strings.Contains(body, "engine replay: every block reproduced its events and state") {
		t.Fatalf("the store's log: status %d:\n%s", status, body)
	}
	status, body = s.verify(s.game, s.export())
	if status != 200 || !strings.Contains(body, "OK: the dice log verifies") || !strings.Contains(body, "uploaded file") {
		t.Fatalf("the intact export uploaded: status %d:\n%s", status, body)
	}
	bad, entry := tamper(t, s.export(), 2)
	status, body = s.verify(s.game, bad)
	want := fmt.Sprintf("FAILED at line %d (entry %d, roll #2", entry+1, entry)
	if status != 200 || !strings.Contains(body, want) {
		t.Fatalf("the tampered export: status %d, want %q:\n%s", status, want, body)
	}
	if strings.Contains(body, "OK: the dice log verifies") {
		t.Error("the tampered export is also OK")
	}
	// Another game's export verifies, but is not this game's.
	other := new(bytes.Buffer)
	if err := s.svc.Export(s.other, other); err != nil {
		t.Fatal(err)
	}
	_, body = s.verify(s.game, other.Bytes())
	if !strings.Contains(body, `it is the log of game &#34;crecy-friendly&#34;, not of &#34;crecy-ladder-1&#34;`) {
		t.Errorf("another game's export:\n%s", body)
	}
	_, body = s.verify(s.game, []byte("not json\n"))
	if !strings.Contains(body, "FAILED at line 1") {
		t.Errorf("garbage:\n%s", body)
	}
	if status, _ := s.verify("no-such-game", nil); status != 404 {
		t.Errorf("verify of an unknown game: status %d, want 404", status)
	}
	resp, err := http.Get(s.srv.URL + "/game/" + s.game + "/verify")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET of verify: status %d, want 405", resp.StatusCode)
	}
}

// TestClock: the running clock of a ladder game counts down from when
// the move was asked.
func TestClock(t *testing.T) {
	s := newSite(t, 1)
	_, _, body := s.get("/game/" + s.game)
	// The side to move was asked at epoch+6h with 3d; the other had
	// moved after 5h (3d-5h+1d); at epoch+30h the first has 3d-24h left.
	for _, w := range []string{"about 2d now", "3d when asked", "3d 19h"} {
		if !strings.Contains(body, w) {
			t.Errorf("the clock lacks %q:\n%s", w, body)
		}
	}
	s.now = s.now.Add(24 * time.Hour)
	_, _, body = s.get("/game/" + s.game)
	if !strings.Contains(body, "about 1d now") {
		t.Errorf("a day later the clock does not say 1d:\n%s", body)
	}
}

func TestCheckListen(t *testing.T) {
	for _, tc := range []struct {
		addr   string
		public bool
		ok     bool
	}{
		{"127.0.0.1:8080", false, true},
		{"[::1]:8080", false, true},
		{"localhost:8080", false, true},
		{"0.0.0.0:8080", false, false},
		{":8080", false, false},
		{"192.0.2.7:80", false, false},
		{"example.org:80", false, false},
		{"0.0.0.0:8080", true, true},
		{":8080", true, true},
		{"127.0.0.1", false, false},
		{"127.0.0.1:", false, false},
	} {
		err := CheckListen(tc.addr, tc.public)
		if (err == nil) != tc.ok {
			t.Errorf("CheckListen(%q, %v) = %v, want ok %v", tc.addr, tc.public, err, tc.ok)
		}
	}
}

func TestNewWithoutSource(t *testing.T) {
	if _, err := New(Config{}); err == nil {
		t.Error("New without a source: no error")
	}
}

// TestWithoutLadders: a server without a LadderSource shows games alone,
// and no ladder page.
func TestWithoutLadders(t *testing.T) {
	s := newSite(t, 1)
	srv, err := New(Config{Source: s.svc, MaxUpload: 1000})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	s.srv = ts
	status, _, body := s.get("/")
	if status != 200 || strings.Contains(body, "Ladders") || !strings.Contains(body, `href="/game/crecy-ladder-1"`) {
		t.Errorf("index without ladders: %d\n%s", status, body)
	}
	if status, _, _ := s.get("/ladder/club"); status != 404 {
		t.Errorf("a ladder page without ladders: status %d, want 404", status)
	}
	if _, _, body := s.get("/game/" + s.game); strings.Contains(body, "Time left") || strings.Contains(body, "/ladder/") {
		t.Errorf("a game page without ladders shows a ladder:\n%s", body)
	}
	status, body2 := s.verify(s.game, s.export())
	if status != http.StatusRequestEntityTooLarge || !strings.Contains(body2, "at most 1000 bytes") {
		t.Errorf("an export over MaxUpload: status %d:\n%s", status, body2)
	}
}
