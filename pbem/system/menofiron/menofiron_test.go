package menofiron

import (
	"bytes"
	"errors"
	"image/png"
	"strings"
	"testing"

	"herald/engine"
	"herald/pbem/system"
)

// script is the seam's dice over the engine's script: a d10 from the
// script; no Men of Iron rule rolls another die.
type script struct{ *engine.Script }

func (s script) RollN(purpose string, faces int) (int, error) {
	return 0, errors.New("Men of Iron rolls only d10s")
}

func battle(t *testing.T, id string) *Battle {
	t.Helper()
	b, err := System{}.Battle(id)
	if err != nil {
		t.Fatal(err)
	}
	return b.(*Battle)
}

// TestPlayThroughTheSeam: a block goes through Play as engine.Apply takes
// it, and the seam's State answers what the mail service asks.
func TestPlayThroughTheSeam(t *testing.T) {
	b := battle(t, "crecy")
	st, err := b.Start()
	if err != nil {
		t.Fatal(err)
	}
	turn := st.Turn()
	if turn.Side != 1 || !strings.Contains(turn.Label, "French") || len(turn.Legal) == 0 {
		t.Fatalf("Crécy opens with the French to act and orders to give: %+v", turn)
	}
	if got := st.Standing(0); !strings.Contains(got, "Flight Points") {
		t.Errorf("Standing(0) = %q, want the Flight Points", got)
	}
	res, err := b.Play(st, 1, []system.Line{{No: 3, Text: turn.Legal[0]}}, script{engine.NewScript(5, 5, 5, 5, 5, 5)})
	if err != nil {
		t.Fatalf("Play %q: %v", turn.Legal[0], err)
	}
	if len(res.Events) == 0 || res.State.Move() == st.Move() && bytes.Equal(res.State.Encode(), st.Encode()) {
		t.Fatalf("the block changed nothing: %d events", len(res.Events))
	}
	if st.Turn().Side != 1 {
		t.Error("Play changed the state it was given")
	}
	lines, err := b.Narrate(res.Events, nil, 0)
	if err != nil || len(lines) == 0 {
		t.Fatalf("Narrate: %v, %d lines", err, len(lines))
	}
	again, err := b.Decode(res.State.Encode())
	if err != nil || !bytes.Equal(again.Encode(), res.State.Encode()) {
		t.Fatalf("Decode(Encode) is not the state: %v", err)
	}
	pic, err := b.Picture(st, res.State, res.Events)
	if err != nil {
		t.Fatal(err)
	}
	if img, err := png.Decode(bytes.NewReader(pic)); err != nil || img.Bounds().Dx() < 100 {
		t.Fatalf("Picture is no map: %v", err)
	}
}

// TestIllegalThroughTheSeam: the engine's refusal comes out as the seam's,
// with its line, section and what is legal.
func TestIllegalThroughTheSeam(t *testing.T) {
	b := battle(t, "crecy")
	st, _ := b.Start()
	for _, c := range []struct {
		side int
		line string
	}{{1, "MOVE NOBODY TO 0101"}, {1, "FLY AWAY"}, {0, "END"}} {
		_, err := b.Play(st, c.side, []system.Line{{No: 7, Text: c.line}}, script{engine.NewScript()})
		var il *system.Illegal
		if !errors.As(err, &il) {
			t.Fatalf("%q: %v, want a *system.Illegal", c.line, err)
		}
		if il.Reason == "" || il.Line != 7 && il.Line != 0 {
			t.Errorf("%q: %+v", c.line, il)
		}
	}
}

// TestRegistryRefusesTwoSystemsOneBattle: battle ids find their system.
func TestRegistryRefusesTwoSystemsOneBattle(t *testing.T) {
	if _, err := system.NewRegistry(System{}, System{}); err == nil || !strings.Contains(err.Error(), "is both men-of-iron's and men-of-iron's") {
		t.Fatalf("NewRegistry of Men of Iron twice: %v, want an error naming a battle", err)
	}
	r, err := system.NewRegistry(System{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Battle("crecy"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Battle("hastings"); !errors.Is(err, system.ErrNoBattle) || !strings.Contains(err.Error(), "crecy") {
		t.Fatalf("Battle(hastings): %v, want ErrNoBattle listing the battles", err)
	}
}
