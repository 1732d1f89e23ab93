package engine_test

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// refusalSite is one place in the engine's source that refuses an order
// with a rule section written out: g.illegal(o, "9.1", …), refuseFire,
// moveErr, declError, a moveError literal, chargeRefusal's returns, and
// the IllegalOrderError literals. Key is "file: rule: reason", the reason
// being the format string when it is a literal, else the expression.
type refusalSite struct {
	File, Rule, Reason string
	Literal            bool // Reason is a format string
}

func (s refusalSite) Key() string { return s.File + ": " + s.Rule + ": " + s.Reason }

// pattern matches the reasons the site's format can produce.
func (s refusalSite) pattern() *regexp.Regexp {
	if !s.Literal {
		return regexp.MustCompile(".*")
	}
	parts := regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]`).Split(s.Reason, -1)
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	return regexp.MustCompile(strings.Join(parts, "(?s:.*?)"))
}

// refusalSites parses the engine's non-test sources.
func refusalSites() ([]refusalSite, error) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	var out []refusalSite
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			return nil, err
		}
		src := func(e ast.Expr) string {
			var b strings.Builder
			printExpr(&b, e)
			return b.String()
		}
		add := func(rule ast.Expr, reason ast.Expr) {
			r, ok := stringLit(rule)
			if !ok {
				return // a rule passed through from another site
			}
			s := refusalSite{File: f, Rule: r}
			if call, ok := reason.(*ast.CallExpr); ok && src(call.Fun) == "fmt.Sprintf" {
				reason = call.Args[0]
			}
			if format, ok := concatFormat(reason); ok {
				s.Reason, s.Literal = format, true
			} else {
				s.Reason = src(reason)
			}
			out = append(out, s)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				switch name := src(n.Fun); {
				case name == "g.illegal" && len(n.Args) == 3, name == "declError" && len(n.Args) == 3:
					add(n.Args[1], n.Args[2])
				case name == "refuseFire" || name == "moveErr":
					add(n.Args[0], n.Args[1])
				}
			case *ast.CompositeLit:
				var rule, reason ast.Expr
				for _, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						switch src(kv.Key) {
						case "rule", "Rule":
							rule = kv.Value
						case "reason", "Reason":
							reason = kv.Value
						}
					}
				}
				if typ := src(n.Type); (typ == "moveError" || typ == "IllegalOrderError") && rule != nil {
					if reason == nil {
						reason = &ast.Ident{Name: "(set below)"}
					}
					add(rule, reason)
				}
			case *ast.ReturnStmt:
				if len(n.Results) == 2 {
					if r, ok := stringLit(n.Results[0]); ok && regexp.MustCompile(`^\d+\.\d+$`).MatchString(r) {
						add(n.Results[0], n.Results[1])
					}
				}
			case *ast.BlockStmt:
				// e.Rule = "4.3" followed by e.Reason = … (notYours).
				for k, st := range n.List {
					a, ok := st.(*ast.AssignStmt)
					if !ok || len(a.Lhs) != 1 || src(a.Lhs[0]) != "e.Rule" || k+1 >= len(n.List) {
						continue
					}
					if b, ok := n.List[k+1].(*ast.AssignStmt); ok && len(b.Lhs) == 1 && src(b.Lhs[0]) == "e.Reason" {
						add(a.Rhs[0], b.Rhs[0])
					}
				}
			}
			return true
		})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Key() < out[b].Key() })
	return out, nil
}

// concatFormat turns a string literal, or a sum of string literals and
// other expressions ("x" + Waiting(…), spec.ID + " has fired"), into a
// format whose other expressions are %s; ok is false when the expression
// holds no literal at all.
func concatFormat(e ast.Expr) (format string, ok bool) {
	if b, isSum := e.(*ast.BinaryExpr); isSum && b.Op == token.ADD {
		l, lok := concatFormat(b.X)
		r, rok := concatFormat(b.Y)
		if !lok {
			l = "%s"
		}
		if !rok {
			r = "%s"
		}
		return l + r, lok || rok
	}
	return stringLit(e)
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// printExpr writes the few expression forms the sites use.
func printExpr(b *strings.Builder, e ast.Expr) {
	switch e := e.(type) {
	case *ast.Ident:
		b.WriteString(e.Name)
	case *ast.SelectorExpr:
		printExpr(b, e.X)
		b.WriteString("." + e.Sel.Name)
	case *ast.BasicLit:
		b.WriteString(e.Value)
	case *ast.CallExpr:
		printExpr(b, e.Fun)
		b.WriteString("(…)")
	case *ast.BinaryExpr:
		printExpr(b, e.X)
		b.WriteString(" " + e.Op.String() + " ")
		printExpr(b, e.Y)
	case *ast.StarExpr:
		printExpr(b, e.X)
	default:
		b.WriteString("…")
	}
}

// checkedRefusals are the refusals whose section a test asserted: its
// rule and reason.
var checkedRefusals struct {
	sync.Mutex
	seen [][2]string
}

// checked records a refusal whose rule section a test has just asserted.
func checked(rule, reason string) {
	checkedRefusals.Lock()
	defer checkedRefusals.Unlock()
	checkedRefusals.seen = append(checkedRefusals.seen, [2]string{rule, reason})
}

// TestMain runs the tests, then, when all of them ran, checks that every
// refusal site of the engine had its rule section asserted by some test
// (g.refuse, wantFire, or TestRefusalSections' table): a refusal added
// with no test, or citing another section than its test expects, fails.
func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if code == 0 && flag.Lookup("test.run").Value.String() == "" {
		if missing := uncheckedSites(); len(missing) > 0 {
			fmt.Fprintf(os.Stderr, "FAIL: %d refusal sites whose rule section no test asserts:\n  %s\n", len(missing), strings.Join(missing, "\n  "))
			code = 1
		}
	}
	os.Exit(code)
}

func uncheckedSites() []string {
	sites, err := refusalSites()
	if err != nil {
		return []string{err.Error()}
	}
	var missing []string
	for _, s := range sites {
		re, ok := s.pattern(), false
		for _, c := range checkedRefusals.seen {
			if c[0] == s.Rule && re.MatchString(c[1]) {
				ok = true
				break
			}
		}
		if !ok {
			missing = append(missing, s.Key())
		}
	}
	return missing
}
