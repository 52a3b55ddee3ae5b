#!/usr/bin/env bash
# Validates the files we ship in resources/: the desktop entry, the AppStream metainfo, the SVG icons and the
# translations (the template is current; every language listed compiles).
#
#   Tests/Resources/validate.sh [RESOURCES_DIR]        (default: resources/ next to Tests/)
#
# Fails (exit 1) with one line per problem. Needs desktop-file-utils, appstream, libgdk-pixbuf2.0-bin (the
# thumbnailer renders the SVGs through the gdk-pixbuf loader GTK itself uses) and imagemagick; `make test-deps`
# installs them, and gettext (`make deps`).
set -uo pipefail

APP_ID=${APP_ID:-io.github.galleryviewer.GalleryViewer}
root=$(cd "$(dirname "$0")/../.." && pwd)
res=${1:-$root/resources}
desktop=$res/$APP_ID.desktop
metainfo=$res/$APP_ID.metainfo.xml
icon=$res/$APP_ID.svg
symbolic=$res/$APP_ID-symbolic.svg

passed=0 failed=0
pass() { passed=$((passed + 1)); echo "ok   $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
indent() { sed 's/^/       /'; }

for tool in desktop-file-validate appstreamcli gdk-pixbuf-thumbnailer convert xgettext msgfmt; do
  command -v "$tool" >/dev/null || { echo "validate: '$tool' not found; run 'make test-deps'" >&2; exit 1; }
done
for f in "$desktop" "$metainfo" "$icon" "$symbolic"; do
  [ -f "$f" ] || fail "missing file: ${f#$root/}"
done
[ "$failed" -eq 0 ] || { echo "validate: $passed passed, $failed failed"; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Desktop entry: desktop-file-validate prints hints and warnings but exits 0 on them; we want silence.
if out=$(desktop-file-validate "$desktop" 2>&1) && [ -z "$out" ]; then
  pass "desktop-file-validate $(basename "$desktop")"
else
  fail "desktop-file-validate $(basename "$desktop"):"; printf '%s\n' "$out" | indent
fi

# Metainfo: no errors (E:) and no warnings (W:). Infos (I:) are allowed and shown: Debian 12's AppStream 0.16
# reports the AppStream-1.0 <developer> tag as unknown, an info.
out=$(appstreamcli validate --no-net "$metainfo" 2>&1); rc=$?
if [ $rc -eq 0 ] && ! grep -qE '^[EW]:' <<<"$out"; then
  pass "appstreamcli validate --no-net $(basename "$metainfo")"
  grep -E '^I:' <<<"$out" | indent
else
  fail "appstreamcli validate --no-net $(basename "$metainfo") (exit $rc):"; printf '%s\n' "$out" | indent
fi

# The files must agree with each other, or the desktop shows no icon / GNOME Software finds no app.
field() { sed -n "s/^$1=//p" "$desktop" | head -n 1; }
[ "$(field Icon)" = "$APP_ID" ] && pass "desktop Icon= is $APP_ID" || fail "desktop Icon= is '$(field Icon)', expected '$APP_ID'"
[ "$(field StartupWMClass)" = "$APP_ID" ] && pass "desktop StartupWMClass= is $APP_ID" \
  || fail "desktop StartupWMClass= is '$(field StartupWMClass)', expected '$APP_ID'"
grep -q "<id>$APP_ID</id>" "$metainfo" && pass "metainfo <id> is $APP_ID" || fail "metainfo <id> is not $APP_ID"
grep -q "<launchable type=\"desktop-id\">$APP_ID.desktop</launchable>" "$metainfo" \
  && pass "metainfo launchable is $APP_ID.desktop" || fail "metainfo has no launchable $APP_ID.desktop"
exe=$(field Exec); exe=${exe%% *}
grep -q "<binary>$exe</binary>" "$metainfo" && pass "metainfo provides the binary '$exe' of Exec=" \
  || fail "metainfo does not provide <binary>$exe</binary> (the desktop entry's Exec=)"

# Icons: declared size, then rendered by gdk-pixbuf's SVG loader (what GTK uses) and checked not blank.
check_svg() {  # FILE SIZE
  local f=$1 size=$2 name png mean
  name=$(basename "$f")
  if ! grep -q "<svg[^>]*width=\"$size\"[^>]*height=\"$size\"" "$f"; then
    fail "$name: the <svg> element does not declare width=\"$size\" height=\"$size\""; return
  fi
  png=$tmp/$name.png
  if ! out=$(gdk-pixbuf-thumbnailer -s "$size" "$f" "$png" 2>&1) || [ ! -s "$png" ]; then
    fail "$name: gdk-pixbuf could not render it:"; printf '%s\n' "$out" | indent; return
  fi
  # Mean alpha over the picture (the share of the canvas covered): 0 means nothing was drawn.
  mean=$(convert "$png" -alpha extract -format '%[fx:mean]' info: 2>/dev/null || echo 0)
  if awk -v m="$mean" 'BEGIN { exit !(m > 0.05) }'; then
    pass "$name renders at ${size}px (coverage $(printf '%.2f' "$mean"))"
  else
    fail "$name renders blank at ${size}px (mean alpha '$mean')"
  fi
}
check_svg "$icon" 128
check_svg "$symbolic" 16

# Symbolic icons are recoloured by GTK, which rewrites the fill of rect/circle/path only: one colour, no strokes.
colours=$(grep -oiE '#[0-9a-f]{6}\b|#[0-9a-f]{3}\b' "$symbolic" | tr 'A-F' 'a-f' | sort -u | tr '\n' ' ')
if [ "$colours" = "#2e3436 " ] && ! grep -qE 'stroke[=:]|<(polygon|polyline|line|ellipse)\b' "$symbolic"; then
  pass "$(basename "$symbolic") is single-colour #2e3436 paths without strokes"
else
  fail "$(basename "$symbolic"): use only fill #2e3436 on path/rect/circle, no strokes (colours: ${colours:-none})"
fi

# Translations. The template must be what `make pot` makes now (its creation date aside), or a text added or
# changed in the code would reach no translator; and xgettext must not warn (a Swift """ literal in a file
# with translatable texts, say).
po=$res/po
if ! "${MAKE:-make}" --no-print-directory -s -C "$root" pot POT_DIR="$tmp/po" >/dev/null 2>"$tmp/pot.err"; then
  fail "make pot failed:"; indent <"$tmp/pot.err"
elif [ -s "$tmp/pot.err" ]; then
  fail "make pot warns:"; indent <"$tmp/pot.err"
else
  undated() { grep -v '^"POT-Creation-Date: ' "$1"; }
  if out=$(diff -u --label committed --label "make pot" <(undated "$po/gallery-viewer.pot") <(undated "$tmp/po/gallery-viewer.pot") \
           && diff -u "$po/POTFILES" "$tmp/po/POTFILES"); then
    pass "resources/po/gallery-viewer.pot is current ($(( $(grep -c '^msgid "' "$po/gallery-viewer.pot") - 1 )) texts)"
  else
    fail "resources/po/gallery-viewer.pot is out of date: run make pot and commit the result. The difference:"
    printf '%s\n' "$out" | head -n 40 | indent
  fi
fi
# Every language listed in LINGUAS compiles (format checks included), as `make install` will compile it.
for lang in $(sed 's/#.*//' "$po/LINGUAS"); do
  if out=$(msgfmt --check -o /dev/null "$po/$lang.po" 2>&1); then pass "resources/po/$lang.po compiles"
  else fail "resources/po/$lang.po does not compile:"; printf '%s\n' "$out" | indent; fi
done

echo "validate: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
