package command

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"

	"herald/pbem"
	"herald/pbem/dice"
)

// mailRecord is a dice record found in a saved mail.
type mailRecord struct {
	rec  dice.Record
	file string
	line int // the record's first line in the mail's text
	n    int // which record of the whole run, from 1, as given
}

// verifyMails checks the dice records of saved mails (docs/dice.md, "The
// record in every mail"): each on its own, then in batch order, each
// following the one before.
func verifyMails(env Env, paths []string, key *dice.PublicKey) ([]mailRecord, int) {
	var recs []mailRecord
	var skipped []string
	for _, path := range paths {
		found, err := readRecords(path, len(recs))
		if errors.Is(err, errNoRecord) && len(paths) > 1 {
			skipped = append(skipped, path) // a notice, a refusal, a check: no batch
			continue
		}
		if err != nil {
			fmt.Fprintf(env.Stdout, "FAILED: mail %d (%s): %v\n", len(recs)+1, path, err)
			return nil, 1
		}
		recs = append(recs, found...)
	}
	if len(recs) == 0 {
		fmt.Fprintf(env.Stdout, "FAILED: none of the %d mails holds a dice record\n", len(paths))
		return nil, 1
	}
	slices.SortStableFunc(recs, func(a, b mailRecord) int { return cmp.Compare(a.rec.Batch, b.rec.Batch) })
	// The same mail given twice, or sent again (STATUS), is one record.
	recs = slices.CompactFunc(recs, func(a, b mailRecord) bool { return a.rec.String() == b.rec.String() })
	rolls := 0
	for i, r := range recs {
		err := dice.VerifyRecord(r.rec, key)
		if err == nil && i > 0 {
			err = dice.Follows(recs[i-1].rec, r.rec)
		}
		if err != nil {
			fmt.Fprintln(env.Stdout, "FAILED: "+recordWhere(r, err))
			return nil, 1
		}
		rolls += len(r.rec.Rolls)
	}
	first, last := recs[0].rec, recs[len(recs)-1].rec
	fmt.Fprintf(env.Stdout, "OK: %d mails of game %s, batches %d–%d, %d rolls; checkpoint %d:%s\n",
		len(recs), first.Game, first.Batch, last.Batch, rolls, last.Checkpoint.Length, last.Checkpoint.Head)
	for _, path := range skipped {
		fmt.Fprintf(env.Stdout, "skipped %s: no dice record (a notice, a refusal or a check reports no batch)\n", path)
	}
	return recs, 0
}

// errNoRecord is a mail without a dice record.
var errNoRecord = errors.New("no dice record in this mail (" + dice.RecordBegin + " … " + dice.RecordEnd + ")")

// readRecords reads the dice records of a saved mail; n records were read
// before it.
func readRecords(path string, n int) ([]mailRecord, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := pbem.ReadMail(raw, pbem.ReadOptions{MaxBytes: 64 << 20})
	if err != nil {
		return nil, err
	}
	found, at, err := dice.FindRecords(m.Text)
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, errNoRecord
	}
	var out []mailRecord
	for i, r := range found {
		out = append(out, mailRecord{rec: r, file: path, line: at[i], n: n + i + 1})
	}
	return out, nil
}

// recordWhere names a failing record as docs/dice.md prints it:
// mail N (FILE), line L (roll #SEQ, PURPOSE): reason.
func recordWhere(r mailRecord, err error) string {
	where := fmt.Sprintf("mail %d (%s), line %d", r.n, r.file, r.line)
	var f *dice.RecordFailure
	if errors.As(err, &f) {
		if f.Roll != "" {
			where += " (" + f.Roll + ")"
		}
		return where + ": " + f.Reason
	}
	return where + ": " + err.Error()
}
