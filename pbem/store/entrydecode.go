package store

import (
	"bytes"
	"encoding/json"
)

// An outbox entry's mail is most of it: ten kilobytes or so of its view,
// which json.Unmarshal reads three times to decode the entry (it checks
// the whole entry, scans the mail again to find its end, then copies
// it). The outbox reads a hundred entries a round, on one core, while
// nothing is sent, so decodeEntry reads the mail once, only to find its
// end, and leaves the rest of the entry, a few fields, to json.Unmarshal.
// The mail is checked when it is read as a mail (games.QueuedMail, the
// composing of a reply), as it was written: by json.Marshal.

// decodeEntry decodes a stored entry as json.Unmarshal does. An entry is
// written as {"id":N,"mail":MAIL,…} (json.Marshal's order of the fields,
// and marshaledEntry's); one in another shape is left to json.Unmarshal.
// It is lax in one way only: a mail that is not valid JSON but whose
// brackets and strings close is returned, for its reader to refuse.
func decodeEntry(raw []byte, e *OutboxEntry) error {
	key, start, end := mailSpan(raw)
	if key < 0 {
		return json.Unmarshal(raw, e)
	}
	// The entry without its mail: {"id":N,…}.
	rest := make([]byte, 0, len(raw)-(end-start))
	if raw[end] == ',' {
		rest = append(append(rest, raw[:key]...), raw[end+1:]...)
	} else { // the last field: drop the comma before it
		rest = append(append(rest, raw[:key-1]...), raw[end:]...)
	}
	var head OutboxEntry
	if err := json.Unmarshal(rest, &head); err != nil {
		return err
	}
	if head.Mail != nil { // a second "mail" field: json.Unmarshal keeps the last
		return json.Unmarshal(raw, e)
	}
	*e = head
	e.Mail = bytes.Clone(raw[start:end])
	return nil
}

// mailSpan finds the mail of an entry {"id":N,"mail":{…} or […],…}: where
// its key starts, and its value's first and last-but-one byte, which is
// followed by ',' or '}'; key is -1 for an entry not in that shape.
func mailSpan(raw []byte) (key, start, end int) {
	const open, field = `{"id":`, `,"mail":`
	if !bytes.HasPrefix(raw, []byte(open)) {
		return -1, 0, 0
	}
	i := len(open)
	for i < len(raw) && raw[i] >= '0' && raw[i] <= '9' {
		i++
	}
	if i == len(open) || !bytes.HasPrefix(raw[i:], []byte(field)) {
		return -1, 0, 0
	}
	key, start = i+1, i+len(field)
	if start >= len(raw) || raw[start] != '{' && raw[start] != '[' {
		return -1, 0, 0
	}
	end = closing(raw, start)
	if end < 0 || end >= len(raw) || raw[end] != ',' && raw[end] != '}' {
		return -1, 0, 0
	}
	return key, start, end
}

// closing is the index after the object or array that opens at raw[i],
// found by counting its brackets outside strings; -1 if it does not close.
func closing(raw []byte, i int) int {
	depth := 0
	for ; i < len(raw); i++ {
		switch raw[i] {
		case '"':
			if i = stringEnd(raw, i+1); i < 0 {
				return -1
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// stringEnd is the index of the quote that ends a string whose text starts
// at raw[i]: the first not escaped by an odd run of backslashes; -1 if
// there is none.
func stringEnd(raw []byte, i int) int {
	for {
		j := bytes.IndexByte(raw[i:], '"')
		if j < 0 {
			return -1
		}
		q := i + j
		n := 0
		for k := q - 1; k >= i && raw[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return q
		}
		i = q + 1
	}
}
