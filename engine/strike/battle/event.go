package battle

import (
	"bytes"
	"encoding/json"
	"fmt"

	"herald/engine/strike/table"
)

// Event is one change of a game's state, serialised {"event": name,
// "data": {...}}. State.Apply is the one function that carries events
// out; Play builds them and applies them as it goes, and Replay applies a
// stored list, so both reach the same state byte for byte.
type Event struct {
	Name string
	Data any // one of the *…Event types below, by Name
}

// Event names.
const (
	EvCharge   = "charge"    // a charge declared (narration)
	EvMoved    = "moved"     // a unit moved, wheeled, turned, charged, retreated
	EvReaction = "reaction"  // a unit's reaction to a charge (narration)
	EvVolley   = "volley"    // one unit's fire at another and its SRT result
	EvCheck    = "check"     // a Personality's check under fire or after a melee
	EvMelee    = "melee"     // a melee resolved to its SRT results
	EvMorale   = "morale"    // a morale check
	EvStatus   = "status"    // disordered at contact (REAR and FLANK ATTACKS)
	EvCapture  = "capture"   // a capture card drawn
	EvRemoved  = "removed"   // a unit off the table: destroyed or routed
	EvFailed   = "failed"    // a failed charge (narration)
	EvEnd      = "block end" // a side's block ended
	EvOver     = "game over" // the game ended
)

// ChargeEvent declares a charge.
type ChargeEvent struct {
	Unit   string  `json:"unit"`
	Target string  `json:"target"`
	Aspect string  `json:"aspect"` // the face of the target charged
	Inches float64 `json:"inches"` // distance to the target
	Reach  float64 `json:"reach"`  // 3 moves
}

// Move orders of a MovedEvent.
const (
	MoveForward  = "move"
	MoveBack     = "back"
	MoveWheel    = "wheel"
	MoveTurn     = "turn"
	MoveCharge   = "charge"
	MoveCounter  = "counter-charge"
	MoveRetreat  = "retreat"
	MoveFallBack = "fall back"
	MoveRetire   = "retire"
)

// MovedEvent moves a unit to Pos, facing Facing. Inches is what it used:
// of its MOVE for move, back, wheel and turn; of its charge for charge
// and counter-charge; nothing for the rest.
type MovedEvent struct {
	Unit   string      `json:"unit"`
	Order  string      `json:"order"`
	Inches float64     `json:"inches"`
	Path   []table.Vec `json:"path"` // front centre: from, ..., to
	Pos    table.Vec   `json:"pos"`
	Facing float64     `json:"facing"`
	Target string      `json:"target,omitempty"`
}

// ReactionEvent is a unit's reaction to a charge.
type ReactionEvent struct {
	Unit     string `json:"unit"`
	Charger  string `json:"charger"`
	Reaction string `json:"reaction"`
	Why      string `json:"why,omitempty"`
}

// RollRec is one die of a combat.
type RollRec struct {
	Who     string `json:"who"`
	CV      int    `json:"cv"`
	Roll    int    `json:"roll"`
	Strikes int    `json:"strikes"`
}

// VolleyEvent is one unit's shooting: Fire "" for a SHOOT order (the
// shooter has fired this block), else "return fire", "stand and fire",
// "supporting fire", "fire and retire".
type VolleyEvent struct {
	Shooter    string    `json:"shooter"`
	Target     string    `json:"target"`
	Fire       string    `json:"fire,omitempty"`
	Rolls      []RollRec `json:"rolls"`
	Strikes    int       `json:"strikes"`
	Result     string    `json:"result"`
	StandsLost int       `json:"stands_lost"`
	After      Status    `json:"after"` // the target
}

// CheckEvent is a Personality's check.
type CheckEvent struct {
	Unit     string `json:"unit"`
	Name     string `json:"name"`
	Why      string `json:"why"` // "under fire", "after the melee"
	Need     int    `json:"need"`
	Roll     int    `json:"roll"`
	Unharmed bool   `json:"unharmed"`
	Killed   bool   `json:"killed,omitempty"`
}

// MeleeSideRec is one side of a melee.
type MeleeSideRec struct {
	Unit       string    `json:"unit"`
	CV         string    `json:"cv"` // the steps: "7 +3 +2 → CV 12"
	Fighters   int       `json:"fighters"`
	Rolls      []RollRec `json:"rolls"`
	Strikes    int       `json:"strikes"`
	Taken      string    `json:"taken"`
	StandsLost int       `json:"stands_lost"`
	After      Status    `json:"after"`
}

// MeleeEvent is a melee resolved up to its morale checks.
type MeleeEvent struct {
	Attacker     MeleeSideRec `json:"attacker"`
	Defender     MeleeSideRec `json:"defender"`
	Aspect       string       `json:"aspect"`
	AttackerLost bool         `json:"attacker_lost"`
	Difference   int          `json:"difference"`
}

// MoraleEvent is one morale check.
type MoraleEvent struct {
	Unit    string `json:"unit"`
	Why     string `json:"why"`
	Roll    int    `json:"roll"`
	Outcome string `json:"outcome"` // pass, fall back, break
}

// StatusEvent sets a unit's status for a reason.
type StatusEvent struct {
	Unit  string `json:"unit"`
	Why   string `json:"why"`
	After Status `json:"after"`
}

// CaptureEvent is a capture card.
type CaptureEvent struct {
	Unit string `json:"unit"`
	Name string `json:"name"`
	Card string `json:"card"`
	Fate string `json:"fate"`
}

// RemovedEvent takes a unit off the table.
type RemovedEvent struct {
	Unit string `json:"unit"`
	Gone string `json:"gone"` // destroyed, routed
	Why  string `json:"why"`
}

// FailedEvent is a charge that failed.
type FailedEvent struct {
	Unit   string `json:"unit"`
	Target string `json:"target"`
	Why    string `json:"why"`
}

// EndEvent ends a side's block.
type EndEvent struct {
	Side     int `json:"side"`
	Turn     int `json:"turn"`
	NextSide int `json:"next_side"`
	NextTurn int `json:"next_turn"`
}

// OverEvent ends the game.
type OverEvent struct {
	Winner int    `json:"winner"` // -1 a draw
	Result string `json:"result"`
}

func newData(name string) (any, error) {
	switch name {
	case EvCharge:
		return &ChargeEvent{}, nil
	case EvMoved:
		return &MovedEvent{}, nil
	case EvReaction:
		return &ReactionEvent{}, nil
	case EvVolley:
		return &VolleyEvent{}, nil
	case EvCheck:
		return &CheckEvent{}, nil
	case EvMelee:
		return &MeleeEvent{}, nil
	case EvMorale:
		return &MoraleEvent{}, nil
	case EvStatus:
		return &StatusEvent{}, nil
	case EvCapture:
		return &CaptureEvent{}, nil
	case EvRemoved:
		return &RemovedEvent{}, nil
	case EvFailed:
		return &FailedEvent{}, nil
	case EvEnd:
		return &EndEvent{}, nil
	case EvOver:
		return &OverEvent{}, nil
	}
	return nil, fmt.Errorf("unknown strike event %q", name)
}

type wire struct {
	Event string          `json:"event"`
	Data  json.RawMessage `json:"data"`
}

// Encode is the event's canonical JSON.
func (e Event) Encode() []byte {
	d, err := json.Marshal(e.Data)
	if err != nil {
		panic(err)
	}
	b, err := json.Marshal(wire{Event: e.Name, Data: d})
	if err != nil {
		panic(err)
	}
	return b
}

// DecodeEvent reads an event Encode wrote.
func DecodeEvent(b []byte) (Event, error) {
	var w wire
	if err := json.Unmarshal(b, &w); err != nil {
		return Event{}, fmt.Errorf("strike event: %w", err)
	}
	d, err := newData(w.Event)
	if err != nil {
		return Event{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(w.Data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(d); err != nil {
		return Event{}, fmt.Errorf("strike event %q: %w", w.Event, err)
	}
	return Event{Name: w.Event, Data: d}, nil
}

func (s *State) unit(b *Battle, id string) (*Unit, error) {
	i := b.Index(id)
	if i < 0 {
		return nil, fmt.Errorf("no unit %q", id)
	}
	return &s.Units[i], nil
}

func setStatus(u *Unit, st Status) {
	u.Stands, u.FiguresLost, u.Disordered = st.Stands, st.FiguresLost, st.Disordered
	if u.Stands <= 0 && u.Gone == "" {
		u.Gone = "destroyed"
	}
	reform(u)
}

// Apply carries out one event on s: the only function that changes a
// game's state.
func (s *State) Apply(b *Battle, e Event) error {
	switch d := e.Data.(type) {
	case *ChargeEvent, *ReactionEvent, *FailedEvent:
		return nil
	case *MovedEvent:
		u, err := s.unit(b, d.Unit)
		if err != nil {
			return err
		}
		switch d.Order {
		case MoveForward, MoveBack, MoveWheel, MoveTurn:
			u.Moved += d.Inches
		case MoveCharge, MoveCounter:
			u.Charged += d.Inches
		case MoveRetreat, MoveFallBack, MoveRetire:
		default:
			return fmt.Errorf("a move of %s by order %q", d.Unit, d.Order)
		}
		u.Pos, u.Facing = d.Pos, d.Facing
	case *VolleyEvent:
		sh, err := s.unit(b, d.Shooter)
		if err != nil {
			return err
		}
		tg, err := s.unit(b, d.Target)
		if err != nil {
			return err
		}
		if d.Fire == "" {
			sh.Fired = true
		}
		setStatus(tg, d.After)
	case *CheckEvent:
		u, err := s.unit(b, d.Unit)
		if err != nil {
			return err
		}
		if u.Personality == nil {
			return fmt.Errorf("%s has no Personality", d.Unit)
		}
		if !d.Unharmed {
			u.Personality.Wounded = true
		}
		if d.Killed {
			u.Personality.Killed = true
		}
	case *MeleeEvent:
		for _, side := range []MeleeSideRec{d.Attacker, d.Defender} {
			u, err := s.unit(b, side.Unit)
			if err != nil {
				return err
			}
			setStatus(u, side.After)
		}
	case *MoraleEvent:
		u, err := s.unit(b, d.Unit)
		if err != nil {
			return err
		}
		if d.Outcome != "pass" {
			u.Disordered = true
		}
	case *StatusEvent:
		u, err := s.unit(b, d.Unit)
		if err != nil {
			return err
		}
		setStatus(u, d.After)
	case *CaptureEvent:
		u, err := s.unit(b, d.Unit)
		if err != nil {
			return err
		}
		if u.Personality == nil {
			return fmt.Errorf("%s has no Personality", d.Unit)
		}
		switch d.Fate {
		case "killed":
			u.Personality.Killed = true
		case "captured":
			u.Personality.Captured = true
		}
	case *RemovedEvent:
		u, err := s.unit(b, d.Unit)
		if err != nil {
			return err
		}
		u.Gone = d.Gone
	case *EndEvent:
		for i := range s.Units {
			u := &s.Units[i]
			u.Moved, u.Charged, u.Fired = 0, 0, false
		}
		s.Side, s.Turn = d.NextSide, d.NextTurn
		s.Blocks++
	case *OverEvent:
		s.Over, s.Winner, s.Result = true, d.Winner, d.Result
	default:
		return fmt.Errorf("strike event %q: data %T", e.Name, e.Data)
	}
	return nil
}

// Replay applies a game's events, as stored, to the opening position.
func Replay(b *Battle, events [][]byte) (*State, error) {
	st := b.Start()
	for i, raw := range events {
		e, err := DecodeEvent(raw)
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", i+1, err)
		}
		if err := st.Apply(b, e); err != nil {
			return nil, fmt.Errorf("event %d: %w", i+1, err)
		}
	}
	return st, nil
}
