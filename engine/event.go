package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// Event is a fact about the battle, in the past tense. Every change to the
// State is made by applying an event, so the State is the fold of the events
// over the scenario (Replay), and an event carries what a player needs to
// understand it: the die, each modifier with its reason and rule, the total,
// the number it was compared with, the result. The set is closed.
type Event interface {
	apply(st *State)
	// describe prints the event as a line of the game's narrative; ""
	// for the bookkeeping events of a phase kept in the state, which make
	// no line.
	describe(sc *Scenario) string
}

// Roll is one die roll with its modifiers, as the books' examples narrate
// it ("A die roll of 6 is modified to a 12").
type Roll struct {
	Purpose string     `json:"purpose"`
	Die     int        `json:"die"`
	Mods    []Modifier `json:"mods,omitempty"`
	Total   int        `json:"total"`
}

// Modifier is one DRM with why it applies.
type Modifier struct {
	DRM    int    `json:"drm"`
	Reason string `json:"reason"`
	Rule   string `json:"rule"`
}

// eventTypes lists every event type by the name used in JSON.
var eventTypes = map[string]reflect.Type{}

func registerEvents(evs ...Event) {
	for _, e := range evs {
		t := reflect.TypeOf(e)
		eventTypes[t.Name()] = t
	}
}

// EventName returns the JSON name of an event's type ("ContinuityRolled").
func EventName(e Event) string { return reflect.TypeOf(e).Name() }

// envelope is an event's JSON form: {"event": name, "data": {...}}.
type envelope struct {
	Event string          `json:"event"`
	Data  json.RawMessage `json:"data"`
}

// MarshalEvent encodes one event as JSON.
func MarshalEvent(e Event) ([]byte, error) {
	data, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("engine: encode %s: %w", EventName(e), err)
	}
	return json.Marshal(envelope{Event: EventName(e), Data: data})
}

// UnmarshalEvent decodes what MarshalEvent encoded.
func UnmarshalEvent(b []byte) (Event, error) {
	var env envelope
	if err := json.Unmarshal(b, &env); err != nil {
		return nil, fmt.Errorf("engine: decode event: %w", err)
	}
	t, ok := eventTypes[env.Event]
	if !ok {
		return nil, fmt.Errorf("engine: decode event: unknown event %q", env.Event)
	}
	p := reflect.New(t)
	if err := json.Unmarshal(env.Data, p.Interface()); err != nil {
		return nil, fmt.Errorf("engine: decode %s: %w", env.Event, err)
	}
	return p.Elem().Interface().(Event), nil
}

// Describe prints an event as a line of narrative for players.
func Describe(sc *Scenario, e Event) string { return e.describe(sc) }

// Replay folds events over the scenario's opening position. For any game,
// Replay(sc, all its events) equals the state Apply produced.
func Replay(sc *Scenario, events []Event) *State {
	st := NewState(sc)
	for _, e := range events {
		e.apply(st)
	}
	return st
}

// ReplayFrom folds events over a given state (a snapshot), in place.
func ReplayFrom(st *State, events []Event) {
	for _, e := range events {
		e.apply(st)
	}
}
