//go:build race

package mapimg

// raceBuild: the tests run under the race detector, some ten times
// slower; tests that play whole battles leave it to a plain run.
const raceBuild = true
