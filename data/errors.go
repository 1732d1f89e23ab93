package data

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Error is one problem found in a data file. Its text is
//
//	file:line: field: what is wrong
//
// so that editors and terminals can jump to the line. Loading collects
// every problem (up to MaxErrors) and returns them joined with errors.Join:
// printing the returned error prints one problem per line, and errors.As
// finds the first *Error.
type Error struct {
	File  string
	Line  int
	Field string // dotted path of the offending field: "units.LB1.hex", "fire.rows[3].foot"
	Msg   string
}

func (e *Error) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, oneLine.Replace(e.Msg))
	}
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, oneLine.Replace(e.Field), oneLine.Replace(e.Msg))
}

// oneLine keeps a problem on its line: a key or value of the file may hold
// line breaks (a quoted YAML key, a flow mapping), which would otherwise
// start a line without its file:line.
var oneLine = strings.NewReplacer("\r\n", `\n`, "\n", `\n`, "\r", `\r`)

// MaxErrors is how many problems one load reports before it gives up
// with a last "too many errors" line.
const MaxErrors = 20

// collector gathers the problems of one file.
type collector struct {
	file string
	list []*Error
}

// maxCollected bounds the memory a hostile file can make the loader use;
// only the first MaxErrors (by line) are reported anyway.
const maxCollected = 1000

func (c *collector) add(line int, field, format string, args ...any) {
	if len(c.list) >= maxCollected {
		return
	}
	c.list = append(c.list, &Error{File: c.file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

func (c *collector) ok() bool { return len(c.list) == 0 }

// err returns the problems sorted by line, at most MaxErrors of them, or
// nil if there are none.
func (c *collector) err() error {
	if len(c.list) == 0 {
		return nil
	}
	list := append([]*Error(nil), c.list...)
	sort.SliceStable(list, func(i, j int) bool { return list[i].Line < list[j].Line })
	var errs []error
	for i, e := range list {
		if i == MaxErrors {
			errs = append(errs, &Error{File: c.file, Line: e.Line, Msg: fmt.Sprintf("too many errors (%d more not shown)", len(list)-MaxErrors)})
			break
		}
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntax turns an error of the YAML parser into an Error of the file.
func (c *collector) syntax(err error) {
	msg := err.Error()
	line := 1
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		if n, e := strconv.Atoi(m[1]); e == nil {
			line = n
		}
		msg = m[2]
	} else if len(msg) > 6 && msg[:6] == "yaml: " {
		msg = msg[6:]
	}
	c.add(line, "yaml", "%s", msg)
}
