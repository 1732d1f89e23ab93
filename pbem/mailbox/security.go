package mailbox

import (
	"crypto/tls"
	"fmt"
	"net"
	"strings"
)

// Security is how a client protects its connection to a mail server.
type Security string

const (
	// SecurityTLS is implicit TLS from the first byte (IMAPS on 993,
	// SMTPS/submissions on 465).
	SecurityTLS Security = "tls"
	// SecurityStartTLS connects in clear text and upgrades with STARTTLS
	// before authenticating (IMAP on 143, submission on 587). The upgrade is
	// mandatory: a server that does not offer it is an error.
	SecurityStartTLS Security = "starttls"
	// SecurityPlain never encrypts. It is accepted only for loopback
	// addresses unless the configuration sets AllowPlaintext.
	SecurityPlain Security = "plain"
)

// parseSecurity checks s and the address it will be used with. An empty
// Security means SecurityTLS, except on loopback, where it means
// SecurityPlain (the embedded server speaks no TLS).
func parseSecurity(what string, s Security, addr string, allowPlain bool) (Security, string, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", "", fmt.Errorf("mailbox: %s address %q: %w", what, addr, err)
	}
	if s == "" {
		if isLoopback(host) {
			s = SecurityPlain
		} else {
			s = SecurityTLS
		}
	}
	switch s {
	case SecurityTLS, SecurityStartTLS:
	case SecurityPlain:
		if !isLoopback(host) && !allowPlain {
			return "", "", fmt.Errorf("mailbox: %s: plaintext connection to %q refused (credentials would travel in clear): use security %q or %q, or set AllowPlaintext",
				what, addr, SecurityTLS, SecurityStartTLS)
		}
	default:
		return "", "", fmt.Errorf("mailbox: %s: unknown security %q (want %q, %q or %q)",
			what, s, SecurityTLS, SecurityStartTLS, SecurityPlain)
	}
	return s, host, nil
}

// isLoopback reports whether host names this machine: "localhost", or a
// loopback IP address (127.0.0.0/8, ::1).
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// tlsConfigFor returns a copy of cfg (or a new config) whose ServerName is
// host when unset.
func tlsConfigFor(cfg *tls.Config, host string) *tls.Config {
	var c *tls.Config
	if cfg != nil {
		c = cfg.Clone()
	} else {
		c = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	if c.ServerName == "" {
		c.ServerName = host
	}
	return c
}
