package pbem

import (
	"strings"

	"github.com/emersion/go-message/mail"
)

// LoopHeader marks Herald's own mail. Mail carrying it is never answered,
// so that two Heralds, or Herald and any robot, cannot answer each other
// forever.
const LoopHeader = "X-Herald-Loop"

// robot says why a mail must not be answered (RFC 3834 and the habits of
// mail robots), or "" for a person's mail.
func robot(h mail.Header, from string, self []string) string {
	if v := strings.ToLower(strings.TrimSpace(h.Get("Auto-Submitted"))); v != "" && v != "no" {
		return "Auto-Submitted: " + v
	}
	switch p := strings.ToLower(strings.TrimSpace(h.Get("Precedence"))); p {
	case "bulk", "junk", "list", "auto_reply":
		return "Precedence: " + p
	}
	if h.Get(LoopHeader) != "" {
		return "carries " + LoopHeader
	}
	for _, k := range []string{"X-Autoreply", "X-Autorespond", "X-Auto-Reply"} {
		if h.Get(k) != "" {
			return k
		}
	}
	if h.Get("List-Id") != "" || h.Get("List-Unsubscribe") != "" {
		return "mailing list"
	}
	if t, _, _ := h.ContentType(); t == "multipart/report" {
		return "delivery report"
	}
	if rp := strings.TrimSpace(h.Get("Return-Path")); rp == "<>" {
		return "null return path"
	} else if isDaemon(rp) {
		return "bounce from " + rp
	}
	if from == "" {
		return ""
	}
	if isDaemon(from) {
		return "bounce from " + from
	}
	for _, s := range self {
		if sameMailbox(from, s) {
			return "from Herald itself"
		}
	}
	return ""
}

// isDaemon: the senders of bounces.
func isDaemon(addr string) bool {
	local, _, _ := strings.Cut(strings.ToLower(strings.Trim(addr, "<> ")), "@")
	return local == "mailer-daemon" || local == "postmaster"
}
