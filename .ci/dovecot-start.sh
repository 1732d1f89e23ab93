#!/usr/bin/env bash
# dovecot-start.sh ROOT PORT USER PASS
#
# Starts a throw-away dovecot IMAP server for Herald's mailbox tests:
# 127.0.0.1:PORT, no TLS, one user USER with password PASS, Maildir storage,
# every file (config, mail, logs, sockets) under ROOT. Nothing in /etc is
# touched. Installs dovecot-imapd with apt when `dovecot` is not on PATH
# (root only). Writes the master PID to ROOT/dovecot.pid; stop it with
# dovecot-stop.sh ROOT.
#
# Then: HERALD_TEST_DOVECOT=1 HERALD_DOVECOT_ADDR=127.0.0.1:PORT \
#       HERALD_DOVECOT_USER=USER HERALD_DOVECOT_PASS=PASS go test ./pbem/mailbox/
set -euo pipefail

if [ $# -ne 4 ]; then
	echo "usage: $0 ROOT PORT USER PASS" >&2
	exit 2
fi
ROOT=$1 PORT=$2 USER_NAME=$3 PASS=$4
export PATH="$PATH:/usr/sbin:/sbin"

die() {
	echo "dovecot-start: $*" >&2
	exit 1
}

case $PORT in '' | *[!0-9]*) die "PORT must be a number, got '$PORT'" ;; esac
case $USER_NAME in '' | *[:\ ]*) die "USER must be non-empty without ':' or spaces" ;; esac
case $PASS in *:* | *$'\n'*) die "PASS must not contain ':' or a newline" ;; esac

if ! command -v dovecot >/dev/null 2>&1; then
	[ "$(id -u)" -eq 0 ] || die "dovecot is not installed and only root can install it (apt-get install dovecot-imapd)"
	echo "dovecot-start: installing dovecot-imapd" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# Postinst tries to start the system service; policy-rc.d may deny
	# that, which is fine: we run our own instance.
	apt-get install -y -qq --no-install-recommends dovecot-imapd >/dev/null
	command -v dovecot >/dev/null 2>&1 || die "dovecot still not found after installing dovecot-imapd"
fi
getent passwd dovecot >/dev/null || die "system user 'dovecot' missing (is dovecot-core installed?)"
MAIL_UID=$(id -u dovecot)

mkdir -p "$ROOT"
ROOT=$(cd "$ROOT" && pwd)
if [ -s "$ROOT/dovecot.pid" ] && kill -0 "$(cat "$ROOT/dovecot.pid")" 2>/dev/null; then
	die "already running with PID $(cat "$ROOT/dovecot.pid") (stop it with dovecot-stop.sh $ROOT)"
fi
if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
	die "127.0.0.1:$PORT is already in use"
fi

# Mail is owned by the 'dovecot' user, so it must be able to reach ROOT.
chmod 0755 "$ROOT"
d=$(dirname "$ROOT")
while [ "$d" != / ]; do
	case $(stat -c %A "$d") in
	?????????[xt]) ;;
	*) die "the dovecot user cannot enter $d (needs o+x); choose a ROOT elsewhere" ;;
	esac
	d=$(dirname "$d")
done

mkdir -p "$ROOT/mail" "$ROOT/run" "$ROOT/state"
chown dovecot:dovecot "$ROOT/mail"
printf '%s:{PLAIN}%s::::::\n' "$USER_NAME" "$PASS" >"$ROOT/users"
chown root:dovecot "$ROOT/users" 2>/dev/null || true
chmod 0640 "$ROOT/users"

cat >"$ROOT/dovecot.conf" <<CONF
# Throw-away test instance written by .ci/dovecot-start.sh; not for production.
protocols = imap
listen = 127.0.0.1
base_dir = $ROOT/run
state_dir = $ROOT/state
log_path = $ROOT/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = $MAIL_UID
mail_location = maildir:$ROOT/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $ROOT/users
}
userdb {
  driver = static
  args = uid=dovecot gid=dovecot home=$ROOT/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $PORT
  }
  inet_listener imaps {
    port = 0
  }
}
namespace inbox {
  inbox = yes
  separator = /
  mailbox Processed {
    auto = create
  }
  mailbox Rejected {
    auto = create
  }
}
CONF

rm -f "$ROOT/run/master.pid"
# Without -F dovecot daemonizes and closes stdio, so callers that capture
# our output do not hang on it.
dovecot -c "$ROOT/dovecot.conf" || {
	tail -n 20 "$ROOT/dovecot.log" >&2 2>/dev/null || true
	die "dovecot failed to start"
}

for _ in $(seq 1 100); do
	if [ -s "$ROOT/run/master.pid" ] && (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
		break
	fi
	sleep 0.1
done
PID=$(cat "$ROOT/run/master.pid" 2>/dev/null || true)
if [ -z "$PID" ] || ! kill -0 "$PID" 2>/dev/null; then
	tail -n 20 "$ROOT/dovecot.log" >&2 2>/dev/null || true
	die "dovecot is not running"
fi
(exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null || die "dovecot (PID $PID) does not answer on 127.0.0.1:$PORT; see $ROOT/dovecot.log"
echo "$PID" >"$ROOT/dovecot.pid"
echo "dovecot-start: PID $PID on 127.0.0.1:$PORT, user $USER_NAME, root $ROOT"
