package engine_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// sectionMap reads the table under "## <heading>" of docs/orders.md
// ("Section numbers in Infidel games", "Section numbers in Blood & Roses
// games"): each Men of Iron section the engine cites, in the table's
// order, and the volume's section(s) a player should read for it (ruling
// R180).
func sectionMap(t *testing.T, heading string) (order []string, m map[string]string) {
	t.Helper()
	b, err := os.ReadFile("../docs/orders.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "\n## "+heading+"\n")
	if !ok {
		t.Fatalf("docs/orders.md has no \"## %s\"", heading)
	}
	if end := strings.Index(after, "\n## "); end >= 0 {
		after = after[:end]
	}
	m = map[string]string{}
	for _, line := range strings.Split(after, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") || strings.HasPrefix(cells[1], " Men of Iron") || strings.HasPrefix(cells[1], " As cited") {
			continue
		}
		core, vol := strings.TrimSpace(cells[1]), strings.TrimSpace(cells[2])
		if _, dup := m[core]; dup || core == "" || vol == "" {
			t.Errorf("docs/orders.md, %s: section %q twice or empty: %q", heading, core, line)
		}
		m[core] = vol
		order = append(order, core)
	}
	if len(m) == 0 {
		t.Fatalf("docs/orders.md: the table of %q is empty", heading)
	}
	return order, m
}

// citedRules are the rule strings of the engine's non-test sources that
// Herald's replies show: every refusal site (refusalSites), every
// composite literal's Rule field (modifiers, rallies, Leader Casualty
// rolls) and the rule argument of the modifier helpers add(drm, rule, …).
func citedRules(t *testing.T) []string {
	t.Helper()
	sites, err := refusalSites()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range sites {
		out = append(out, s.Rule)
	}
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Rule" {
					if r, ok := stringLit(n.Value); ok {
						out = append(out, r)
					}
				}
			case *ast.CallExpr:
				if fn, ok := n.Fun.(*ast.Ident); ok && fn.Name == "add" && len(n.Args) >= 2 {
					if r, ok := stringLit(n.Args[1]); ok {
						out = append(out, r)
					}
				}
			}
			return true
		})
	}
	return out
}

// checkSectionMap fails for every core section a refusal or a modifier
// line of the engine cites (citedRules) that m, a volume's table, does not
// map. A token that is not a core section ("Infidel 12.2", "B&R 6.3",
// "Blood & Roses 7.1", a ruling, docs/orders.md) needs none; nor does a
// rule string holding one of own, a volume's own number written without
// its name (R180), which makes the whole line that volume's.
func checkSectionMap(t *testing.T, volume string, m map[string]string, own map[string]bool) {
	t.Helper()
	section := regexp.MustCompile(`^(\d+\.\d+)( #\d+[A-Z]?)?$`)
	missing := map[string][]string{}
	for _, rule := range citedRules(t) {
		var tokens []string
		isOwn := false
		for _, tok := range regexp.MustCompile(`[,;]`).Split(rule, -1) {
			tok = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(tok), " PLAY NOTE"))
			isOwn = isOwn || own[tok]
			tokens = append(tokens, tok)
		}
		if isOwn {
			continue
		}
		for _, tok := range tokens {
			switch {
			case strings.HasPrefix(tok, "ExtSoP"):
				tok = "ExtSoP"
			case !section.MatchString(tok):
				continue // "Infidel 12.2", "B&R 6.3", "R116", "docs/orders.md", words
			}
			if _, ok := m[tok]; !ok {
				missing[tok] = append(missing[tok], rule)
			}
		}
	}
	var keys []string
	for k := range missing {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Errorf("the engine cites %s (in %q) but docs/orders.md does not map it to the %s section (R180)", k, missing[k][0], volume)
	}
}

// rulingRow is the row of docs/rulings.md for ruling id ("R180").
func rulingRow(t *testing.T, id string) string {
	t.Helper()
	return rulingRowIn(t, "rulings.md", id)
}

// rulingRowIn is the row for ruling id in the rulings file docs/<file>
// (a branch's own rulings-<branch>.md).
func rulingRowIn(t *testing.T, file, id string) string {
	t.Helper()
	b, err := os.ReadFile("../docs/" + file)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "| "+id+" |") {
			return line
		}
	}
	t.Fatalf("docs/%s has no %s row", file, id)
	return ""
}

// TestInfidelSectionMap holds ruling R180: Herald cites Men of Iron's
// section numbers in every volume, and docs/orders.md maps each of them to
// Infidel's. Every core section a refusal or a modifier line of the engine
// cites must be in that table (a citation of Infidel's own rule, written
// "Infidel 12.2", a ruling, or docs/orders.md needs none), and the R180
// row of docs/rulings.md must give the same mapping.
func TestInfidelSectionMap(t *testing.T) {
	order, m := sectionMap(t, "Section numbers in Infidel games")
	// Rules only Infidel has, cited by Infidel's own number without the
	// name (R180): a rule string holding one of these is Infidel's.
	checkSectionMap(t, "Infidel", m, map[string]bool{"12.3 #4": true, "5.4": true})
	row := rulingRow(t, "R180")
	if !strings.Contains(row, "`TestInfidelSectionMap`") {
		t.Fatalf("docs/rulings.md has no R180 row naming this test: %q", row)
	}
	for _, core := range order {
		pair := core + " → " + m[core]
		if !regexp.MustCompile(`[ ;:]` + regexp.QuoteMeta(pair) + `[;.]`).MatchString(row) {
			t.Errorf("R180 does not give %q as docs/orders.md does", pair)
		}
	}
}

// TestBloodAndRosesSectionMap holds ruling R180 for Blood & Roses: every
// core section a refusal or a modifier line of the engine cites must be in
// the table "Section numbers in Blood & Roses games" of docs/orders.md (a
// citation of B&R's own rule, written "B&R 6.3" or "Blood & Roses 7.1",
// needs none), and the R180 row must name that table and this test.
func TestBloodAndRosesSectionMap(t *testing.T) {
	const heading = "Section numbers in Blood & Roses games"
	_, m := sectionMap(t, heading)
	// Numbers no core section has, so never Men of Iron's: B&R's own
	// Leader Presence and Charisma written without the name (the Charisma
	// line "10.4 #5, 12.3 #4"), which are Infidel's numbers too, and the
	// lines only Infidel shows ("5.3, 12.3 #4", "5.4, 12.3 #4").
	checkSectionMap(t, "Blood & Roses", m, map[string]bool{"12.3 #4": true, "5.4": true})
	row := rulingRow(t, "R180")
	for _, want := range []string{"`TestBloodAndRosesSectionMap`", `"` + heading + `"`} {
		if !strings.Contains(row, want) {
			t.Errorf("the R180 row of docs/rulings.md does not name %s", want)
		}
	}
}

// volumeCitations are the Blood & Roses and Infidel sections that the
// string literals of the engine's non-test sources cite by name ("B&R
// 6.3", "Blood & Roses 13.3 #5d", "Infidel 14.4"), written "B&R 13.3 #5"
// or "Infidel 14.4" (a case's letter dropped), each with a literal citing
// it.
func volumeCitations(t *testing.T) map[string]string {
	t.Helper()
	cite := regexp.MustCompile(`(B&R|Blood & Roses|Infidel) (\d+\.\d+)( #\d+)?`)
	out := map[string]string{}
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			bl, ok := n.(*ast.BasicLit)
			if !ok || bl.Kind != token.STRING {
				return true
			}
			lit, err := strconv.Unquote(bl.Value)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range cite.FindAllStringSubmatch(lit, -1) {
				vol := m[1]
				if vol == "Blood & Roses" {
					vol = "B&R"
				}
				out[vol+" "+m[2]+m[3]] = lit
			}
			return true
		})
	}
	return out
}

// TestArquebusSectionMap holds ruling R444 (docs/rulings.md,
// after R180): in an Arquebus game Herald cites Men of Iron's sections,
// and Blood & Roses' or Infidel's by name for the rules the engine shares
// with them. Every core section a refusal or a modifier line cites must be
// in the table "Section numbers in Arquebus games" of docs/orders.md, and
// every "B&R", "Blood & Roses" or "Infidel" section any string of the
// engine cites in the table "Blood & Roses and Infidel section numbers in
// Arquebus games"; each maps to Arquebus sections or to none.
func TestArquebusSectionMap(t *testing.T) {
	const heading, others = "Section numbers in Arquebus games", "Blood & Roses and Infidel section numbers in Arquebus games"
	_, m := sectionMap(t, heading)
	// As Blood & Roses: "12.3 #4" (Leader Presence) and "5.4" (in the
	// leaders' notes, "5.4, 12.3 #4") are no core sections' numbers.
	checkSectionMap(t, "Arquebus", m, map[string]bool{"12.3 #4": true, "5.4": true})
	_, o := sectionMap(t, others)
	cited := volumeCitations(t)
	var keys []string
	for k := range cited {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := o[k]; !ok {
			t.Errorf("the engine cites %s (in %q) but docs/orders.md, %q, does not map it to Arquebus (R444)", k, cited[k], others)
		}
	}
	// Each mapping is "none" or a list of Arquebus sections.
	sections := regexp.MustCompile(`^(none|\d+\.\d+( #\d+[A-Z]?)?(, \d+\.\d+( #\d+[A-Z]?)?)*)$`)
	for _, tbl := range []map[string]string{m, o} {
		for k, v := range tbl {
			if !sections.MatchString(v) {
				t.Errorf("docs/orders.md maps %s to %q: want Arquebus sections or none", k, v)
			}
		}
	}
	// Where the numbering parts from Blood & Roses': Arquebus has no
	// Unhorsed (B&R 14.3), so Retreat and Retire are 14.3 and 14.4;
	// Charisma is 5.2, Leader Casualties 5.4 and Replacements 5.5; no
	// Height Advantage; the Timed Engagement is 16.1, not Blood & Roses'
	// Ambush.
	for core, want := range map[string]string{"4.2": "6.2", "9.3": "11.3", "10.4 #6": "12.3 #5", "10.4 #2C": "none", "12.3": "14.3", "12.4": "14.4", "12.5": "none",
		"15.3": "12.3 #4, 5.2", "15.4": "5.4", "15.6": "5.5", "16.0": "3.0"} {
		if m[core] != want {
			t.Errorf("docs/orders.md maps %s to %q, want %q (arquebus.md)", core, m[core], want)
		}
	}
	for cite, want := range map[string]string{"B&R 6.3": "6.3", "B&R 7.1": "7.2", "B&R 14.4": "14.3", "B&R 14.5": "14.4", "B&R 16.1": "none", "B&R 16.2": "16.1", "Infidel 14.4": "14.4"} {
		if o[cite] != want {
			t.Errorf("docs/orders.md maps %s to %q, want %q (arquebus.md)", cite, o[cite], want)
		}
	}
	row := rulingRowIn(t, "rulings.md", "R444")
	for _, want := range []string{"`TestArquebusSectionMap`", `"` + heading + `"`, `"` + others + `"`} {
		if !strings.Contains(row, want) {
			t.Errorf("the R444 row of docs/rulings.md does not name %s", want)
		}
	}
}
