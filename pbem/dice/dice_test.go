package dice

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestPick(t *testing.T) {
	tests := []struct {
		mac    []byte
		want   int
		wantOK bool
	}{
		{[]byte{0}, 0, true},
		{[]byte{9}, 9, true},
		{[]byte{10}, 0, true},
		{[]byte{247}, 7, true},
		{[]byte{249}, 9, true},
		{[]byte{250, 3}, 3, true},
		{[]byte{255, 250, 251, 128}, 8, true},
		{bytes.Repeat([]byte{250}, 32), 0, false},
		{nil, 0, false},
	}
	for _, tc := range tests {
		got, ok := pick(tc.mac)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("pick(%x) = %d, %v, want %d, %v", tc.mac, got, ok, tc.want, tc.wantOK)
		}
	}
}

func TestPickIsUniform(t *testing.T) {
	var count [10]int
	for b := range 256 {
		if v, ok := pick([]byte{byte(b)}); ok {
			count[v]++
		}
	}
	for f, c := range count {
		if c != 25 {
			t.Errorf("face %d comes from %d byte values, want 25", f, c)
		}
	}
}

func TestRollMessage(t *testing.T) {
	var oh Hash
	oh[0], oh[31] = 0xaa, 0xbb
	got := hex.EncodeToString(RollMessage("g", 2, 3, "p€", oh, 1))
	want := "0000000000000013" + hex.EncodeToString([]byte("herald/dice/roll/v1")) +
		"0000000000000001" + "67" +
		"0000000000000002" + "0000000000000003" +
		"0000000000000004" + "70e282ac" +
		"0000000000000020" + "aa" + strings.Repeat("00", 30) + "bb" +
		"0000000000000001"
	if got != want {
		t.Errorf("RollMessage = %s, want %s", got, want)
	}
	head := hex.EncodeToString(HeadMessage("g", 5, oh))
	wantHead := "0000000000000013" + hex.EncodeToString([]byte("herald/dice/head/v1")) +
		"0000000000000001" + "67" + "0000000000000005" +
		"0000000000000020" + "aa" + strings.Repeat("00", 30) + "bb"
	if head != wantHead {
		t.Errorf("HeadMessage = %s, want %s", head, wantHead)
	}
}

func TestDerive(t *testing.T) {
	var seed [32]byte
	for i := range seed {
		seed[i] = byte(i)
	}
	oh := Hash(sha256.Sum256([]byte("ACTIVATE Doria\nEND\nCONTINUE Grimaldi\n")))
	tests := []struct {
		game    string
		batch   uint64
		index   uint64
		purpose string
		want    int
	}{
		// The worked example of docs/dice.md.
		{"ladder-7", 1, 0, "Continuity DR: Grimaldi (AR 2)", 7},
	}
	for _, tc := range tests {
		if got := Derive(seed, tc.game, tc.batch, tc.index, tc.purpose, oh); got != tc.want {
			t.Errorf("Derive(%q, %d, %d, %q) = %d, want %d", tc.game, tc.batch, tc.index, tc.purpose, got, tc.want)
		}
	}
	// Over many rolls every face appears, and changing any input changes
	// the value often (about 9 times in 10).
	var tally Tally
	changed := 0
	for i := range uint64(2000) {
		p := fmt.Sprintf("roll %d", i)
		v := Derive(seed, "g", 1, i, p, oh)
		tally.Add(v)
		if v != Derive(seed, "g", 2, i, p, oh) {
			changed++
		}
	}
	if tally.P() < 0.001 {
		t.Errorf("2000 derived rolls: %v", tally)
	}
	if changed < 1700 || changed > 1900 {
		t.Errorf("changing the batch changed %d of 2000 rolls, want about 1800", changed)
	}
}

func TestBatch(t *testing.T) {
	fixedSeeds(t, 11)
	key := testKey(t)
	h, u, err := NewGame(key, "g", "crecy", []string{"English", "French"})
	if err != nil {
		t.Fatal(err)
	}
	if u.Chain.Length != 1 || u.Checkpoint.Length != 0 || u.Checkpoint.Head != h.Hash || !VerifyCheckpoint(key.Public(), "g", 0, h.Hash, *u.Checkpoint.Sig) {
		t.Errorf("NewGame: chain %+v, checkpoint %v; want one seal signing (0, header hash)", u.Chain, u.Checkpoint)
	}
	if _, err := Begin(u.Chain, Seed{1}, "French", 1, "PASS\n"); err == nil || !strings.HasPrefix(err.Error(), "dice: ") {
		t.Errorf("Begin(wrong seed) = %v, want a dice: error", err)
	}
	b, err := Begin(u.Chain, u.Next, "French", 1, "ROLL a\nROLL b\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a", "b"} {
		if _, err := b.Roll(p); err != nil {
			t.Fatalf("Roll(%q) = %v", p, err)
		}
	}
	for _, bad := range []string{"", "\xff", strings.Repeat("x", MaxPurpose+1)} {
		if _, err := b.Roll(bad); err == nil {
			t.Errorf("Roll(%q) = nil error, want a refusal", bad)
		}
	}
	rolls := b.Rolls()
	for i, r := range rolls {
		want := Roll{Seq: uint64(i + 1), Batch: 1, Index: uint64(i), Purpose: []string{"a", "b"}[i], Faces: 10, Value: DeriveV2(u.Next, "g", 1, uint64(i), r.Purpose, sha256.Sum256([]byte("ROLL a\nROLL b\n")), Checkpoint{Length: 0, Head: h.Hash})}
		if r != want {
			t.Errorf("Rolls()[%d] = %+v, want %+v", i, r, want)
		}
	}
	u2, err := b.Close(key, Hash{}, Hash{})
	if err != nil {
		t.Fatal(err)
	}
	if got := u2.Chain; got.Batches != 1 || got.Rolls != 2 || got.Length != 5 || got.Commit != u2.Next.Commitment() {
		t.Errorf("Close: chain %+v, want 1 batch, 2 rolls, 5 entries, the next seed's commitment", got)
	}
	if u2.Seed != Hash(u.Next) || u2.Checkpoint.Length != 4 {
		t.Errorf("Close: seed %s checkpoint %v, want the revealed seed and checkpoint length 4", u2.Seed, u2.Checkpoint)
	}
	if _, err := b.Roll("late"); err == nil {
		t.Error("Roll after Close = nil error, want a refusal")
	}
	if _, err := b.Close(key, Hash{}, Hash{}); err == nil {
		t.Error("second Close = nil error, want a refusal")
	}
	// The next batch continues the sequence.
	b2, err := Begin(u2.Chain, u2.Next, "English", 2, "ROLL c\n")
	if err != nil {
		t.Fatal(err)
	}
	b2.Roll("c")
	if r := b2.Rolls()[0]; r.Seq != 3 || r.Batch != 2 || r.Index != 0 {
		t.Errorf("first roll of batch 2 = %+v, want seq 3, batch 2, index 0", r)
	}
}

func TestNewGameRefuses(t *testing.T) {
	key := testKey(t)
	tests := []struct {
		game, scenario string
		sides          []string
	}{
		{"", "crecy", []string{"A", "B"}},
		{"g", "", []string{"A", "B"}},
		{"g", "crecy", []string{"A"}},
		{"g", "crecy", []string{"A", "A"}},
		{"g", "crecy", []string{"A", ""}},
		{"g\xff", "crecy", []string{"A", "B"}},
		{strings.Repeat("g", MaxName+1), "crecy", []string{"A", "B"}},
	}
	for _, tc := range tests {
		if _, _, err := NewGame(key, tc.game, tc.scenario, tc.sides); err == nil || !strings.HasPrefix(err.Error(), "dice: ") {
			t.Errorf("NewGame(%q, %q, %q) = %v, want a dice: error", tc.game, tc.scenario, tc.sides, err)
		}
	}
	if _, _, err := NewGame(nil, "g", "c", []string{"A", "B"}); err == nil {
		t.Error("NewGame(nil key) = nil error, want a refusal")
	}
}

func TestSeedStaysSecret(t *testing.T) {
	fixedSeeds(t, 12)
	_, u, err := NewGame(testKey(t), "g", "c", []string{"A", "B"})
	if err != nil {
		t.Fatal(err)
	}
	secret := hex.EncodeToString(u.Next[:])
	j, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("x", "seed", u.Next)
	for name, s := range map[string]string{
		"json.Marshal(Update)": string(j),
		"fmt %v":               fmt.Sprintf("%v", u.Next),
		"fmt %#v":              fmt.Sprintf("%#v", u.Next),
		"fmt %s":               fmt.Sprintf("%s", u.Next),
		"slog":                 logged.String(),
	} {
		if strings.Contains(s, secret) {
			t.Errorf("%s = %s, leaks the secret seed", name, s)
		}
	}
	// The store still needs it: MarshalText round-trips.
	txt, _ := u.Next.MarshalText()
	var back Seed
	if err := back.UnmarshalText(txt); err != nil || back != u.Next {
		t.Errorf("Seed text round trip = %v, %v", back, err)
	}
}

func TestEntryJSON(t *testing.T) {
	g := genGame(t, 13, 5)
	for _, e := range g.entries {
		b, err := json.MarshalIndent(e, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		var back Entry
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, e) {
			t.Errorf("json round trip of entry %d = %+v, %v; want %+v", e.I, back, err, e)
		}
		line, _ := e.Line()
		parsed, err := ParseEntry(line)
		if err != nil || !reflect.DeepEqual(parsed, e) {
			t.Errorf("ParseEntry(%s) = %+v, %v; want %+v", line, parsed, err, e)
		}
	}
	for _, v := range []any{g.updates[1], g.updates[1].Chain, g.updates[1].Checkpoint, g.header} {
		if _, err := json.Marshal(v); err != nil {
			t.Errorf("json.Marshal(%T) = %v", v, err)
		}
	}
}

func TestAppendString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", `"plain"`},
		{`q"b\`, `"q\"b\\"`},
		{"\b\f\n\r\t\x00\x1f\x7f", `"\b\f\n\r\t\u0000\u001f\u007f"`},
		{"<&>/", `"<&>/"`},
		{"Alençon", `"Alen\u00e7on"`},
		{"→\u2028", `"\u2192\u2028"`},
		{"😀", `"\ud83d\ude00"`},
	}
	for _, tc := range tests {
		if got := string(appendString(nil, tc.in)); got != tc.want {
			t.Errorf("appendString(%q) = %s, want %s", tc.in, got, tc.want)
		}
		var back string
		if err := json.Unmarshal([]byte(tc.want), &back); err != nil || back != tc.in {
			t.Errorf("json.Unmarshal(%s) = %q, %v; want %q", tc.want, back, err, tc.in)
		}
	}
}

func TestKey(t *testing.T) {
	k, err := GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	pemBytes, err := k.MarshalPEM()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseKey(pemBytes)
	if err != nil || back.Public() != k.Public() {
		t.Fatalf("ParseKey(MarshalPEM()) = %v, %v; want the same key", back, err)
	}
	sig := back.sign("g", 3, Hash{1})
	if !VerifyCheckpoint(k.Public(), "g", 3, Hash{1}, sig) || VerifyCheckpoint(k.Public(), "g", 4, Hash{1}, sig) {
		t.Error("VerifyCheckpoint does not tell its own signature from another checkpoint")
	}
	for name, in := range map[string][]byte{
		"empty":       nil,
		"not PEM":     []byte("hello"),
		"wrong type":  []byte("-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA1NyM3wydB0CyCUhnOLdcFQk9x4vgRGfclfz+3kzmSzg=\n-----END PUBLIC KEY-----\n"),
		"garbage DER": []byte("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"),
	} {
		if _, err := ParseKey(in); err == nil || !strings.HasPrefix(err.Error(), "dice: ") {
			t.Errorf("ParseKey(%s) = %v, want a dice: error", name, err)
		}
	}
	if _, err := KeyFromSeed([]byte{1}); err == nil {
		t.Error("KeyFromSeed(1 byte) = nil error, want a refusal")
	}
}

func TestParseCheckpoint(t *testing.T) {
	h := strings.Repeat("ab", 32)
	s := strings.Repeat("cd", 64)
	tests := []struct {
		in     string
		want   string
		wantOK bool
	}{
		{"3:" + h, "3:" + h, true},
		{"0:" + strings.ToUpper(h), "0:" + h, true},
		{"3:" + h + ":" + s, "3:" + h + ":" + s, true},
		{"3", "", false},
		{"x:" + h, "", false},
		{"-1:" + h, "", false},
		{"3:" + h[2:], "", false},
		{"3:" + h + ":" + s[2:], "", false},
		{"3:" + h + ":" + s + ":", "", false},
	}
	for _, tc := range tests {
		c, err := ParseCheckpoint(tc.in)
		if (err == nil) != tc.wantOK || (err == nil && c.String() != tc.want) {
			t.Errorf("ParseCheckpoint(%q) = %v, %v; want %q (ok %v)", tc.in, c, err, tc.want, tc.wantOK)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "dice: ") {
			t.Errorf("ParseCheckpoint(%q) error %q lacks the dice: prefix", tc.in, err)
		}
	}
}

func TestTally(t *testing.T) {
	even := Tally{N: 1000}
	for f := range even.Counts {
		even.Counts[f] = 100
	}
	skewed := even
	skewed.Counts[0], skewed.Counts[9] = 150, 50
	tests := []struct {
		name   string
		t      Tally
		chi    float64
		wantIn string
	}{
		{"none", Tally{}, 0, "too few"},
		{"perfectly even", even, 0, "Unusually even"},
		{"skewed", skewed, 50, "Very uneven"},
	}
	for _, tc := range tests {
		if got := tc.t.ChiSquare(); math.Abs(got-tc.chi) > 1e-9 {
			t.Errorf("%s: ChiSquare() = %v, want %v", tc.name, got, tc.chi)
		}
		if got := tc.t.Interpretation(); !strings.Contains(got, tc.wantIn) {
			t.Errorf("%s: Interpretation() = %q, want %q in it", tc.name, got, tc.wantIn)
		}
	}
	// Critical values of chi-square with 9 degrees of freedom.
	for _, c := range []struct{ x, p float64 }{
		{16.919, 0.05}, {21.666, 0.01}, {27.877, 0.001}, {8.343, 0.5}, {2.088, 0.99},
	} {
		if got := chiSquareSurvival9(c.x); math.Abs(got-c.p)/c.p > 0.002 {
			t.Errorf("chiSquareSurvival9(%v) = %v, want %v", c.x, got, c.p)
		}
	}
	if got := chiSquareSurvival9(0); got != 1 {
		t.Errorf("chiSquareSurvival9(0) = %v, want 1", got)
	}
	var tl Tally
	for _, v := range []int{0, 9, 9, -1, 10} {
		tl.Add(v)
	}
	if tl.N != 3 || tl.Counts[9] != 2 {
		t.Errorf("Tally after adding 0, 9, 9, -1, 10 = %+v, want 3 rolls, two 9s", tl)
	}
	if s := TallyOf([]Roll{{Value: 3}}).String(); !strings.Contains(s, "1 rolls") {
		t.Errorf("Tally.String() = %q", s)
	}
}
