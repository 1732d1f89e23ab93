package strike_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRulingsNameRealTests keeps the strike section of docs/rulings.md
// honest: every row is numbered R500–R589, once, and every test it names
// exists in the strike packages, the dice log, the table picture or the
// data package.
func TestRulingsNameRealTests(t *testing.T) {
	all, err := os.ReadFile("../../docs/rulings.md")
	if err != nil {
		t.Fatal(err)
	}
	_, doc, ok := strings.Cut(string(all), "\n## The D20 \"strike\" system")
	if !ok {
		t.Fatal("docs/rulings.md has no section for the D20 strike system")
	}
	var src strings.Builder
	for _, glob := range []string{"*_test.go", "table/*_test.go", "battle/*_test.go", "../../data/*_test.go",
		"../../pbem/system/strike/*_test.go", "../../pbem/dice/*_test.go", "../../mapimg/tabletop/*_test.go"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			src.Write(b)
		}
	}
	row := regexp.MustCompile(`(?m)^\| R(\d+) \|`)
	name := regexp.MustCompile("`((?:Test|Fuzz)[A-Za-z0-9_]+)`")
	seen := map[string]bool{}
	lines := strings.Split(doc, "\n")
	rows := 0
	for _, line := range lines {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		rows++
		if len(m[1]) != 3 || m[1] < "500" || m[1] > "589" {
			t.Errorf("R%s is outside R500–R589", m[1])
		}
		if seen[m[1]] {
			t.Errorf("R%s twice", m[1])
		}
		seen[m[1]] = true
		tests := name.FindAllStringSubmatch(line, -1)
		if len(tests) == 0 {
			t.Errorf("R%s names no test", m[1])
		}
		for _, tn := range tests {
			if !strings.Contains(src.String(), "func "+tn[1]+"(") {
				t.Errorf("R%s names %s, which does not exist", m[1], tn[1])
			}
		}
	}
	if rows < 30 {
		t.Errorf("only %d rulings found", rows)
	}
}
