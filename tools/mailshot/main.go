// Command mailshot prepares Herald's HTML mails for screenshots in a
// headless browser, and trims the screenshots (docs/img, see
// tools/mail-screenshots.sh):
//
//	mailshot html MAIL.eml OUT.html   the HTML part, its cid: images inlined as data: URLs
//	mailshot trim SHOT.png            cut the empty page below the mail
package main

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
	"os"
	"strings"

	"github.com/emersion/go-message/mail"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: mailshot html MAIL.eml OUT.html | mailshot trim SHOT.png")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "html":
		if len(os.Args) != 4 {
			err = errors.New("html wants MAIL.eml OUT.html")
			break
		}
		err = htmlOf(os.Args[2], os.Args[3])
	case "trim":
		err = trim(os.Args[2])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mailshot:", err)
		os.Exit(1)
	}
}

// htmlOf writes a mail's HTML part with each cid: image replaced by a
// data: URL of the inline part it names.
func htmlOf(eml, out string) error {
	f, err := os.Open(eml)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := mail.CreateReader(f)
	if err != nil {
		return err
	}
	var html string
	images := map[string]string{}
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		body, err := io.ReadAll(p.Body)
		if err != nil {
			return err
		}
		ct := ""
		switch h := p.Header.(type) {
		case *mail.InlineHeader:
			ct, _, _ = h.ContentType()
		case *mail.AttachmentHeader:
			ct, _, _ = h.ContentType()
		}
		switch {
		case ct == "text/html":
			html = string(body)
		case strings.HasPrefix(ct, "image/"):
			id := strings.Trim(p.Header.Get("Content-Id"), "<>")
			images["cid:"+id] = "data:" + ct + ";base64," + base64.StdEncoding.EncodeToString(body)
		}
	}
	if html == "" {
		return fmt.Errorf("%s has no HTML part", eml)
	}
	for cid, data := range images {
		html = strings.ReplaceAll(html, cid, data)
	}
	return os.WriteFile(out, []byte(html), 0o644)
}

// trim cuts the rows below the mail that are all the colour of the page's
// bottom row.
func trim(file string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return err
	}
	r := img.Bounds()
	bg := img.At(r.Min.X, r.Max.Y-1)
	last := r.Max.Y - 1
	for ; last > r.Min.Y; last-- {
		blank := true
		for x := r.Min.X; x < r.Max.X && blank; x++ {
			blank = img.At(x, last) == bg
		}
		if !blank {
			break
		}
	}
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), min(last+12, r.Max.Y)-r.Min.Y))
	draw.Draw(out, out.Bounds(), img, r.Min, draw.Src)
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, out); err != nil {
		return err
	}
	return os.WriteFile(file, buf.Bytes(), 0o644)
}
