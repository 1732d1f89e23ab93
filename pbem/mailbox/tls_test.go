package mailbox

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"math/big"
	"net"
	"sync"
	"testing"
	"time"
)

// testCert is a self-signed certificate for 127.0.0.1 and the pool that
// trusts it.
func testCert(t testing.TB) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "herald test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

// tlsProxy terminates implicit TLS on a loopback port and forwards the
// plain bytes to target, standing in for IMAPS (993) and SMTPS (465).
func tlsProxy(t testing.TB, cert tls.Certificate, target string) string {
	t.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer c.Close()
				u, err := net.Dial("tcp", target)
				if err != nil {
					return
				}
				defer u.Close()
				done := make(chan struct{}, 2)
				go func() { io.Copy(u, c); done <- struct{}{} }()
				go func() { io.Copy(c, u); done <- struct{}{} }()
				<-done
			})
		}
	})
	return ln.Addr().String()
}

func TestTLSAndStartTLS(t *testing.T) {
	cert, pool := testCert(t)
	e := newEmbedded(t, func(c *EmbeddedConfig) {
		c.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
		c.RequireSMTPAuth = true
	})
	client := &tls.Config{RootCAs: pool}
	tests := []struct {
		name     string
		sec      Security
		imapAddr string
		smtpAddr string
	}{
		{"starttls", SecurityStartTLS, e.IMAPAddr(), e.SMTPAddr()},
		{"tls", SecurityTLS, tlsProxy(t, cert, e.IMAPAddr()), tlsProxy(t, cert, e.SMTPAddr())},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSender(SenderConfig{Addr: tc.smtpAddr, Security: tc.sec, TLSConfig: client,
				Username: "player", Password: "pw", Logger: testLogger(t)})
			if err != nil {
				t.Fatal(err)
			}
			o := sampleOutgoing()
			o.To = []string{"herald@localhost"}
			o.MessageID = "tls-" + tc.name + "@pbem.example"
			got := make(chan Message, 1)
			runIntake(t, IntakeConfig{
				Addr: tc.imapAddr, Security: tc.sec, TLSConfig: client,
				Username: testUser, Password: testPass, PollInterval: time.Hour,
				ReconnectBackoff: ConstantBackoff(20 * time.Millisecond), Logger: testLogger(t),
			}, func(ctx context.Context, m Message) (Disposition, error) {
				if m.MessageID == o.MessageID {
					got <- m
				}
				return Processed, nil
			})
			if err := s.Send(context.Background(), o); err != nil {
				t.Fatalf("Send over %s: %v", tc.sec, err)
			}
			recv(t, got, "message over "+string(tc.sec))

			// A client that does not trust the certificate fails for good.
			bad, err := NewSender(SenderConfig{Addr: tc.smtpAddr, Security: tc.sec, Logger: testLogger(t)})
			if err != nil {
				t.Fatal(err)
			}
			err = bad.Send(context.Background(), o)
			var se *SendError
			if !errors.As(err, &se) || se.Stage != StageConnect || IsTemporary(err) {
				t.Errorf("Send with an untrusted certificate = %v, want a permanent connect error", err)
			}
		})
	}
}
