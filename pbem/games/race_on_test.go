//go:build race

package games

// raceBuild: the tests run under the race detector, several times slower;
// tests that play hundreds of mails leave it to a plain run (.ci/run).
const raceBuild = true
