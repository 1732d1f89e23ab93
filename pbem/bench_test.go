package pbem

import (
	"os"
	"path/filepath"
	"testing"
)

// A typical player's reply: Gmail, multipart/alternative, the block on
// top and Herald's mail quoted below.
func BenchmarkReadMailFindBlocks(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("testdata", "mail", "gmail-alternative.eml"))
	if err != nil {
		b.Fatal(err)
	}
	opt := ReadOptions{Self: []string{"herald@club.example"}}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		m, err := ReadMail(raw, opt)
		if err != nil {
			b.Fatal(err)
		}
		if blocks, _ := FindBlocks(m.Text); len(blocks) != 1 {
			b.Fatal("no block")
		}
	}
}

// An HTML-only mail (Outlook on the web) goes through the HTML converter.
func BenchmarkReadMailHTML(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("testdata", "mail", "outlook-html-toppost.eml"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		m, err := ReadMail(raw, ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		FindBlocks(m.Text)
	}
}
