package data

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"sync"

	"herald/engine"
)

//go:embed tables/*.yaml scenarios/*.yaml
var files embed.FS

// prefix is how messages name embedded files: by their path in the
// repository, so that a reader can open them.
const prefix = "data/"

// embedded holds the parsed embedded data. It is built once, on first use,
// and shared by every caller.
type embedded struct {
	tables    map[string]*engine.Tables // by volume
	tablesErr map[string]error
	scenarios map[string]*engine.Scenario // by id (file name)
	scenErr   map[string]error
	ids       []string // scenario ids, sorted
	volumes   []string // table volumes, sorted
	errs      []error  // every problem, in file order
}

var load = sync.OnceValue(func() *embedded {
	e := &embedded{
		tables:    map[string]*engine.Tables{},
		tablesErr: map[string]error{},
		scenarios: map[string]*engine.Scenario{},
		scenErr:   map[string]error{},
	}
	tfiles, _ := fs.Glob(files, "tables/*.yaml")
	sort.Strings(tfiles)
	for _, f := range tfiles {
		vol := strings.TrimSuffix(path.Base(f), ".yaml")
		b, _ := files.ReadFile(f)
		t, err := ParseTables(prefix+f, b)
		if err == nil && t.Volume != vol {
			err = &Error{File: prefix + f, Line: 1, Field: "volume", Msg: fmt.Sprintf("%q: the tables of volume %s must be in tables/%s.yaml", t.Volume, t.Volume, t.Volume)}
		}
		e.volumes = append(e.volumes, vol)
		if err != nil {
			e.tablesErr[vol] = err
			e.errs = append(e.errs, err)
			continue
		}
		e.tables[vol] = t
	}
	sfiles, _ := fs.Glob(files, "scenarios/*.yaml")
	sort.Strings(sfiles)
	src := source{
		tables: e.volume,
		override: func(rel string) (*engine.Tables, error) {
			name := path.Join("scenarios", rel)
			b, err := files.ReadFile(name)
			if err != nil {
				return nil, err
			}
			return ParseTables(prefix+name, b)
		},
	}
	for _, f := range sfiles {
		id := strings.TrimSuffix(path.Base(f), ".yaml")
		e.ids = append(e.ids, id)
		b, _ := files.ReadFile(f)
		sc, err := parseScenario(prefix+f, b, src)
		if err == nil && sc.ID != id {
			err = &Error{File: prefix + f, Line: 1, Field: "id", Msg: fmt.Sprintf("%q: the battle in scenarios/%s.yaml must have id %s", sc.ID, id, id)}
		}
		if err != nil {
			e.scenErr[id] = err
			e.errs = append(e.errs, err)
			continue
		}
		e.scenarios[id] = sc
	}
	return e
})

func (e *embedded) volume(v string) (*engine.Tables, error) {
	if err, ok := e.tablesErr[v]; ok {
		return nil, err
	}
	if t, ok := e.tables[v]; ok {
		return t, nil
	}
	return nil, fmt.Errorf("no tables for volume %q (Herald has: %s)", v, strings.Join(e.volumes, ", "))
}

// Tables returns the embedded tables of a series volume ("moi"). They are
// parsed once and shared: callers must not modify them.
func Tables(volume string) (*engine.Tables, error) {
	t, err := load().volume(volume)
	if err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	return t, nil
}

// Scenario returns a battle: an embedded one by its id ("crecy"), or, if
// id ends in ".yaml", the battle in that file, read from disk and parsed
// afresh. Embedded battles are parsed once and shared with every caller:
// they, their Tables and their maps must not be modified.
func Scenario(id string) (*engine.Scenario, error) {
	if strings.HasSuffix(id, ".yaml") {
		b, err := os.ReadFile(id)
		if err != nil {
			return nil, fmt.Errorf("data: load scenario: %w", err)
		}
		return ParseScenario(id, b)
	}
	e := load()
	if sc, ok := e.scenarios[id]; ok {
		return sc, nil
	}
	if err, ok := e.scenErr[id]; ok {
		return nil, err
	}
	return nil, fmt.Errorf("data: no battle %q%s (Herald has: %s; or give a FILE.yaml)", id, suggest(id, e.ids), strings.Join(e.ids, ", "))
}

// Scenarios returns the ids of the embedded battles, sorted.
func Scenarios() []string {
	return append([]string(nil), load().ids...)
}

// Volumes returns the volumes that have embedded tables, sorted.
func Volumes() []string {
	return append([]string(nil), load().volumes...)
}

// Check validates every embedded tables file and battle and returns all
// their problems joined, one per line, or nil.
func Check() error {
	// A battle's error repeats the errors of broken tables it uses: report
	// each problem once.
	var out []error
	seen := map[string]bool{}
	for _, err := range load().errs {
		for _, leaf := range leaves(err) {
			if !seen[leaf.Error()] {
				seen[leaf.Error()] = true
				out = append(out, leaf)
			}
		}
	}
	return errors.Join(out...)
}

// leaves flattens joined errors.
func leaves(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, leaves(e)...)
		}
		return out
	}
	return []error{err}
}
