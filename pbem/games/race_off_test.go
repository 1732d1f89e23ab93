//go:build !race

package games

// raceBuild: see race_on_test.go.
const raceBuild = false
