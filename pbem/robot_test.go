package pbem

import (
	"errors"
	"strings"
	"testing"
)

func TestRobot(t *testing.T) {
	self := []string{"herald@club.example"}
	for _, tc := range []struct{ name, header, robot string }{
		{"a person", "From: alice@example.org", ""},
		{"Auto-Submitted: no is a person", "From: alice@example.org\nAuto-Submitted: no", ""},
		{"vacation", "From: alice@example.org\nAuto-Submitted: auto-replied", "Auto-Submitted: auto-replied"},
		{"Precedence bulk", "From: news@example.org\nPrecedence: bulk", "Precedence: bulk"},
		{"Precedence junk", "From: x@example.org\nPrecedence: Junk", "Precedence: junk"},
		{"Precedence list", "From: x@example.org\nPrecedence: list", "Precedence: list"},
		{"X-Autoreply", "From: x@example.org\nX-Autoreply: yes", "X-Autoreply"},
		{"mailing list", "From: x@example.org\nList-Id: <wargames.lists.example>", "mailing list"},
		{"null Return-Path", "Return-Path: <>\nFrom: x@example.org", "null return path"},
		{"MAILER-DAEMON Return-Path", "Return-Path: <MAILER-DAEMON@mx.example.org>\nFrom: x@example.org", "bounce from <MAILER-DAEMON@mx.example.org>"},
		{"MAILER-DAEMON From", "From: Mail Delivery System <MAILER-DAEMON@mx.example.org>", "bounce from mailer-daemon@mx.example.org"},
		{"delivery report", "From: x@example.org\nContent-Type: multipart/report; report-type=delivery-status; boundary=b", "delivery report"},
		{"Herald itself", "From: Herald <Herald+crecy-4f2a@Club.example>", "from Herald itself"},
		{"loop header", "From: other-herald@example.org\nX-Herald-Loop: club.example", "carries X-Herald-Loop"},
	} {
		m, err := ReadMail([]byte(strings.ReplaceAll(tc.header, "\n", "\r\n")+"\r\n\r\nbody\r\n"), ReadOptions{Self: self})
		var me *MailError
		if errors.As(err, &me) && me.Mail != nil {
			m = me.Mail // a robot's mail need not be well-formed to be recognised
		} else if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if m.Robot != tc.robot {
			t.Errorf("%s: Robot %q, want %q", tc.name, m.Robot, tc.robot)
		}
	}
}

func TestReadHeader(t *testing.T) {
	raw := "From: =?utf-8?Q?Bruno_Fran=C3=A7ois?= <Bruno@Example.FR>\r\n" +
		"To: Herald <herald+crecy-4f2a@club.example>, alice@example.org\r\n" +
		"Cc: HERALD+crecy-4f2a@club.example\r\n" +
		"Delivered-To: herald@club.example\r\n" +
		"X-Original-To: herald+crecy-4f2a@club.example\r\n" +
		"Subject: =?iso-8859-1?Q?Re=3A_=5Bcrecy-4f2a=5D_Ordres_pour_Alen=E7on?=\r\n" +
		"Message-ID: <abc@example.fr>\r\n" +
		"In-Reply-To: <r2@club.example>\r\n" +
		"References: <r1@club.example> <r2@club.example>\r\n" +
		"\r\nEND\r\n"
	m, err := ReadMail([]byte(raw), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join([]string{m.From, m.FromName, strings.Join(m.To, ","), m.Subject, m.MessageID, m.InReplyTo, strings.Join(m.References, ","), m.Text}, "|")
	want := "bruno@example.fr|Bruno François|herald+crecy-4f2a@club.example,alice@example.org,herald@club.example|" +
		"Re: [crecy-4f2a] Ordres pour Alençon|abc@example.fr|r2@club.example|r1@club.example,r2@club.example|END\n"
	if got != want || m.Size != len(raw) {
		t.Errorf("got  %q\nwant %q (size %d)", got, want, m.Size)
	}
}
