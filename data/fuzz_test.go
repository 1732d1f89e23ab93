package data

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// seeds adds the test files of a kind and the embedded battles, but not
// the embedded tables (20 KB, which the unit tests load; the small valid
// tables-tiny.yaml stands for them): every input the fuzzer keeps is
// mutated and minimized, and one that large mostly costs time.
func seeds(f *testing.F, tables bool) {
	f.Helper()
	var files []string
	if !tables {
		files, _ = filepath.Glob("scenarios/*.yaml")
	}
	more, _ := filepath.Glob("testdata/*/*.yaml")
	for _, m := range more {
		if strings.HasPrefix(filepath.Base(m), "tables-") == tables {
			files = append(files, m)
		}
	}
	if len(files) == 0 {
		f.Fatal("no seeds")
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(""))
	f.Add([]byte("a: &a [*a]\nb: *a\n"))
	f.Add([]byte("- - - [\n"))
}

// FuzzParseScenario: any bytes give a scenario or an error, never a panic;
// an error is one or more "file:line: " lines.
func FuzzParseScenario(f *testing.F) {
	seeds(f, false)
	f.Fuzz(func(t *testing.T, b []byte) {
		sc, err := ParseScenario("fuzz.yaml", b)
		if (sc == nil) == (err == nil) {
			t.Fatalf("scenario %v and error %v", sc != nil, err)
		}
		if err != nil {
			checkLines(t, err)
			return
		}
		// A loaded battle is consistent enough for the engine.
		for _, u := range sc.Units {
			if sc.Tables.UnitTypes[u.Type] == nil || sc.Command(u.Command) == nil {
				t.Fatalf("unit %+v slipped through", u)
			}
		}
	})
}

// FuzzParseTables: any bytes give tables or an error, never a panic.
func FuzzParseTables(f *testing.F) {
	seeds(f, true)
	f.Fuzz(func(t *testing.T, b []byte) {
		tb, err := ParseTables("fuzz.yaml", b)
		if (tb == nil) == (err == nil) {
			t.Fatalf("tables %v and error %v", tb != nil, err)
		}
		if err != nil {
			checkLines(t, err)
			return
		}
		for _, rt := range []struct {
			name string
			rows int
		}{{"fire", len(tb.Fire.Rows)}, {"shock", len(tb.Shock.Rows)}, {"charge", len(tb.Charge.Rows)}} {
			if rt.rows == 0 {
				t.Fatalf("%s table without rows accepted", rt.name)
			}
		}
		for _, col := range tb.Fire.Columns {
			for total := -20; total <= 30; total++ {
				if _, ok := tb.Fire.Lookup(col, total); !ok {
					t.Fatalf("fire %s %d: no result", col, total)
				}
			}
		}
	})
}

func checkLines(t *testing.T, err error) {
	t.Helper()
	lines := strings.Split(err.Error(), "\n")
	// A battle may add the errors of a tables file it names.
	if len(lines) > 2*(MaxErrors+1) {
		t.Fatalf("%d error lines", len(lines))
	}
	for _, l := range lines {
		if !fileLine.MatchString(l) {
			t.Fatalf("error line %q does not start with file:line:", l)
		}
	}
}

var fileLine = regexp.MustCompile(`^[^:\n]+:\d+: `)
