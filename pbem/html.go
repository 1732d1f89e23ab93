package pbem

import (
	"io"
	"strings"

	"golang.org/x/net/html"
)

// blockTags end a line of text before and after them.
var blockTags = map[string]bool{
	"p": true, "div": true, "br": true, "li": true, "tr": true, "table": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"pre": true, "blockquote": true, "ul": true, "ol": true, "hr": true,
	"section": true, "article": true, "header": true, "footer": true,
}

// skipTags hold no text a reader sees.
var skipTags = map[string]bool{"head": true, "style": true, "script": true, "title": true, "template": true}

// htmlToText renders an HTML body as the plain text a reader sees: a line
// break for every block element and <br>, entities decoded, non-breaking
// spaces as spaces, and the content of <blockquote> quoted with "> " so
// that FindBlocks ignores it as it ignores quoted plain text.
func htmlToText(r io.Reader) string {
	z := html.NewTokenizer(r)
	var out strings.Builder
	var line strings.Builder
	depth, skip := 0, 0
	flush := func() {
		text := strings.TrimRight(line.String(), " ")
		line.Reset()
		if depth > 0 {
			text = strings.Repeat("> ", depth) + text
		}
		out.WriteString(text)
		out.WriteByte('\n')
	}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if line.Len() > 0 {
				flush()
			}
			return out.String()
		case html.TextToken:
			if skip == 0 {
				writeInline(&line, string(z.Text()))
			}
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			tag := string(name)
			if skipTags[tag] && tt != html.SelfClosingTagToken {
				if tt == html.StartTagToken {
					skip++
				} else if skip > 0 {
					skip--
				}
				continue
			}
			if !blockTags[tag] {
				continue
			}
			if line.Len() > 0 || tag == "br" || tag == "p" {
				flush()
			}
			if tag == "blockquote" {
				if tt == html.StartTagToken {
					depth++
				} else if tt == html.EndTagToken && depth > 0 {
					depth--
				}
			}
		}
	}
}

// writeInline appends HTML text to a line: runs of white space, which HTML
// collapses, become one space, and a non-breaking space is a space.
func writeInline(line *strings.Builder, s string) {
	s = strings.ReplaceAll(s, "\u00a0", " ")
	fields := strings.Fields(s)
	if len(fields) == 0 {
		if line.Len() > 0 && s != "" {
			line.WriteByte(' ')
		}
		return
	}
	if startsWithSpace(s) && line.Len() > 0 {
		line.WriteByte(' ')
	}
	line.WriteString(strings.Join(fields, " "))
	if endsWithSpace(s) {
		line.WriteByte(' ')
	}
}

func startsWithSpace(s string) bool { return s != "" && strings.TrimLeft(s, " \t\r\n") != s }
func endsWithSpace(s string) bool   { return s != "" && strings.TrimRight(s, " \t\r\n") != s }
