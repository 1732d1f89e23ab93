package pbem

import (
	"strings"
	"testing"

	"herald/templates"
)

// lines renders a block's non-blank lines as "No:Text" for comparison.
func lines(b Block) string {
	var s []string
	for _, l := range b.Lines {
		if l.Text != "" {
			s = append(s, itoa(l.No)+":"+l.Text)
		}
	}
	return strings.Join(s, " | ")
}

func TestFindBlocks(t *testing.T) {
	const key = "KEY K7Q2-M9XD-4RTA-WX3B\n"
	for _, tc := range []struct {
		name, text string
		want       string // "game move key begin-end: lines" per block, ";"-separated
		problems   int
	}{
		{"the block Herald mails, filled in",
			templates.OrderBlock{GameID: "crecy-4f2a", Move: 17, Key: "K7Q2-M9XD-4RTA-WX3B", Prefill: []string{"ACTIVATE Godfrey", "END"}}.Text(),
			"crecy-4f2a 17 K7Q2-M9XD-4RTA-WX3B 1-5: 3:ACTIVATE Godfrey | 4:END", 0},
		{"tolerant markers",
			"  ---  Herald Orders  CRECY-4F2A  Move 17  ---  \nkey: abc\nEND\n----- END ORDERS -----\n",
			"crecy-4f2a 17 abc 1-4: 3:END", 0},
		{"non-breaking and zero-width spaces",
			"---\u00a0herald\u00a0orders:\u00a0crecy-4f2a\u00a0move\u00a017\u00a0---\n\u200bKEY\u00a0abc\nACTIVATE\u00a0Godfrey\u202f\n---\u00a0end orders\u00a0---",
			"crecy-4f2a 17 abc 1-4: 3:ACTIVATE Godfrey", 0},
		{"typographic dashes",
			"\u2014- herald orders: crecy-4f2a move 17 \u2014-\n" + key + "END\n\u2013\u2013 end orders \u2013\u2013\n",
			"crecy-4f2a 17 K7Q2-M9XD-4RTA-WX3B 1-4: 3:END", 0},
		{"begin marker wrapped by the client",
			"Orders:\n--- herald orders: crecy-4f2a\nmove 17 ---\n" + key + "END\n--- end orders ---\n",
			"crecy-4f2a 17 K7Q2-M9XD-4RTA-WX3B 2-6: 5:END", 0},
		{"comments and blank lines kept, KEY line taken out",
			"--- herald orders: g-1 move 2 ---\n# my plan\n\n" + key + "ACTIVATE Godfrey # first\n--- end orders ---",
			"g-1 2 K7Q2-M9XD-4RTA-WX3B 1-6: 2:# my plan | 5:ACTIVATE Godfrey # first", 0},
		{"quoted lines inside the block are left out",
			"--- herald orders: g move 2 ---\n" + key + "> PASS\n  >> END\nEND\n--- end orders ---",
			"g 2 K7Q2-M9XD-4RTA-WX3B 1-6: 5:END", 0},
		{"quoted block only: found, quoted whole (PickBlock judges it)",
			"Thanks.\n> --- herald orders: g move 2 ---\n> " + key + "> END\n> --- end orders ---\n", "g 2 K7Q2-M9XD-4RTA-WX3B 2-5: 4:END", 0},
		{"Herald's empty block quoted: no block",
			"Thanks.\n> --- herald orders: g move 2 ---\n> " + key + ">\n> # a comment\n> --- end orders ---\n", "", 0},
		{"block below the quoted mail (bottom-posting)",
			"On Tue, 3 Mar 2026, Herald wrote:\n> --- herald orders: g move 2 ---\n> --- end orders ---\n\n--- herald orders: g move 2 ---\n" + key + "END\n--- end orders ---\n",
			"g 2 K7Q2-M9XD-4RTA-WX3B 5-8: 7:END", 0},
		{"attribution inside a block is not an order",
			"--- herald orders: g move 2 ---\n" + key + "END\nOn Tue, 3 Mar 2026 at 18:40, Herald <\nherald+g@club.example> wrote:\n> hello\n--- end orders ---\n",
			"g 2 K7Q2-M9XD-4RTA-WX3B 1-7: 3:END", 0},
		{"signature inside the block: unterminated",
			"--- herald orders: g move 2 ---\n" + key + "END\n-- \n--- end orders ---\n", "", 1},
		{"block in the signature is ignored",
			"Bye\n--\n--- herald orders: g move 2 ---\n" + key + "END\n--- end orders ---\n", "", 0},
		{"Outlook header ends the sender's text",
			"--- herald orders: g move 3 ---\n" + key + "PASS\n--- end orders ---\n\nFrom: Herald <herald+g@club.example>\nSent: Tuesday, March 3, 2026 8:40 PM\nTo: bruno@example.org\nSubject: [g] Move 2\n\n--- herald orders: g move 2 ---\n" + key + "\n--- end orders ---\n",
			"g 3 K7Q2-M9XD-4RTA-WX3B 1-4: 3:PASS", 0},
		{"forwarded message separator",
			"---------- Forwarded message ---------\n--- herald orders: g move 2 ---\n" + key + "END\n--- end orders ---\n", "", 0},
		{"a block below an Original Message line, with nothing above, is read (BelowQuote)",
			"-----Original Message-----\n--- herald orders: g move 2 ---\n" + key + "END\n--- end orders ---\n",
			"g 2 K7Q2-M9XD-4RTA-WX3B 2-5: 4:END", 0},
		{"a new begin marker before the end: the first is unterminated",
			"--- herald orders: g move 2 ---\nEND\n--- herald orders: g move 2 ---\n" + key + "PASS\n--- end orders ---\n",
			"g 2 K7Q2-M9XD-4RTA-WX3B 3-6: 5:PASS", 1},
		{"two blocks",
			"--- herald orders: g move 2 ---\nEND\n--- end orders ---\n--- herald orders: h move 9 ---\nPASS\n--- end orders ---\n",
			"g 2  1-3: 2:END; h 9  4-6: 5:PASS", 0},
		{"orders typed between the quoted markers (Reply, then type inside the quote)",
			"On Tue, 3 Mar 2026, Herald wrote:\n> Crecy, move 2.\n> --- herald orders: g move 2 ---\n> " + key + "\nACTIVATE Godfrey\nEND\n\n>\n> --- end orders ---\n> \n> -- \n> Herald\n",
			"g 2 K7Q2-M9XD-4RTA-WX3B 3-10: 6:ACTIVATE Godfrey | 7:END", 0},
		{"quoted markers, own KEY line and orders",
			"> --- herald orders: g move 2 ---\n" + key + "PASS\n> --- end orders ---\n",
			"g 2 K7Q2-M9XD-4RTA-WX3B 1-4: 3:PASS", 0},
		{"HTML reply typed inside a split blockquote",
			"> --- herald orders: g move 2 ---\n> " + key + "> \nEND\n> --- end orders ---\n",
			"g 2 K7Q2-M9XD-4RTA-WX3B 1-5: 4:END", 0},
		{"quoted begin marker without its end: no block, no problem",
			"> --- herald orders: g move 2 ---\n> " + key + "END\n", "", 0},
		{"an older quote (depth 2) inside the quoted block is not the sender's",
			"> --- herald orders: g move 2 ---\n> " + key + ">> PASS\nEND\n> --- end orders ---\n",
			"g 2 K7Q2-M9XD-4RTA-WX3B 1-5: 4:END", 0},
		{"own block after a quoted one the sender did not write in",
			"> --- herald orders: g move 2 ---\n> --- end orders ---\n--- herald orders: g move 2 ---\n" + key + "END\n--- end orders ---\n",
			"g 2 K7Q2-M9XD-4RTA-WX3B 3-6: 5:END", 0},
		{"marker not alone on its line", "see --- herald orders: g move 2 ---\nEND\n--- end orders ---\n", "", 0},
	} {
		blocks, problems := FindBlocks(tc.text)
		var got []string
		for _, b := range blocks {
			got = append(got, b.GameID+" "+itoa(b.Move)+" "+b.Key+" "+itoa(b.Begin)+"-"+itoa(b.End)+": "+lines(b))
		}
		if strings.Join(got, "; ") != tc.want || len(problems) != tc.problems {
			t.Errorf("%s:\n got %q, %d problems %+v\nwant %q, %d problems", tc.name, strings.Join(got, "; "), len(problems), problems, tc.want, tc.problems)
		}
	}
}

func TestUnterminatedProblem(t *testing.T) {
	_, problems := FindBlocks("Hi\n  --- Herald orders: crecy-4f2a move 17 ---\nKEY K\nEND\n")
	want := Problem{Line: 2, Text: "--- Herald orders: crecy-4f2a move 17 ---",
		Reason: `the order block that begins here has no end marker "--- end orders ---"`}
	if len(problems) != 1 || problems[0] != want {
		t.Errorf("got %+v, want %+v", problems, want)
	}
}

func TestCommands(t *testing.T) {
	for text, want := range map[string]Command{
		"CHECK\nACTIVATE Godfrey":     CommandCheck,
		"# first a comment\n\nstatus": CommandStatus,
		"Resign":                      CommandResign,
		"RESIGN CONFIRM 7f3a9c":       CommandConfirmResign,
		"ACTIVATE Godfrey\nCHECK":     CommandOrders,
		"":                            CommandOrders,
		"CHECK # what if":             CommandCheck,
	} {
		blocks, _ := FindBlocks("--- herald orders: g move 1 ---\nKEY K\n" + text + "\n--- end orders ---\n")
		if len(blocks) != 1 || blocks[0].Command != want {
			t.Errorf("%q: got %+v, want %v", text, blocks, want)
		}
	}
}

func TestAllQuoted(t *testing.T) {
	herald := "--- herald orders: g move 7 ---\nKEY K\nACTIVATE Godfrey\n--- end orders ---\n"
	hb, _ := FindBlocks(herald)
	sent := []string{hb[0].Fingerprint()}
	empty, _ := FindBlocks("--- herald orders: g move 7 ---\nKEY K\n\n--- end orders ---\n")
	sentEmpty := []string{empty[0].Fingerprint()}
	quote := func(s string) string {
		return "> " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n> ") + "\n"
	}
	for _, tc := range []struct {
		name, text string
		known      Known
		want       string
	}{
		{"orders typed into the quote (Apple Mail HTML)", "On Tue, Herald wrote:\n" + quote("--- herald orders: g move 7 ---\nKEY K\nACTIVATE Edward\nEND\n--- end orders ---"),
			Known{Move: 7, Sent: sentEmpty}, "4:ACTIVATE Edward | 5:END"},
		{"Herald's prefilled block quoted as it was: not the sender's", "Thanks!\n" + quote(herald), Known{Move: 7, Sent: sent}, CodeNoBlock},
		{"an earlier move's block quoted", "Thanks!\n" + quote("--- herald orders: g move 6 ---\nKEY K\nEND\n--- end orders ---"), Known{Move: 7, Sent: sentEmpty}, CodeNoBlock},
		{"without knowing what Herald sent", "Thanks!\n" + quote("--- herald orders: g move 7 ---\nKEY K\nEND\n--- end orders ---"), Known{Move: 7}, CodeNoBlock},
		{"with a block of the sender's own", "--- herald orders: g move 7 ---\nKEY K\nPASS\n--- end orders ---\n" + quote("--- herald orders: g move 7 ---\nKEY K\nEND\n--- end orders ---"),
			Known{Move: 7, Sent: sentEmpty}, "3:PASS"},
	} {
		blocks, problems := FindBlocks(tc.text)
		b, r := PickBlock(blocks, problems, tc.known)
		got := lines(b)
		if r != nil {
			got = r.Code
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestQuotedFlag(t *testing.T) {
	blocks, _ := FindBlocks("> --- herald orders: g move 2 ---\n> KEY K\nEND\n> --- end orders ---\n--- herald orders: g move 2 ---\nKEY K\nEND\n--- end orders ---\n")
	if len(blocks) != 2 || !blocks[0].Quoted || blocks[1].Quoted {
		t.Errorf("got %+v, want the first block quoted and the second not", blocks)
	}
}

func TestFindStray(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		quoted     int
		orders     string
	}{
		{"orders above the quoted block",
			"ACTIVATE Godfrey\nEND\n\nThanks, Bob\n\nOn Tue, Herald wrote:\n> --- herald orders: g move 2 ---\n> KEY K\n>\n> --- end orders ---\n",
			7, "1:ACTIVATE Godfrey | 2:END"},
		{"orders below the block, outside it",
			"--- herald orders: g move 2 ---\nKEY K\n--- end orders ---\nPASS\n", 0, "4:PASS"},
		{"prose is not an order", "Hello Herald,\nmove my knights please\nBob\n", 0, ""},
		{"quoted orders are not the sender's", "> ACTIVATE Godfrey\n", 0, ""},
		{"markers and KEY lines are not orders", "KEY K\n--- herald orders: g move 2 ---\n", 0, ""},
	} {
		s := FindStray(tc.text)
		if got := lines(Block{Lines: s.Orders}); s.QuotedBlock != tc.quoted || got != tc.orders {
			t.Errorf("%s: got quoted block %d, orders %q; want %d, %q", tc.name, s.QuotedBlock, got, tc.quoted, tc.orders)
		}
	}
}

func TestPickBlock(t *testing.T) {
	const key = "KEY K\n"
	blk := func(move int, lines string) string {
		return "--- herald orders: g move " + itoa(move) + " ---\n" + key + lines + "--- end orders ---\n"
	}
	herald, _ := FindBlocks(blk(7, "ACTIVATE Godfrey\n"))
	sent := []string{herald[0].Fingerprint()}
	for _, tc := range []struct {
		name, text string
		known      Known
		want       string // the picked block's lines, or the refusal code
	}{
		{"an earlier move's block below the new one",
			blk(7, "END\n") + "\nDate: Tue, 3 Mar 2026\n" + blk(6, "PASS\n"), Known{Move: 7}, "3:END"},
		{"the earlier one first", blk(6, "PASS\n") + blk(7, "END\n"), Known{Move: 7}, "7:END"},
		{"identical to the block Herald sent (a refusal's prefill)",
			blk(7, "ACTIVATE Edward\n") + "\nMessage d'origine\n" + blk(7, "ACTIVATE  godfrey # Herald's\n"), Known{Move: 7, Sent: sent}, "3:ACTIVATE Edward"},
		{"Herald's empty block, quoted without >",
			blk(7, "END\n") + "\n" + blk(7, "\n"), Known{Move: 7}, "3:END"},
		{"without knowing the move, the empty one still goes",
			blk(7, "END\n") + blk(7, "# nothing\n"), Known{}, "3:END"},
		{"the sender's copy of Herald's prefilled block above the original",
			blk(7, "ACTIVATE Godfrey\n") + "\n" + blk(7, "ACTIVATE Godfrey\n"), Known{Move: 7, Sent: sent}, "3:ACTIVATE Godfrey"},
		{"two blocks of the sender's: refused", blk(7, "END\n") + blk(7, "PASS\n"), Known{Move: 7, Sent: sent}, CodeSeveralBlocks},
		{"both earlier: both kept, refused", blk(5, "END\n") + blk(6, "PASS\n"), Known{Move: 7}, CodeSeveralBlocks},
		{"none", "hello", Known{Move: 7}, CodeNoBlock},
		{"thanks above an Outlook quote of Herald's prefilled block: not carried out",
			"Thanks!\n\nFrom: Herald\nSent: Tuesday\nTo: bob\nSubject: [g] Move 7\n\n" + blk(7, "ACTIVATE Godfrey\n"), Known{Move: 7, Sent: sent}, CodeNoBlock},
		{"Herald's empty block alone below the quote", "Thanks!\n-----Original Message-----\n" + blk(7, ""), Known{Move: 7}, CodeNoBlock},
		{"an earlier move's block alone below the quote", "Thanks!\n-----Original Message-----\n" + blk(6, "END\n"), Known{Move: 7}, CodeNoBlock},
		{"written below the quote, with Herald's block above it",
			"-----Original Message-----\nFrom: Herald\n" + blk(7, "") + "\n" + blk(7, "END\n"), Known{Move: 7, Sent: sent}, "9:END"},
	} {
		blocks, problems := FindBlocks(tc.text)
		b, r := PickBlock(blocks, problems, tc.known)
		got := lines(b)
		if r != nil {
			got = r.Code
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestSeveralBlocksNamesLines(t *testing.T) {
	blocks, _ := FindBlocks("--- herald orders: g move 7 ---\nKEY K\nEND\n--- end orders ---\nx\n--- herald orders: g move 7 ---\nKEY K\nPASS\n--- end orders ---\n")
	_, r := PickBlock(blocks, nil, Known{Move: 7})
	if r == nil || !strings.Contains(r.Message, "at lines 1-4 (move 7) and lines 6-9 (move 7)") {
		t.Errorf("got %v", r)
	}
}
