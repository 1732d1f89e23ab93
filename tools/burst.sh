#!/bin/sh
# The real herald binary on a burst of order mails (issue 17): builds
# herald and tools/burst, prepares GAMES games once in WORK (kept between
# runs), then runs the burst RUNS times with maps off and RUNS times with
# maps on, each against a mail server in a process of its own (tools/burst)
# and `herald serve --config` in another. Each run prints mails/s.
#
#   tools/burst.sh [RUNS [GAMES [WORK]]]      # default 3 2000 /tmp/herald-burst
set -eu
runs=${1:-3}
games=${2:-2000}
work=${3:-/tmp/herald-burst}
cd "$(dirname "$0")/.."
mkdir -p "$work"
go build -o "$work/herald" ./cmd/herald
go build -o "$work/burst" ./tools/burst
for maps in false true; do
	i=1
	while [ "$i" -le "$runs" ]; do
		"$work/burst" -herald "$work/herald" -work "$work" -games "$games" -maps="$maps"
		i=$((i + 1))
	done
done
