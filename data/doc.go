// Package data holds Herald's numbers: the tables of each series volume
// and the battles, as YAML files embedded in the binary, and the loader
// that turns them into engine.Tables and engine.Scenario.
//
// The tables under tables/ are Herald's own house tables, not the
// publisher's printed charts: they agree with every value the rule books'
// worked examples reveal (each such value carries a comment citing its
// example) and are otherwise Herald's invention. A player who owns the
// printed game may replace them by editing the data; docs/data-format.md
// describes every field.
//
// Loading validates everything and reports each problem as
//
//	file:line: field: what is wrong
//
// (type Error), collecting up to MaxErrors problems per file, so that a
// hand-edited file can be fixed in one pass. `herald check` runs Check.
//
// Embedded data is parsed once, on first use, and shared: the
// *engine.Tables and *engine.Scenario values returned by Tables and
// Scenario must be treated as read-only. Scenario with a FILE.yaml path and
// the Parse functions return fresh values the caller owns.
package data
