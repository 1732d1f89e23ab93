package command

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// herald render draws the sample opening's last block, cropped to it, and
// the whole battle at its start; the crop is the smaller picture.
func TestRenderPlayFile(t *testing.T) {
	dir := t.TempDir()
	sizes := map[string]int{}
	for name, args := range map[string][]string{
		"start": {"--scenario", "crecy"},
		"crop":  {"--scenario", "crecy", "--orders", "../../../data/samples/crecy-opening.orders", "--dice", "7,5,2,8", "--crop"},
	} {
		out := filepath.Join(dir, name+".png")
		var stdout, stderr bytes.Buffer
		if code := Main(append([]string{"render", "--out", out}, args...), strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, stderr.String())
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sizes[name] = img.Bounds().Dx() * img.Bounds().Dy()
	}
	if sizes["crop"] >= sizes["start"]/2 {
		t.Errorf("the crop (%d pixels) is not much smaller than the whole map (%d)", sizes["crop"], sizes["start"])
	}
}

// --crop without a play file has no last block to crop to: a usage error,
// not a silently whole map.
func TestRenderCropNeedsOrders(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main([]string{"render", "--scenario", "crecy", "--crop", "--out", filepath.Join(t.TempDir(), "m.png")}, strings.NewReader(""), &stdout, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "--crop needs --orders") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}
