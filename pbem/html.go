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
	"dl": true, "dt": true, "dd": true, "address": true, "center": true,
}

// skipTags hold no text a reader sees.
var skipTags = map[string]bool{"head": true, "style": true, "script": true, "title": true, "template": true}

// htmlToText renders an HTML body as the plain text a reader sees: a line
// break for every block element and <br>, entities decoded, non-breaking
// spaces as spaces, <pre> kept as it stands, style, script and head
// dropped. Quoted earlier mail is quoted with "> " per level, so that
// FindBlocks reads it as it reads quoted plain text: a <blockquote>, and a
// <div> whose class names a quote (Gmail's "gmail_quote", Yahoo's
// "yahoo_quoted") until a <blockquote> opens inside it
// (blockquoteInside).
func htmlToText(r io.Reader) string {
	c := &converter{}
	z := html.NewTokenizer(r)
	for {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			if c.line.Len() > 0 {
				c.flush()
			}
			return c.out.String()
		case html.TextToken:
			if c.skip == 0 {
				c.text(string(z.Text()))
			}
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			c.tag(z, tt)
		}
	}
}

type converter struct {
	out, line strings.Builder
	open      []frame // open <div> and <blockquote> elements
	quotes    int     // how many of them quote
	skip, pre int
}

// maxOpen bounds the elements tracked, and so the work per tag, for
// hostile HTML; deeper elements are treated as not quoting.
const maxOpen = 256

type frame struct {
	tag   string
	quote bool
}

func (c *converter) flush() {
	text := strings.TrimRight(c.line.String(), " ")
	c.line.Reset()
	for range c.quotes {
		c.out.WriteString("> ")
	}
	c.out.WriteString(text)
	c.out.WriteByte('\n')
}

func (c *converter) text(s string) {
	if c.pre == 0 {
		writeInline(&c.line, s)
		return
	}
	for i, part := range strings.Split(s, "\n") {
		if i > 0 {
			c.flush()
		}
		c.line.WriteString(strings.ReplaceAll(strings.TrimSuffix(part, "\r"), "\u00a0", " "))
	}
}

func (c *converter) tag(z *html.Tokenizer, tt html.TokenType) {
	name, hasAttr := z.TagName()
	tag := string(name)
	start, end := tt == html.StartTagToken, tt == html.EndTagToken
	switch {
	case tag == "body" && start:
		c.skip = 0 // a <head> left open ends here
		return
	case skipTags[tag]:
		if start {
			c.skip++
		} else if end && c.skip > 0 {
			c.skip--
		}
		return
	case (tag == "td" || tag == "th") && start && c.line.Len() > 0:
		c.line.WriteByte(' ')
		return
	case !blockTags[tag]:
		return
	}
	if c.line.Len() > 0 || tag == "br" || tag == "p" {
		c.flush()
	}
	switch {
	case tag == "pre" && start:
		c.pre++
	case tag == "pre" && end && c.pre > 0:
		c.pre--
	case (tag == "div" || tag == "blockquote") && start && len(c.open) < maxOpen:
		if tag == "blockquote" {
			c.blockquoteInside()
		}
		f := frame{tag, tag == "blockquote" || quoteClass(z, hasAttr)}
		c.open = append(c.open, f)
		if f.quote {
			c.quotes++
		}
	case (tag == "div" || tag == "blockquote") && end:
		for i := len(c.open) - 1; i >= 0; i-- {
			if c.open[i].tag == tag {
				for _, f := range c.open[i:] {
					if f.quote {
						c.quotes--
					}
				}
				c.open = c.open[:i]
				break
			}
		}
	}
}

// blockquoteInside: a <blockquote> opens inside the <div>s whose class
// names a quote. Those <div>s quote only until then: from there on the
// <blockquote>s mark what is quoted, and text between them in the <div> is
// what the sender typed into the quote (Gmail wraps the attribution and
// the quote in a "gmail_quote" <div>, and splits the <blockquote> where
// the sender types inside it).
func (c *converter) blockquoteInside() {
	for i := range c.open {
		if f := &c.open[i]; f.tag == "div" && f.quote {
			f.quote = false
			c.quotes--
		}
	}
}

// quoteClass reports whether a <div>'s class names a quote.
func quoteClass(z *html.Tokenizer, more bool) bool {
	for more {
		var k, v []byte
		k, v, more = z.TagAttr()
		if string(k) == "class" && strings.Contains(strings.ToLower(string(v)), "quote") {
			return true
		}
	}
	return false
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
