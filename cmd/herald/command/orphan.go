package command

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// go run starts the program as its child and dies on SIGTERM without
// passing the signal on (it only relays SIGINT and SIGQUIT, which a
// terminal sends to the whole process group anyway): herald serve would
// go on holding its ports with nobody to stop it. Started by go run, it
// therefore watches its parent and stops when the parent is gone.

// underGoRun reports whether this binary is one go run built: it lives in
// the go command's temporary build directory.
func underGoRun() bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	return strings.Contains(filepath.ToSlash(exe), "/go-build")
}

// orphanContext is ctx, cancelled as well when getppid, asked at each
// tick, no longer returns the parent it returned at first: the process
// was orphaned and adopted by another.
func orphanContext(ctx context.Context, getppid func() int, tick <-chan time.Time) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	parent := getppid()
	go func() {
		defer cancel()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick:
				if getppid() != parent {
					return
				}
			}
		}
	}()
	return ctx
}
