package mailbox_test

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"herald/pbem/mailbox"
)

// Compose writes reproducible bytes: with a fixed Date, the same Outgoing
// gives the same message, boundaries included.
func ExampleCompose() {
	raw, err := mailbox.Compose(mailbox.Outgoing{
		From:       "Herald <herald@pbem.example>",
		To:         []string{"player@example.org"},
		Subject:    "Turn 3 result",
		Date:       time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
		MessageID:  "t3-result.g42@pbem.example",
		InReplyTo:  "t3-orders.p1@example.org",
		References: []string{"t2-result.g42@pbem.example", "t3-orders.p1@example.org"},
		Headers:    map[string]string{"Auto-Submitted": "auto-replied"},
		Text:       "Your archers fire.\n",
	})
	if err != nil {
		panic(err)
	}
	header, _, _ := bytes.Cut(raw, []byte("\r\n\r\n"))
	fmt.Println(strings.ReplaceAll(string(header), "\r\n", "\n"))
	// Output:
	// Auto-Submitted: auto-replied
	// Date: Sun, 01 Mar 2026 12:00:00 +0000
	// In-Reply-To: <t3-orders.p1@example.org>
	// MIME-Version: 1.0
	// Message-ID: <t3-result.g42@pbem.example>
	// References: <t2-result.g42@pbem.example> <t3-orders.p1@example.org>
	// Subject: Turn 3 result
	// From: "Herald" <herald@pbem.example>
	// To: <player@example.org>
	// Content-Transfer-Encoding: quoted-printable
	// Content-Type: text/plain; charset=UTF-8
}
