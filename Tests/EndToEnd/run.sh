#!/usr/bin/env bash
# End-to-end test of the real binary, driven like a user with xdotool on an X display (run it through
# .ci/headless, as `make test-e2e` does):
#   start gallery-demo-server → start gallery-viewer on it → Ctrl+L, type a username, Enter →
#   thumbnails painted → double-click a row → the large view opens and paints the image → Escape →
#   back on the list → Ctrl+Q quits at once.
# Screenshots of each step are kept in $E2E_SHOTS (default .build/e2e) for a human to look at.
set -euo pipefail

: "${GALLERY_VIEWER:?path of the gallery-viewer binary}"
: "${GALLERY_DEMO_SERVER:?path of the gallery-demo-server binary}"
: "${DISPLAY:?an X display (run through .ci/headless)}"
for tool in xdotool import convert; do
  command -v "$tool" >/dev/null || { echo "e2e: '$tool' not found; run 'make test-deps'" >&2; exit 1; }
done

shots=${E2E_SHOTS:-$(pwd)/.build/e2e}
mkdir -p "$shots"
work=$(mktemp -d)
server_pid= app_pid= hostile_pid=
cleanup() {
  [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null || true
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  [ -n "$hostile_pid" ] && kill "$hostile_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "e2e: FAIL: $*" >&2
  import -window root "$shots/failure.png" 2>/dev/null && echo "e2e: screen at failure: $shots/failure.png" >&2
  [ -s "$work/app.log" ] && { echo "--- gallery-viewer output:" >&2; cat "$work/app.log" >&2; }
  exit 1
}

# Polls `$@` every 0.2 s for up to $1 seconds.
wait_for() {
  local seconds=$1; shift
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.2
  done
}

# Mean HSL saturation (0–1) of a region of the window: thumbnails and photos are colourful, the theme's
# placeholders, text and backgrounds are grey. $1 = geometry WxH+X+Y relative to the window.
saturation() {
  import -window "$window" "$work/window.png" 2>/dev/null || return 1
  convert "$work/window.png" -crop "$1" +repage -colorspace HSL -channel G -separate +channel \
    -format '%[fx:mean]' info: 2>/dev/null
}
is_colourful() { local s; s=$(saturation "$1") && awk -v s="$s" -v min="$2" 'BEGIN { exit !(s > min) }'; }
window_name() { xdotool getwindowname "$window" 2>/dev/null; }
name_is() { [ "$(window_name)" = "$1" ]; }

# 1. The demo server prints its base URL as the first line.
"$GALLERY_DEMO_SERVER" --port 0 >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
wait_for 20 grep -q '^http://' "$work/server.out" || fail "the demo server printed no URL"
base_url=$(head -n 1 "$work/server.out")
echo "e2e: demo server at $base_url"

# 2. --list prints every page without a window; errors go to stderr with the window's message and status 1.
"$GALLERY_VIEWER" --list --json --source demo --endpoint "$base_url" aurora >"$work/list.json" \
  || fail "gallery-viewer --list failed"
[ "$(wc -l <"$work/list.json")" -eq 60 ] || fail "--list printed $(wc -l <"$work/list.json") items for aurora, not 60"
for key in '"title"' '"kind":"image"' '"sensitive":true' '"thumbnail_url":"http' '"full_url":"http' '"page_url":"http'; do
  grep -q "$key" "$work/list.json" || fail "--list --json lacks $key"
done
if "$GALLERY_VIEWER" --list --source demo --endpoint "$base_url" nobody-here >"$work/out" 2>"$work/err"; then
  fail "--list for a missing user exited 0"
fi
grep -q "No such user: nobody-here" "$work/err" || fail "--list error was: $(cat "$work/err")"
[ ! -s "$work/out" ] || fail "--list printed items for a missing user"
"$GALLERY_VIEWER" --list --source demo --endpoint "$base_url" brokenfeed 2>"$work/err" >/dev/null && fail "brokenfeed listed"
grep -q "sent a response the app could not read" "$work/err" || fail "--list brokenfeed said: $(cat "$work/err")"
listed=$(GALLERY_VIEWER_ENDPOINT="$base_url" "$GALLERY_VIEWER" --list --source demo atlas | wc -l)
[ "$listed" -eq 360 ] || fail "GALLERY_VIEWER_ENDPOINT: --list printed $listed items for atlas, not 360"
if GALLERY_VIEWER_ENDPOINT="htp:/127.0.0.1" "$GALLERY_VIEWER" --list --source demo atlas >/dev/null 2>"$work/err"; then
  fail "a GALLERY_VIEWER_ENDPOINT typo was ignored (the real service would have been asked)"
fi
grep -q "GALLERY_VIEWER_ENDPOINT must be an http:// or https:// address" "$work/err" || fail "endpoint typo said: $(cat "$work/err")"
echo "e2e: --list ok (60 and 360 items, the endpoint from the environment, errors on stderr)"

# 2b. --list against the hostile server: what reaches the terminal has no control characters, and every URL
#     printed is http(s), whatever the feed named.
"$GALLERY_DEMO_SERVER" --hostile --port 0 >"$work/hostile.out" 2>"$work/hostile.err" &
hostile_pid=$!
wait_for 20 grep -q '^http://' "$work/hostile.out" || fail "the hostile server printed no URL"
hostile_url=$(head -n 1 "$work/hostile.out")
"$GALLERY_VIEWER" --list --source demo --endpoint "$hostile_url" control-characters >"$work/controls.txt" \
  || fail "--list control-characters failed"
[ "$(wc -l <"$work/controls.txt")" -eq 2 ] || fail "control characters split the lines: $(cat -A "$work/controls.txt")"
if LC_ALL=C grep -qP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]' "$work/controls.txt"; then
  fail "--list printed control characters: $(cat -A "$work/controls.txt")"
fi
"$GALLERY_VIEWER" --list --json --source demo --endpoint "$hostile_url" hostile >"$work/hostile.json" \
  || fail "--list hostile failed"
if grep -oE '"(thumbnail|full|page)_url":"[^"]*"' "$work/hostile.json" | grep -vE '_url":"https?://'; then
  fail "--list --json printed a URL that is not http(s)"
fi
grep -q '"file_name"' "$work/hostile.json" || fail "--list --json hostile printed nothing useful"
kill "$hostile_pid" 2>/dev/null || true
hostile_pid=
echo "e2e: --list is terminal-safe and prints only http(s) URLs against the hostile server"

# 3. The app, on the Demo source pointed at that server, with an empty username entry.
"$GALLERY_VIEWER" --source demo --endpoint "$base_url" >"$work/app.log" 2>&1 &
app_pid=$!
wait_for 30 xdotool search --onlyvisible --name '^Gallery Viewer$' >/dev/null || fail "no 'Gallery Viewer' window appeared"
window=$(xdotool search --onlyvisible --name '^Gallery Viewer$' | head -n 1)
xdotool windowmove "$window" 0 0 windowsize "$window" 800 760
sleep 0.5
echo "e2e: window $window"
import -window root "$shots/1-start.png"

# 4. Ctrl+L, type the username, Enter. Bare Xvfb has no window manager: focus the window explicitly.
xdotool windowfocus --sync "$window"
xdotool key ctrl+l
xdotool type --delay 40 aurora
xdotool key Return

# 5. Thumbnails appear: the thumbnail column (x 12–108 of each row, below the header bar) turns colourful.
wait_for 30 is_colourful 96x300+12+80 0.20 || fail "no thumbnails were painted (saturation $(saturation 96x300+12+80))"
import -window root "$shots/2-gallery.png"
echo "e2e: thumbnails painted (saturation $(saturation 96x300+12+80))"

# 6. Double-click the first row: the large view opens (the window title becomes the image's title, which the
#    app's own --list mode reads from the same feed) and the image is painted in the middle of the window.
first_title=$("$GALLERY_VIEWER" --list --source demo --endpoint "$base_url" aurora | head -n 1 | cut -f 1)
[ -n "$first_title" ] || fail "gallery-viewer --list printed nothing"
xdotool mousemove --window "$window" 400 120 click --repeat 2 --delay 120 1
wait_for 10 name_is "$first_title" || fail "the large view did not open (window title: '$(window_name)', expected '$first_title')"
echo "e2e: large view open: '$(window_name)'"
wait_for 30 is_colourful 300x300+250+230 0.20 || fail "the large view painted no image (saturation $(saturation 300x300+250+230))"
import -window root "$shots/3-large-view.png"

# 7. Escape returns to the list.
xdotool key Escape
wait_for 10 name_is 'Gallery Viewer' || fail "Escape did not close the large view (title '$(window_name)')"

# 8. The screenshot is not blank: many distinct colours.
colours=$(convert "$shots/2-gallery.png" -format '%k' info:)
[ "$colours" -gt 500 ] || fail "the gallery screenshot looks blank ($colours colours)"

# 9. Ctrl+Q quits at once, even with downloads in flight.
xdotool windowfocus --sync "$window"
xdotool key ctrl+q
wait_for 5 bash -c "! kill -0 $app_pid 2>/dev/null" || fail "the app did not quit within 5 s of Ctrl+Q"
wait "$app_pid" && status=0 || status=$?
app_pid=
[ "$status" -eq 0 ] || fail "the app exited with status $status"
if grep -E 'CRITICAL|WARNING' "$work/app.log"; then fail "the app logged GLib/GTK warnings"; fi
echo "e2e: PASS ($colours colours in the gallery screenshot; screenshots in $shots)"
