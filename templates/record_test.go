package templates

import (
	"reflect"
	"strings"
	"testing"
)

// A kept view renders to the very mail its view renders to, for every
// golden sample of every kind: the daemon renders result mails from their
// records after the commit (issue 17).
func TestRecordRendersTheSameMail(t *testing.T) {
	for _, s := range samples() {
		t.Run(s.name, func(t *testing.T) {
			want, err := Render(s.view)
			if err != nil {
				t.Fatal(err)
			}
			rec, blocks, err := Keep(s.view)
			if err != nil {
				t.Fatal(err)
			}
			got, err := RenderRecord(rec, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("the kept view renders another mail:\n got %+v\nwant %+v", got, want)
			}
			v, _ := rec.view()
			if !reflect.DeepEqual(blocksOf(v), blocks) {
				t.Errorf("blocks %+v, decoded %+v", blocks, blocksOf(v))
			}
			for _, b := range blocks {
				if !containsLine(want.Text, b.Text()) {
					t.Errorf("the text part does not print block %q as Text() does", b.Text())
				}
			}
		})
	}
}

// containsLine reports whether text holds block on whole lines.
func containsLine(text, block string) bool {
	return strings.Contains("\n"+text, "\n"+block)
}

// Keep refuses what Render refuses, before anything is committed.
func TestKeepRefusesAsRender(t *testing.T) {
	bad := Result{Game: Game{ID: "g 1"}, Side: "English"}
	_, rerr := Render(bad)
	_, _, kerr := Keep(bad)
	if rerr == nil || kerr == nil || rerr.Error() != kerr.Error() {
		t.Errorf("Render: %v; Keep: %v", rerr, kerr)
	}
	if _, err := RenderRecord(Record{Kind: "postcard", View: []byte("{}")}, nil); err == nil {
		t.Error("a record of an unknown kind rendered")
	}
}

// Every kind of mail can be kept.
func TestEveryKindDecodes(t *testing.T) {
	for _, k := range Kinds() {
		if _, ok := decoders[k]; !ok {
			t.Errorf("no decoder for kind %s", k)
		}
	}
}
