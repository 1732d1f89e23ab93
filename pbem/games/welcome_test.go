package games

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
	"herald/mapimg"
	"herald/pbem"
	"herald/pbem/mailbox"
	"herald/templates"
)

// A new player who has only his welcome mail, read over IMAP, writes his
// first block from it, the way the mail tells him: he activates a
// Command the mail says he may, finds one of its units in the roster,
// moves it one hex straight ahead into a hex the roster shows empty (the
// map's geometry, as he would read it off the picture), and ends the
// Activation. Herald carries it out.
func TestFirstBlockFromTheWelcomeAlone(t *testing.T) {
	w := newWorld(t, "alice", "bob")
	w.configure = func(c *Config) {
		c.Map = func(sc *engine.Scenario, before, after *engine.State, events []engine.Event) ([]byte, error) {
			return mapimg.PNG(sc, after, mapimg.ForMail(mapimg.Marks(sc, before, after, events)))
		}
		c.ArmyMap = func(sc *engine.Scenario, st *engine.State, side engine.Side) ([]byte, error) {
			return mapimg.PNG(sc, st, mapimg.ForArmy(sc, st, side))
		}
	}
	w.start(nil)
	w.newGame("crecy-first", "alice", "bob") // the French, bob, act first

	welcome := receive(t, w, "bob")
	m, err := pbem.ReadMail(welcome, pbem.ReadOptions{MaxBytes: 32 << 20})
	if err != nil {
		t.Fatal(err)
	}
	checkOpeningMap(t, welcome)
	sc, err := data.Scenario("crecy")
	if err != nil {
		t.Fatal(err)
	}
	units := readRoster(m.Text)
	for _, u := range sc.Units { // every unit of both armies is in the roster
		want := u.Hex.String()
		if u.OffMap {
			want = "off map"
		}
		if got, ok := units[u.ID]; !ok || got.hex != want {
			t.Errorf("roster: %s at %q, want %q", u.ID, got.hex, want)
		}
	}

	block := firstBlock(t, m.Text, units, sc.Map.Grid)
	reply := mailbox.Outgoing{From: "bob@localhost", To: []string{m.From}, Subject: "Re: " + m.Subject,
		Date: time.Now().UTC(), MessageID: "bob.first@localhost", InReplyTo: m.MessageID,
		Text: block + "\nBruno\n\n" + quote(m.Text)}
	if err := w.sender.Send(context.Background(), reply); err != nil {
		t.Fatal(err)
	}
	result, err := pbem.ReadMail(receive(t, w, "bob"), pbem.ReadOptions{MaxBytes: 32 << 20})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(block, "\n")
	mv := strings.Fields(lines[3]) // MOVE <unit> <hex>
	if !strings.Contains(result.Subject, "Move 2") || !strings.Contains(result.Text, fmt.Sprintf("%s moves to %s", mv[1], mv[2])) {
		t.Errorf("the first block was not carried out: %s\n%s", result.Subject, result.Text)
	}
}

// receive waits for the next mail in a player's INBOX, read with the IMAP
// intake a player's client would use.
func receive(t *testing.T, w *world, user string) []byte {
	t.Helper()
	in, err := mailbox.NewIntake(mailbox.IntakeConfig{Addr: w.emb.IMAPAddr(), Username: user, Password: user,
		PollInterval: 50 * time.Millisecond, Logger: w.log})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var raw []byte
	in.Run(ctx, func(_ context.Context, msg mailbox.Message) (mailbox.Disposition, error) {
		if raw == nil {
			raw = msg.Raw
			cancel()
		}
		return mailbox.Processed, nil
	})
	if raw == nil {
		t.Fatalf("no mail for %s", user)
	}
	return raw
}

// checkOpeningMap: the welcome's HTML shows two inline PNGs, the
// player's army and the whole field at the opening, each wide enough for
// a phone to show crisply.
func checkOpeningMap(t *testing.T, raw []byte) {
	t.Helper()
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var html string
	imgs := map[string][]byte{}
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(p.Body)
		h, ok := p.Header.(*mail.InlineHeader)
		if !ok {
			continue
		}
		switch ct, _, _ := h.ContentType(); ct {
		case "text/html":
			html = string(body)
		case "image/png":
			imgs[strings.Trim(h.Get("Content-Id"), "<>")] = body
		}
	}
	if len(imgs) != 2 {
		t.Fatalf("the welcome has %d inline maps, want 2 (the army, the field)", len(imgs))
	}
	for cid, img := range imgs {
		if !strings.Contains(html, `src="cid:`+cid+`"`) {
			t.Errorf("the welcome's HTML does not show map %s", cid)
		}
		pic, err := png.Decode(bytes.NewReader(img))
		if err != nil {
			t.Fatal(err)
		}
		if pic.Bounds().Dx() < 680 {
			t.Errorf("map %s %v: narrower than a phone's two screen pixels per CSS pixel", cid, pic.Bounds())
		}
	}
}

type rosterEntry struct{ command, hex, facing string }

var (
	rosterCommand = regexp.MustCompile(`^\S+: .* \(ACTIVATE (.+)\)$`)
	rosterRow     = regexp.MustCompile(`^  (\S+)\s+(\S+)\s+(\d{4}|off map)\s+([A-Z]{0,2})\s+\d+\s+[-+]\d+`)
)

// readRoster reads the text mail's roster as a person reads it: each
// Command's heading names its ACTIVATE, and each row a unit, its type,
// hex and facing.
func readRoster(text string) map[string]rosterEntry {
	out := map[string]rosterEntry{}
	command := ""
	for _, l := range strings.Split(text, "\n") {
		if m := rosterCommand.FindStringSubmatch(l); m != nil {
			command = m[1]
			continue
		}
		if m := rosterRow.FindStringSubmatch(l); m != nil && command != "" {
			out[m[1]] = rosterEntry{command: command, hex: m[3], facing: m[4]}
		}
	}
	return out
}

// firstBlock writes the new player's block into his copy of the mail's
// block: the first Command the mail says he may activate, its first unit
// on the map one hex straight ahead, END.
func firstBlock(t *testing.T, text string, units map[string]rosterEntry, grid hex.Grid) string {
	t.Helper()
	blocks, _ := pbem.FindBlocks(text)
	if len(blocks) != 1 {
		t.Fatalf("%d blocks in the welcome", len(blocks))
	}
	taken := map[string]bool{}
	for _, u := range units {
		taken[u.hex] = true
	}
	for _, order := range legalOrders(text) {
		name, ok := strings.CutPrefix(order, "ACTIVATE ")
		if !ok || strings.HasPrefix(name, "STANDARD ") {
			continue
		}
		for _, id := range sortedIDs(units) {
			u := units[id]
			if u.command != name || u.hex == "off map" {
				continue
			}
			at, err1 := hex.Parse(u.hex)
			facing, err2 := hex.ParseFacing(u.facing)
			if err1 != nil || err2 != nil {
				t.Fatalf("roster row of %s: %q %q", id, u.hex, u.facing)
			}
			for _, ahead := range grid.FrontalHexes(at, facing) {
				if grid.Contains(ahead) && !taken[ahead.String()] {
					b := blocks[0]
					return templates.OrderBlock{GameID: b.GameID, Move: b.Move, Key: b.Key,
						Prefill: []string{order, fmt.Sprintf("MOVE %s %s", id, ahead), "END"}}.Text()
				}
			}
		}
	}
	t.Fatalf("the welcome gives no Command with a unit that can step forward:\n%s", text)
	return ""
}

func sortedIDs(units map[string]rosterEntry) []string {
	var ids []string
	for id := range units {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Two different maps never share one file name: a block of standing
// orders alone leaves the move number as it was, and its map is not the
// last block's.
func TestMapFileNamesAreUnique(t *testing.T) {
	w := newWorld(t, "alice", "bob")
	w.configure = func(c *Config) {
		c.Map = func(sc *engine.Scenario, before, after *engine.State, events []engine.Event) ([]byte, error) {
			return mapimg.PNG(sc, after, mapimg.ForMail(mapimg.Marks(sc, before, after, events)))
		}
	}
	w.start(nil)
	w.newGame("crecy-names", "alice", "bob")
	seen := map[string]bool{}
	for i := 0; ; i++ {
		w.settle()
		s, err := w.service().Summary("crecy-names")
		if err != nil {
			t.Fatal(err)
		}
		if s.Move > 2 && strings.Contains(s.Waiting, "French") {
			break
		}
		if i == 8 {
			t.Fatalf("the game never waited for the French after move 2: %s", s.Waiting)
		}
		w.play(seen, false)
	}
	// While the game waits for the French, the English send standing
	// orders alone: the move stays as it was, and only the English get a
	// mail, with no map (standing orders are private, issue 16 item 5).
	msgs, err := w.emb.Messages("alice", "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	bobBefore, err := w.emb.Messages("bob", "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	welcome, err := pbem.ReadMail(msgs[0].Raw, pbem.ReadOptions{MaxBytes: 32 << 20})
	if err != nil {
		t.Fatal(err)
	}
	blocks, _ := pbem.FindBlocks(welcome.Text)
	if len(blocks) != 1 {
		t.Fatalf("alice's welcome has %d blocks", len(blocks))
	}
	s, err := w.service().Summary("crecy-names")
	if err != nil {
		t.Fatal(err)
	}
	text := templates.OrderBlock{GameID: "crecy-names", Move: s.Move, Key: blocks[0].Key, Prefill: []string{"STANDING SEIZE NEVER"}}.Text()
	raw, err := mailbox.Compose(mailbox.Outgoing{From: "alice@localhost", To: []string{welcome.From}, Subject: "Re: " + welcome.Subject,
		Date: time.Now().UTC(), MessageID: "alice.standing@localhost", Text: text})
	if err != nil {
		t.Fatal(err)
	}
	before := len(msgs)
	w.deliver([][]byte{raw}, false)
	w.settle()
	if msgs, _ := w.emb.Messages("alice", "INBOX"); len(msgs) != before+1 {
		t.Fatalf("the standing orders got %d mails, want 1", len(msgs)-before)
	}
	if msgs, _ := w.emb.Messages("bob", "INBOX"); len(msgs) != len(bobBefore) {
		t.Fatalf("the French got %d mails about the English standing orders, want none", len(msgs)-len(bobBefore))
	}

	// A map is one Content-ID (one block's map, in both players' copies):
	// one file name for each, and no name for two.
	names := map[string]string{} // file name → Content-ID
	for _, user := range []string{"alice", "bob"} {
		msgs, err := w.emb.Messages(user, "INBOX")
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			for name, cid := range inlineImages(t, m.Raw) {
				if prev, ok := names[name]; ok && prev != cid {
					t.Errorf("two different maps (%s, %s) are named %s", prev, cid, name)
				}
				names[name] = cid
			}
		}
	}
	if len(names) < 3 {
		t.Errorf("only %d maps in the game's mails", len(names))
	}
}

// inlineImages are a mail's inline images' Content-IDs by file name.
func inlineImages(t *testing.T, raw []byte) map[string]string {
	t.Helper()
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if h, ok := p.Header.(*mail.InlineHeader); ok {
			if ct, params, _ := h.ContentType(); strings.HasPrefix(ct, "image/") {
				out[params["name"]] = h.Get("Content-Id")
			}
		}
	}
}
