package data

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"herald/engine"
)

// The loaders walk yaml.Node trees rather than decoding into structs, so
// that every problem carries the line it comes from and unknown or
// repeated keys are reported instead of silently ignored.

// parser reads one file.
type parser struct {
	*collector
	typeLines map[string]int // line of each unit type, for cross-checks
	// disorderLine is the line of a Terrain Chart "D" (disorder:), 0 if
	// none; terrainDisorderMax: movement.terrain_disorder_max was given.
	disorderLine       int
	terrainDisorderMax bool
}

// root parses b and returns the top-level node, or nil after recording
// why not.
func (p *parser) root(b []byte) (n *yaml.Node) {
	defer func() {
		// yaml.v3 recovers its own panics; this is a last line of defence
		// so that no input can crash the caller.
		if r := recover(); r != nil {
			p.add(1, "yaml", "cannot parse: %v", r)
			n = nil
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		p.syntax(err)
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		p.add(1, "", "the file is empty")
		return nil
	}
	return doc.Content[0]
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

// kind names a node kind for messages.
func kind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Value == "" {
			return "empty"
		}
		return fmt.Sprintf("%q", n.Value)
	case yaml.AliasNode:
		return "an alias"
	}
	return "nothing"
}

// plain rejects aliases (which could also build cycles) and reports
// whether n is of the wanted kind.
func (p *parser) is(n *yaml.Node, path string, want yaml.Kind, what string) bool {
	if n.Kind == yaml.AliasNode {
		p.add(n.Line, path, "anchors and aliases (*name) are not supported; write the value out")
		return false
	}
	if n.Kind != want {
		p.add(n.Line, path, "must be %s, not %s", what, kind(n))
		return false
	}
	return true
}

// pair is one key and value of a mapping.
type pair struct {
	key  string
	k, v *yaml.Node
}

// pairs returns the entries of a mapping in file order, reporting
// repeated keys (and dropping the repeats).
func (p *parser) pairs(n *yaml.Node, path string) []pair {
	if !p.is(n, path, yaml.MappingNode, "a mapping (key: value lines)") {
		return nil
	}
	seen := map[string]int{}
	var out []pair
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !p.is(k, path, yaml.ScalarNode, "a plain key") {
			continue
		}
		if line, dup := seen[k.Value]; dup {
			p.add(k.Line, join(path, k.Value), "repeated key (first given on line %d)", line)
			continue
		}
		seen[k.Value] = k.Line
		out = append(out, pair{key: k.Value, k: k, v: v})
	}
	return out
}

// object is a mapping with a fixed set of known keys, like a struct.
type object struct {
	p    *parser
	path string
	n    *yaml.Node
	m    map[string]pair
	bad  bool // not a mapping (already reported): report nothing missing
}

// object reads a mapping whose keys must be among known.
func (p *parser) object(n *yaml.Node, path string, known ...string) *object {
	o := &object{p: p, path: path, n: n, m: map[string]pair{}, bad: n.Kind != yaml.MappingNode}
	for _, kv := range p.pairs(n, path) {
		if !contains(known, kv.key) {
			p.add(kv.k.Line, join(path, kv.key), "%s", unknown("field", kv.key, known))
			continue
		}
		o.m[kv.key] = kv
	}
	return o
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (o *object) has(key string) bool { _, ok := o.m[key]; return ok }

// node returns the value of key, or nil; if required, its absence is an
// error.
func (o *object) node(key string, required bool) *yaml.Node {
	if kv, ok := o.m[key]; ok {
		return kv.v
	}
	if required && !o.bad {
		o.p.add(o.n.Line, join(o.path, key), "missing")
	}
	return nil
}

func (o *object) line(key string) int {
	if kv, ok := o.m[key]; ok {
		return kv.v.Line
	}
	return o.n.Line
}

func (o *object) str(key string, required bool) string {
	n := o.node(key, required)
	if n == nil {
		return ""
	}
	s, _ := o.p.scalar(n, join(o.path, key))
	if s == "" && required && n.Kind == yaml.ScalarNode {
		o.p.add(n.Line, join(o.path, key), "must not be empty")
	}
	return s
}

func (o *object) int(key string, required bool) int {
	n := o.node(key, required)
	if n == nil {
		return 0
	}
	v, _ := o.p.integer(n, join(o.path, key))
	return v
}

func (o *object) bool(key string) bool {
	n := o.node(key, false)
	if n == nil {
		return false
	}
	v, _ := o.p.boolean(n, join(o.path, key))
	return v
}

// scalar returns the text of a scalar node.
func (p *parser) scalar(n *yaml.Node, path string) (string, bool) {
	if !p.is(n, path, yaml.ScalarNode, "a single value") {
		return "", false
	}
	return strings.TrimSpace(n.Value), true
}

// atoi reads a whole number with an optional sign, as the charts print
// DRMs ("+2", "-1", "−1").
func atoi(s string) (int, bool) {
	s = strings.TrimSpace(strings.ReplaceAll(s, "−", "-"))
	if s == "" || len(s) > 9 {
		return 0, false
	}
	v, err := strconv.Atoi(s)
	return v, err == nil
}

func (p *parser) integer(n *yaml.Node, path string) (int, bool) {
	s, ok := p.scalar(n, path)
	if !ok {
		return 0, false
	}
	v, ok := atoi(s)
	if !ok {
		p.add(n.Line, path, "%q is not a whole number", s)
	}
	return v, ok
}

func (p *parser) boolean(n *yaml.Node, path string) (bool, bool) {
	s, ok := p.scalar(n, path)
	if !ok {
		return false, false
	}
	switch strings.ToLower(s) {
	case "true", "yes":
		return true, true
	case "false", "no":
		return false, true
	}
	p.add(n.Line, path, "%q is not true or false", s)
	return false, false
}

// cost reads a Terrain Effects Chart cell: a number of Movement Points
// or NA.
func (p *parser) cost(n *yaml.Node, path string) (engine.Cost, bool) {
	s, ok := p.scalar(n, path)
	if !ok {
		return 0, false
	}
	if strings.EqualFold(s, "NA") {
		return engine.NA, true
	}
	// "NE" is No Effect (Blood & Roses 7.1): nothing to pay.
	if strings.EqualFold(s, "NE") {
		return 0, true
	}
	v, ok := atoi(s)
	if !ok || v < 0 {
		p.add(n.Line, path, "%q is not a cost: write a number of Movement Points, 0 or more, NA (Not Allowed) or NE (No Effect)", s)
		return 0, false
	}
	return engine.Cost(v), true
}

// list returns the items of a list, or the node itself if it is a single
// scalar (so "woods: 0203" and "woods: [0203, 0204]" both work).
func (p *parser) list(n *yaml.Node, path string) []*yaml.Node {
	switch n.Kind {
	case yaml.SequenceNode:
		return n.Content
	case yaml.ScalarNode:
		if n.Value == "" {
			return nil
		}
		return []*yaml.Node{n}
	}
	p.is(n, path, yaml.SequenceNode, "a value or a list of values")
	return nil
}

var idPattern = regexp.MustCompile(`^[\p{L}\p{N}][\p{L}\p{N}_'-]*$`)

// id checks a name used in orders and references: letters, digits, "_",
// "-", "'"; no spaces.
func (p *parser) id(s string, line int, path string) bool {
	if len(s) > 40 || !idPattern.MatchString(s) {
		p.add(line, path, "%q is not a valid id: use letters, digits, - or _ (no spaces), at most 40", s)
		return false
	}
	return true
}

// peek returns the scalar value of key in a mapping, without checks.
func peek(n *yaml.Node, key string) string {
	if n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key && n.Content[i+1].Kind == yaml.ScalarNode {
			return strings.TrimSpace(n.Content[i+1].Value)
		}
	}
	return ""
}

// missileDRM reads a counter side's printed Missile Fire DRM (Arquebus
// 11.1): a whole number, or `none` for a side that prints none and may not
// fire. Absent, it is not Printed.
func (o *object) missileDRM(key string) engine.MissileDRM {
	n := o.node(key, false)
	if n == nil {
		return engine.MissileDRM{}
	}
	path := join(o.path, key)
	s, ok := o.p.scalar(n, path)
	if !ok {
		return engine.MissileDRM{}
	}
	if strings.EqualFold(s, "none") {
		return engine.MissileDRM{Printed: true, None: true}
	}
	v, ok := atoi(s)
	if !ok {
		o.p.add(n.Line, path, "%q: a Missile Fire DRM is a whole number, or none for a side that may not fire (Arquebus 11.1)", s)
		return engine.MissileDRM{}
	}
	return engine.MissileDRM{Printed: true, DRM: v}
}
