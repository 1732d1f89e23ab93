package games

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"herald/engine"
	"herald/pbem/mailbox"
	"herald/pbem/system"
)

// Maps are drawn after the commit (issue 17). A mail's transaction queues
// the mail with a mapJob for each of its pictures instead of drawing them:
// the job holds everything the picture shows, so drawing it when the mail
// leaves the outbox, once or again after a crash, gives the very same
// bytes, whatever the game did in between. The write transaction, which
// every mail of every game waits for, stays short, and the outbox draws
// while the next mail is being applied.

// mapJob is one inline map of a queued mail.
type mapJob struct {
	Scenario string `json:"scenario"`
	// Army, when set, draws the army of that side alone (a welcome's
	// first map); else the whole field with the block's marks.
	Army   *engine.Side      `json:"army,omitempty"`
	Before []byte            `json:"before,omitempty"` // state before the block; none: After
	After  []byte            `json:"after"`            // state the map shows (State.Encode)
	Events []json.RawMessage `json:"events,omitempty"` // the block's events, drawn as marks
}

// fieldJob is the map of a block: the field after it, with its marks.
// The states it keeps are public (no hidden Seizure counter): the map
// goes to both players alike.
func fieldJob(sc *engine.Scenario, before, after *engine.State, events []engine.Event) (mapJob, error) {
	j := mapJob{Scenario: sc.ID, After: after.Public().Encode()}
	if before != after {
		j.Before = before.Public().Encode()
	}
	for _, e := range events {
		b, err := engine.MarshalEvent(e)
		if err != nil {
			return j, err
		}
		j.Events = append(j.Events, b)
	}
	return j, nil
}

// nowJob is the map of the game as it stands, with no marks.
func (g *game) nowJob() (mapJob, error) {
	if g.sc != nil {
		return fieldJob(g.sc, g.st, g.st, nil)
	}
	return mapJob{Scenario: g.battle.ID(), After: g.state.Encode()}, nil
}

// armyJob is the map of one side's army in st.
func armyJob(sc *engine.Scenario, st *engine.State, side engine.Side) mapJob {
	return mapJob{Scenario: sc.ID, Army: &side, After: st.Redacted(side).Encode()}
}

// drawnMaps remembers the last few pictures drawn, by their job: both
// players' mails of a block carry the same map, drawn once, even when the
// outbox composes them at the same time (the second waits for the first).
type drawnMaps struct {
	mu   sync.Mutex
	keys [8][32]byte
	pics [8]*drawing
	next int
}

// drawing is a picture being drawn, or drawn once done is closed.
type drawing struct {
	done chan struct{}
	pic  picture
	err  error
}

// picture is a map's PNG and its base64 (mailbox.Base64Lines), made once
// for the mails that carry it; no PNG when maps of its kind are off.
type picture struct{ png, lines []byte }

// do returns the picture of key, drawing it with draw unless it was drawn
// or is being drawn; a drawing that failed is tried again.
func (d *drawnMaps) do(key [32]byte, draw func() ([]byte, error)) (picture, error) {
	d.mu.Lock()
	for i, k := range d.keys {
		if p := d.pics[i]; k == key && p != nil {
			d.mu.Unlock()
			<-p.done
			if p.err != nil {
				return pictureOf(draw())
			}
			return p.pic, nil
		}
	}
	p := &drawing{done: make(chan struct{})}
	d.keys[d.next], d.pics[d.next] = key, p
	d.next = (d.next + 1) % len(d.keys)
	d.mu.Unlock()
	p.pic, p.err = pictureOf(draw())
	close(p.done)
	return p.pic, p.err
}

// pictureOf is the picture of a PNG drawn.
func pictureOf(png []byte, err error) (picture, error) {
	if err != nil || png == nil {
		return picture{}, err
	}
	return picture{png, mailbox.Base64Lines(png)}, nil
}

// draw draws a job's picture, or finds it drawn for another mail.
func (s *Service) draw(j mapJob) (picture, error) {
	b, err := json.Marshal(j)
	if err != nil {
		return picture{}, err
	}
	return s.drawn.do(sha256.Sum256(b), func() ([]byte, error) { return s.drawAnew(j) })
}

// drawAnew draws a job's picture.
func (s *Service) drawAnew(j mapJob) ([]byte, error) {
	b, err := s.battle(j.Scenario)
	if err != nil {
		return nil, err
	}
	sc := iron(b)
	if sc == nil {
		return s.drawSystem(b, j)
	}
	after, err := engine.DecodeState(j.After)
	if err != nil {
		return nil, err
	}
	if j.Army != nil {
		if s.cfg.ArmyMap == nil {
			return nil, nil
		}
		return s.cfg.ArmyMap(sc, after, *j.Army)
	}
	if s.cfg.Map == nil {
		return nil, nil
	}
	before := after
	if j.Before != nil {
		if before, err = engine.DecodeState(j.Before); err != nil {
			return nil, err
		}
	}
	var events []engine.Event
	for _, b := range j.Events {
		e, err := engine.UnmarshalEvent(b)
		if err != nil {
			return nil, err
		}
		events = append(events, e)
	}
	return s.cfg.Map(sc, before, after, events)
}

// drawSystem draws a job's picture of another system's battle.
func (s *Service) drawSystem(b system.Battle, j mapJob) ([]byte, error) {
	if !s.cfg.Pictures {
		return nil, nil
	}
	after, err := b.Decode(j.After)
	if err != nil {
		return nil, err
	}
	var before system.State
	if j.Before != nil {
		if before, err = b.Decode(j.Before); err != nil {
			return nil, err
		}
	}
	events := make([][]byte, len(j.Events))
	for i, e := range j.Events {
		events[i] = e
	}
	png, err := b.Picture(before, after, events)
	if err == nil && s.cfg.Drawn != nil {
		s.cfg.Drawn(png)
	}
	return png, err
}

// rawEvents keeps a block's events in a map job.
func rawEvents(events [][]byte) []json.RawMessage {
	out := make([]json.RawMessage, len(events))
	for i, e := range events {
		out[i] = e
	}
	return out
}

// rawOf is the exact bytes of an outbox mail: as composed when it was
// queued, or composed now with its maps drawn.
func (s *Service) rawOf(m outboxMail) ([]byte, error) {
	if m.Mail == nil {
		return m.Raw, nil
	}
	var reach []string
	if m.Reach != nil {
		var err error
		if reach, err = s.hints(m.Reach); err != nil {
			return nil, err
		}
	}
	o, err := m.rendered(reach)
	if err != nil {
		return nil, err
	}
	o.Inline = slices.Clone(o.Inline)
	var keep []mailbox.Part
	for i, p := range o.Inline {
		if i < len(m.Maps) && p.Data == nil {
			pic, err := s.draw(m.Maps[i])
			if err != nil {
				return nil, fmt.Errorf("games: map %s: %w", p.Name, err)
			}
			if pic.png == nil {
				continue // maps turned off since it was queued
			}
			p.Data, p.Lines = pic.png, pic.lines
		}
		keep = append(keep, p)
	}
	o.Inline = keep
	return mailbox.Compose(o)
}
