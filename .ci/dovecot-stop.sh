#!/usr/bin/env bash
# dovecot-stop.sh ROOT
#
# Stops the dovecot started by dovecot-start.sh ROOT and waits until the
# process has exited, so that a new instance can take the port at once.
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 ROOT" >&2
	exit 2
fi
ROOT=$1
PIDFILE="$ROOT/dovecot.pid"
if [ ! -s "$PIDFILE" ]; then
	echo "dovecot-stop: no $PIDFILE; nothing to stop" >&2
	exit 0
fi
PID=$(cat "$PIDFILE")
case $PID in '' | *[!0-9]*)
	echo "dovecot-stop: bad PID '$PID' in $PIDFILE" >&2
	exit 1
	;;
esac
if ! kill -0 "$PID" 2>/dev/null; then
	echo "dovecot-stop: PID $PID is not running" >&2
	rm -f "$PIDFILE"
	exit 0
fi
# Make sure the PID is still our dovecot, not a recycled number.
if ! tr '\0' ' ' <"/proc/$PID/cmdline" 2>/dev/null | grep -q "dovecot.*$ROOT/dovecot.conf"; then
	echo "dovecot-stop: PID $PID is not the dovecot of $ROOT; not killing it" >&2
	exit 1
fi

kill -TERM "$PID"
for _ in $(seq 1 100); do
	kill -0 "$PID" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$PID" 2>/dev/null; then
	echo "dovecot-stop: PID $PID still alive after 10 s; sending SIGKILL" >&2
	kill -KILL "$PID" 2>/dev/null || true
	for _ in $(seq 1 50); do
		kill -0 "$PID" 2>/dev/null || break
		sleep 0.1
	done
fi
rm -f "$PIDFILE"
echo "dovecot-stop: stopped PID $PID"
