#!/bin/sh
# Screenshots of Herald's HTML mails as a phone (390 CSS pixels wide, two
# device pixels to one) and a desktop (1000 pixels) show them, from a real
# game played by mail (herald demo), for docs/img. Needs chromium.
#
#   tools/mail-screenshots.sh [OUTDIR]     (default docs/img)
#
# Writes welcome-{phone,desktop}.png (the French player's welcome to
# Crécy) and result-{phone,desktop}.png (the first mail after a Charge in
# the melee-test battle; its dice are random, so the picture changes from
# run to run). Look at every picture before committing it.
set -eu
out=${1:-docs/img}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/herald" ./cmd/herald
go build -o "$work/mailshot" ./tools/mailshot
"$work/herald" demo --out "$work/crecy" --moves 1 >/dev/null
"$work/herald" demo --out "$work/melee" --moves 6 --scenario melee-test >/dev/null

# shot MAIL.eml NAME: NAME-phone.png and NAME-desktop.png in $out.
shot() {
	"$work/mailshot" html "$1" "$work/$2.html"
	for view in phone:390:2 desktop:1000:1; do
		name=${view%%:*}
		rest=${view#*:}
		width=${rest%%:*}
		dpr=${rest#*:}
		chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
			--disable-component-update --disable-sync --no-first-run \
			--user-data-dir="$work/profile-$2-$name" --hide-scrollbars \
			--force-device-scale-factor="$dpr" --window-size="$width,5000" \
			--screenshot="$out/$2-$name.png" "file://$work/$2.html" 2>/dev/null
		"$work/mailshot" trim "$out/$2-$name.png"
	done
}

# The French act first at Crécy: bob's first mail is his welcome.
shot "$work/crecy/bob-processed-001.eml" welcome
charge=$(grep -l "charges to" "$work"/melee/alice-processed-*.eml | head -n 1)
shot "$charge" result
ls -l "$out"/welcome-*.png "$out"/result-*.png
