//go:build !race

package mapimg

// raceBuild: see race_on_test.go.
const raceBuild = false
