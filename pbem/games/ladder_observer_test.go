package games

import (
	"regexp"
	"strings"
	"testing"
)

// Observers of a Blood & Roses ladder game get a copy of every result
// that names no counter of either hidden hand and no standing order, and
// holds no block and no key; the players' own mails show their hands.
func TestLadderObserverSeesNoSecret(t *testing.T) {
	f := newLadderFix(t, "forfeit")
	if _, err := f.svc.CreateLadder("wars", org, []string{"ladder", "scenarios=blore-heath"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.LadderCommand("wars", org, "ADD "+alice, "ADD "+bob, "OBSERVE "+obs); err != nil {
		t.Fatal(err)
	}
	f.deliverAll()
	says, err := f.svc.LadderCommand("wars", org, "START blore-heath "+alice+" "+bob)
	if err != nil {
		t.Fatal(err)
	}
	f.game = strings.TrimSuffix(strings.Fields(says[0])[1], ":")
	hands := map[string][]string{}
	for _, m := range f.deliverAll() {
		if blocks, _ := pbemBlocks(m); len(blocks) == 1 && blocks[0].GameID == f.game {
			f.keys[m.to] = blocks[0].Key
			hands[m.to] = counterIDs(m.mail.Text)
		}
	}
	if len(hands[alice]) == 0 || len(hands[bob]) == 0 {
		t.Fatalf("hands %v", hands)
	}
	var toObs, all []sent
	play := func(from string, lines ...string) {
		t.Helper()
		out := f.handle(f.orders(from, "", lines...))
		if out.Status != "applied" {
			t.Fatalf("%s %q: %+v", from, lines, out)
		}
		for _, m := range f.deliverAll() {
			all = append(all, m)
			if m.to == obs {
				toObs = append(toObs, m)
			}
		}
	}
	// bob's orders after CONTINUE are held, private to him, while the
	// Yorkists may Seize (B&R 6.3)
	play(bob, "ACTIVATE audley", "END", "CONTINUE dudley", "END")
	if len(toObs) == 0 {
		t.Fatal("the observer got no copy")
	}
	for i, m := range toObs {
		if blocks, _ := pbemBlocks(m); len(blocks) > 0 {
			t.Errorf("copy %d holds a block", i)
		}
		for who, k := range f.keys {
			if strings.Contains(string(m.raw), k) {
				t.Errorf("copy %d holds %s's key", i, who)
			}
		}
		// every sentence of the copy's narrative is in both players'
		// result mails of the same block: the observer knows only what
		// both sides know
		batch := regexp.MustCompile(`\.observer\.(b\d+)-`).FindStringSubmatch(m.mail.MessageID)
		if batch == nil {
			t.Fatalf("copy %d: Message-ID %s", i, m.mail.MessageID)
		}
		text := flat(m.mail.Text)
		text = text[strings.Index(text, "secrets.")+len("secrets.") : strings.Index(text, "Dice record:")]
		text = regexp.MustCompile(`\[die \d+\]`).ReplaceAllString(text, "")
		for _, side := range []string{"yorkists", "lancastrians"} {
			var res *sent
			for j := range all {
				if strings.Contains(all[j].mail.MessageID, ".result."+batch[1]+"-"+side+"@") {
					res = &all[j]
				}
			}
			if res == nil {
				t.Fatalf("no %s result of %s", side, batch[1])
			}
			for _, sentence := range strings.Split(text, ". ") {
				if sentence = strings.TrimSpace(sentence); sentence != "" && !strings.Contains(flat(res.mail.Text), sentence) {
					t.Errorf("copy %d tells %q, which the %s were not told", i, sentence, side)
				}
			}
		}
		for who, hand := range hands {
			for _, id := range hand {
				if regexp.MustCompile(`\b`+id+`\b`).MatchString(m.mail.Text) && !strings.Contains(flat(m.mail.Text), "Seizure Opportunity "+id) {
					t.Errorf("copy %d names %s's hidden counter %s:\n%s", i, who, id, m.mail.Text)
				}
			}
		}
	}
	if !strings.Contains(flat(toObs[0].mail.Text), "The Lancastrians activate") {
		t.Errorf("the copy does not tell the move:\n%s", textOf(toObs))
	}
}
