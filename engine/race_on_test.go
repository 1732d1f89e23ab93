//go:build race

package engine_test

// raceBuild: the tests run under the race detector, some ten times
// slower; tests that compare whole random games leave it to a plain run.
const raceBuild = true
