package mapimg

import (
	"syscall"
	"testing"
	"time"
)

// processCPU is the CPU time the process has used so far, user and
// system, on every thread.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports, as cpu-ns/op, the CPU of every thread since c0
// (taken after the set-up) per operation: a map's work runs on two
// cores, so its wall time tells less of its cost on a shared machine.
func reportCPU(b *testing.B, c0 time.Duration) {
	b.ReportMetric(float64((processCPU()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
