package mailbox

import (
	"bytes"
	"sync"
)

// mailBuffers are the buffers a whole mail is held in for a moment, kept
// from one mail to the next: the text go-mail writes for Compose (with
// stand-ins for the parts' data), and the text the embedded server reads
// before the mailbox keeps its own. A mail with a map is half a
// megabyte, and a buffer made anew for each was cleared first, often on
// pages fresh from the system, and grown again and again
// (docs/performance.md, "Seventh pass").
var mailBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxKeptBuffer is the largest buffer kept: a rare larger mail's goes.
const maxKeptBuffer = 8 << 20

// getMailBuffer is an empty buffer, kept from an earlier mail if any.
func getMailBuffer() *bytes.Buffer { return mailBuffers.Get().(*bytes.Buffer) }

// keepMailBuffer keeps b for the next mail, unless a large mail grew it.
func keepMailBuffer(b *bytes.Buffer) {
	if b.Cap() <= maxKeptBuffer {
		b.Reset()
		mailBuffers.Put(b)
	}
}
