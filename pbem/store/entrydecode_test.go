package store

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// entryExamples are stored entries: as json.Marshal and marshaledEntry
// write them, and in shapes decodeEntry leaves to json.Unmarshal.
func entryExamples(t testing.TB) [][]byte {
	at := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	mail := []byte(`{"from":"herald@x","to":["a@x"],"view":{"kind":"result","view":{"t":"say \"hi\\\" }] [{","n":[1,{"a":[]}]}}}`)
	e := OutboxEntry{ID: 42, Mail: mail, Stream: "g/a@x", Created: at, Attempts: 2, Permanent: 1, NextAttempt: at.Add(time.Minute), LastError: "451 \"busy\" }"}
	marshaled, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	spliced, err := marshaledEntry(e)
	if err != nil {
		t.Fatal(err)
	}
	return [][]byte{
		marshaled,
		spliced,
		[]byte(`{"id":7,"mail":[1,"]",{"x":"\\"}],"stream":"s"}`),
		[]byte(`{"id":7,"mail":{"a":"\"},"},"stream":"s"}`),     // a quote escaped, then what would close the mail
		[]byte(`{"id":7,"stream":"s","mail":{"a":1}}`),          // mail not second
		[]byte(`{"id":7,"mail":{"a":1}}`),                       // mail last
		[]byte(`{"id":7,"mail":{"a":1},"Mail":{"b":2}}`),        // a second mail, in other case
		[]byte(`{"id":7,"mail":null,"stream":"s"}`),             // no mail
		[]byte(`{ "id":7, "mail":{"a":1} }`),                    // spaces
		[]byte(`{"id":7,"mail":{"a":1},"stream":"s"} trailing`), // not JSON
		[]byte(`{"id":7,"mail":{"a":"unterminated}`),
		[]byte(`{"id":7,"mail":{"a":1}`),
		[]byte(`{"id":,"mail":{}}`),
	}
}

// decodeEntry decodes every entry json.Unmarshal decodes, to the same,
// and refuses what it refuses but for a mail that is not JSON.
func TestDecodeEntryAsUnmarshal(t *testing.T) {
	for i, raw := range entryExamples(t) {
		checkDecodeEntry(t, raw)
		if key, _, _ := mailSpan(raw); i < 4 && key < 0 {
			t.Errorf("%q: the mail not found, the entry left to json.Unmarshal", raw)
		}
	}
}

func FuzzDecodeEntry(f *testing.F) {
	for _, raw := range entryExamples(f) {
		f.Add(raw)
	}
	f.Fuzz(checkDecodeEntry)
}

func checkDecodeEntry(t *testing.T, raw []byte) {
	var got, want OutboxEntry
	gotErr, wantErr := decodeEntry(raw, &got), json.Unmarshal(raw, &want)
	switch {
	case wantErr == nil && gotErr != nil:
		t.Fatalf("%q: decodeEntry: %v; json.Unmarshal decodes it", raw, gotErr)
	case wantErr == nil && !reflect.DeepEqual(got, want):
		t.Fatalf("%q: decodeEntry gives\n%+v\njson.Unmarshal\n%+v", raw, got, want)
	case wantErr != nil && gotErr == nil && json.Valid(got.Mail):
		t.Fatalf("%q: decodeEntry decodes it, with a valid mail; json.Unmarshal: %v", raw, wantErr)
	}
}

// BenchmarkDecodeEntry is an outbox entry of a result mail's size (about
// ten kilobytes of view), decoded as Due decodes it.
func BenchmarkDecodeEntry(b *testing.B) {
	view := make([]byte, 0, 10<<10)
	view = append(view, `{"kind":"result","view":{"lines":[`...)
	for i := 0; len(view) < 10<<10; i++ {
		if i > 0 {
			view = append(view, ',')
		}
		view = append(view, `"The French Crossbowmen fire at LB1: 7 \"rolled\", a hit"`...)
	}
	view = append(view, `]}}`...)
	raw, err := marshaledEntry(OutboxEntry{ID: 9, Mail: view, Stream: "crecy-01/a@x", Created: time.Now(), NextAttempt: time.Now()})
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range []struct {
		name   string
		decode func([]byte, *OutboxEntry) error
	}{{"decodeEntry", decodeEntry}, {"json.Unmarshal", func(raw []byte, e *OutboxEntry) error { return json.Unmarshal(raw, e) }}} {
		b.Run(d.name, func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				var e OutboxEntry
				if err := d.decode(raw, &e); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
