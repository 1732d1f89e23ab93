package pbem

import "strings"

// unflow decodes RFC 3676 format=flowed text: a line that ends in a space
// continues on the next line (soft break), unless it is the signature
// separator "-- ". With delsp=yes the space before a soft break was added by
// the sender and is removed. A leading space added by space-stuffing is
// removed. Quoted lines join only lines of the same quote depth.
func unflow(text string, delsp bool) string {
	lines := strings.Split(text, "\n")
	var out []string
	var cur strings.Builder
	curDepth, open := 0, false
	for _, l := range lines {
		depth := quoteDepth(l)
		body := strings.TrimLeft(l, ">")
		if depth == 0 || strings.HasPrefix(body, " ") {
			body = strings.TrimPrefix(body, " ") // space-stuffing, or the space after ">"
		}
		if open && depth != curDepth {
			out = append(out, quotePrefix(curDepth)+cur.String())
			cur.Reset()
			open = false
		}
		soft := strings.HasSuffix(body, " ") && body != "-- "
		if soft && delsp {
			body = body[:len(body)-1]
		}
		cur.WriteString(body)
		curDepth, open = depth, true
		if !soft {
			out = append(out, quotePrefix(depth)+cur.String())
			cur.Reset()
			open = false
		}
	}
	if open {
		out = append(out, quotePrefix(curDepth)+cur.String())
	}
	return strings.Join(out, "\n")
}

// quoteDepth counts the ">" that open a flowed line.
func quoteDepth(l string) int {
	n := 0
	for n < len(l) && l[n] == '>' {
		n++
	}
	return n
}

func quotePrefix(depth int) string {
	if depth == 0 {
		return ""
	}
	return strings.Repeat(">", depth) + " "
}
