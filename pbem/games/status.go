package games

import (
	"fmt"
	"html"
	"strings"
	"time"

	"herald/pbem/mailbox"
	"herald/templates"
)

// resendReason is why a mail is sent again.
type resendReason int

const (
	resendStatus  resendReason = iota // the player sent STATUS
	resendRestart                     // herald serve restarted on its store (Service.Remail)
)

// resent says why a mail goes out again (STATUS, or a restart), when it
// was first sent and whether its map was drawn again as the battlefield
// stands now; mark writes it at the top of the mail when it is composed.
type resent struct {
	Why    resendReason `json:"why"`
	First  time.Time    `json:"first"`
	MapNow bool         `json:"map_now,omitempty"`
}

// mark says at the top of a mail sent again, in its subject and both
// parts, what it is: the answer to STATUS, a copy of the latest mail
// (first sent then), so that the player does not take it for news.
func (r resent) mark(o *mailbox.Outgoing) {
	first := r.First.UTC().Format("Monday 2 January 2006, 15:04 MST")
	note := fmt.Sprintf("This is Herald's answer to your STATUS: the latest mail it sent you about this game, sent again as it was first sent on %s.", first)
	o.Subject += " (again, for STATUS)"
	if r.Why == resendRestart {
		note = fmt.Sprintf("Herald has been restarted, and its embedded mail server keeps no mail: this is the latest mail Herald sent you about this game, sent again as it was first sent on %s.", first)
		o.Subject = strings.TrimSuffix(o.Subject, " (again, for STATUS)") + " (again, after a restart)"
	}
	if r.MapNow {
		note += " Its map shows the battlefield as it stands now; what happened is told below."
	}
	o.Text = templates.Wrap(note) + "\n\n" + o.Text
	if i := strings.Index(o.HTML, "<body"); i >= 0 {
		if j := strings.IndexByte(o.HTML[i:], '>'); j >= 0 {
			at := i + j + 1
			banner := `<p style="margin:0;padding:10px 16px;background-color:#e4eefb;border-bottom:2px solid #4a6fa5;font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:1.45;color:#1e1e1e;">` + html.EscapeString(note) + `</p>`
			o.HTML = o.HTML[:at] + "\n" + banner + o.HTML[at:]
		}
	}
}
