package templates

import (
	"encoding/json"
	"fmt"
)

// Record is a view kept to be rendered later: the daemon commits it with
// the mail's effects and renders it when the mail leaves the outbox, out
// of the write transaction (issue 17). Rendering is a pure function of
// the view, so the mail rendered from its record after a crash is the one
// that would have been sent.
type Record struct {
	Kind Kind            `json:"kind"`
	View json.RawMessage `json:"view"`
}

// Keep checks a view as Render does (the same refusals, before anything
// is committed) and returns its record, with the order blocks the mail
// will print, exactly as Render prints them.
func Keep(v View) (Record, []OrderBlock, error) {
	if v = deref(v); v == nil {
		return Record{}, nil, fmt.Errorf("templates: Keep(nil)")
	}
	if err := validate(v); err != nil {
		return Record{}, nil, fmt.Errorf("templates: %s: %w", v.Kind(), err)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return Record{}, nil, fmt.Errorf("templates: %s: %w", v.Kind(), err)
	}
	return Record{Kind: v.Kind(), View: data}, blocksOf(v), nil
}

// RenderRecord renders a kept view. reach, when not nil, are a Result's
// Reach hints, searched when the mail is composed rather than in the
// transaction that kept the view.
func RenderRecord(r Record, reach []string) (Mail, error) {
	v, err := r.view()
	if err != nil {
		return Mail{}, err
	}
	if res, ok := v.(Result); ok && reach != nil {
		res.Reach = reach
		v = res
	}
	return Render(v)
}

// view decodes the record's view into its kind's type.
func (r Record) view() (View, error) {
	decode, ok := decoders[r.Kind]
	if !ok {
		return nil, fmt.Errorf("templates: a kept view of unknown kind %q", r.Kind)
	}
	v, err := decode(r.View)
	if err != nil {
		return nil, fmt.Errorf("templates: kept %s: %w", r.Kind, err)
	}
	return v, nil
}

// decoders decode a kept view of each kind.
var decoders = map[Kind]func([]byte) (View, error){
	KindWelcome:  decodeView[Welcome],
	KindResult:   decodeView[Result],
	KindDecision: decodeView[Decision],
	KindRefusal:  decodeView[Refusal],
	KindReminder: decodeView[Reminder],
	KindGameOver: decodeView[GameOver],
	KindCheck:    decodeView[Check],
	KindNotice:   decodeView[Notice],
}

func decodeView[V View](data []byte) (View, error) {
	var v V
	err := json.Unmarshal(data, &v)
	return v, err
}

// blocksOf lists the order blocks a view's mail prints (at most one).
func blocksOf(v View) []OrderBlock {
	var b *OrderBlock
	switch v := v.(type) {
	case Welcome:
		b = &v.Block
	case Result:
		b = v.Block
	case Decision:
		b = &v.Block
	case Refusal:
		b = v.Block
	case Reminder:
		b = &v.Block
	case Check:
		b = &v.Block
	case Notice:
		b = v.Block
	}
	if b == nil {
		return nil
	}
	return []OrderBlock{*b}
}
