package engine_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// infidelSectionMap reads the table "Section numbers in Infidel games" of
// docs/orders.md: each Men of Iron section the engine cites, and the
// Infidel section(s) a player should read for it (ruling R180).
func infidelSectionMap(t *testing.T) (order []string, m map[string]string) {
	t.Helper()
	b, err := os.ReadFile("../docs/orders.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "\n## Section numbers in Infidel games\n")
	if !ok {
		t.Fatal(`docs/orders.md has no "## Section numbers in Infidel games"`)
	}
	if end := strings.Index(after, "\n## "); end >= 0 {
		after = after[:end]
	}
	m = map[string]string{}
	for _, line := range strings.Split(after, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") || strings.HasPrefix(cells[1], " Men of Iron") {
			continue
		}
		core, inf := strings.TrimSpace(cells[1]), strings.TrimSpace(cells[2])
		if _, dup := m[core]; dup || core == "" || inf == "" {
			t.Errorf("docs/orders.md: section %q twice or empty: %q", core, line)
		}
		m[core] = inf
		order = append(order, core)
	}
	if len(m) == 0 {
		t.Fatal("docs/orders.md: the section table is empty")
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

// TestInfidelSectionMap holds ruling R180: Herald cites Men of Iron's
// section numbers in every volume, and docs/orders.md maps each of them to
// Infidel's. Every core section a refusal or a modifier line of the engine
// cites must be in that table (a citation of Infidel's own rule, written
// "Infidel 12.2", a ruling, or docs/orders.md needs none), and the R180
// row of docs/rulings.md must give the same mapping.
func TestInfidelSectionMap(t *testing.T) {
	order, m := infidelSectionMap(t)
	section := regexp.MustCompile(`^(\d+\.\d+)( #\d+[A-Z]?)?$`)
	// Rules only Infidel has, cited by Infidel's own number without the
	// name (R180): a rule string holding one of these is Infidel's.
	infidelOwn := map[string]bool{"12.3 #4": true, "5.4": true}
	missing := map[string][]string{}
	for _, rule := range citedRules(t) {
		var tokens []string
		own := false
		for _, tok := range regexp.MustCompile(`[,;]`).Split(rule, -1) {
			tok = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(tok), " PLAY NOTE"))
			own = own || infidelOwn[tok]
			tokens = append(tokens, tok)
		}
		if own {
			continue
		}
		for _, tok := range tokens {
			switch {
			case strings.HasPrefix(tok, "ExtSoP"):
				tok = "ExtSoP"
			case !section.MatchString(tok):
				continue // "Infidel 12.2", "R116", "docs/orders.md", words
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
		t.Errorf("the engine cites %s (in %q) but docs/orders.md does not map it to Infidel's section (R180)", k, missing[k][0])
	}
	b, err := os.ReadFile("../docs/rulings.md")
	if err != nil {
		t.Fatal(err)
	}
	var row string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "| R180 |") {
			row = line
		}
	}
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
