#!/usr/bin/env bash
# End-to-end test of following a gallery in the real window, driven like a user and read over AT-SPI as a
# screen reader reads it (run it through .ci/headless, as `make test-e2e` does):
#   the window on aurora (the demo service) → Following opened: nothing followed yet, the launch's check done →
#   Ctrl+D: the Follow toggle is pressed in and `--following --json` (the same store) lists aurora →
#   the demo server grows (SIGUSR1) → Following, Check Now: the Following button's description becomes
#   "1 new" → New Images: the New view lists the grown upload first, its row saying "aurora on Demo" →
#   Enter opens it in the large view, Escape back; the description becomes "0 new" (opened is seen) →
#   Unfollow from the popover's row: `--following` is empty.
# Screenshots of the popover (empty, with aurora, after unfollowing), the New view and the large view go to
# $E2E_SHOTS (default .build/e2e), for a human to look at.
set -euo pipefail

: "${GALLERY_VIEWER:?path of the gallery-viewer binary}"
: "${GALLERY_DEMO_SERVER:?path of the gallery-demo-server binary}"
: "${DISPLAY:?an X display (run through .ci/headless)}"
: "${XDG_DATA_HOME:?a throwaway data directory (run through .ci/headless): the follow store}"
for tool in xdotool import convert; do
  command -v "$tool" >/dev/null || { echo "e2e following: '$tool' not found; run 'make test-deps'" >&2; exit 1; }
done

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=helpers.sh
. "$here/helpers.sh"
# shellcheck source=../Accessibility/atspi-bus.sh
. "$here/../Accessibility/atspi-bus.sh"
app_id=io.github.galleryviewer.GalleryViewer
shots=${E2E_SHOTS:-$(pwd)/.build/e2e}
mkdir -p "$shots"
scratch_and_cleanup "e2e following"
on_fail() {
  import -window root "$shots/following-failure.png" 2>/dev/null && echo "e2e following: screen at failure: $shots/following-failure.png" >&2
}
atspi_do() { E2E_PATIENCE=$patience bounded /usr/bin/python3 "$here/../Accessibility/atspi_do.py" "$app_id" "$@"; }
# The store the window writes, read by the command line (both under the session's XDG_DATA_HOME).
following_json() { bounded "$GALLERY_VIEWER" --following --json 2>&1; }
follows_aurora() { following_json | grep -q '"source":"demo".*"username":"aurora"'; }
follows_nothing() { [ -z "$(following_json)" ]; }
# shot NAME: the screen in $shots/following-NAME.png, the pointer out of the window (a row's tooltip would hide
# what the shot is for).
shot() {
  xdotool mousemove 1270 1010
  import -window root "$shots/following-$1.png"
}
# The newest item of aurora's gallery as the service lists it now: its title.
newest_title() {
  bounded "$GALLERY_VIEWER" --list --source demo --endpoint "$base_url" aurora >"$work/aurora.list" \
    || fail "--list aurora failed"
  head -n 1 "$work/aurora.list" | cut -f 1
}

start_atspi_bus "$work/launcher.log" || fail "no accessibility bus"
# --grow-every far above the test's length: only SIGUSR1 makes the galleries grow, when the test says so.
start_demo_server server --grow-every 86400
first_before=$(newest_title)
[ -n "$first_before" ] || fail "aurora's gallery is empty"

# --- 1. The window on aurora -----------------------------------------------------------------------------------

launch_app app.log --source demo --endpoint "$base_url" aurora
wait_for_app_window || fail "no window"
place_window 800 760
wait_for "$patience" is_colourful "$thumbnails" 0.20 || fail "no thumbnails for aurora"
echo "e2e following: aurora's thumbnails are shown"

# The launch's check (after the first screen is painted) must be over before aurora is followed: a check
# that saw aurora would make Check Now skip it as checked moments ago. With nothing followed it says so.
atspi_do --press Following || fail "the Following button could not be pressed"
atspi_expect "Following lists nothing yet and the launch's check is done" \
  --expect "Check Now" --expect-text "Galleries you follow appear here" \
  --expect-text "Last check just now: nothing new" --expect-description "Following=0 new"
shot popover-empty
xdotool windowfocus --sync "$window"
xdotool key Escape
atspi_expect "Escape closed the popover" --expect-no-text "Galleries you follow appear here"

# --- 2. Ctrl+D follows the gallery on screen -------------------------------------------------------------------

xdotool windowfocus --sync "$window"
xdotool key ctrl+d
atspi_expect "Ctrl+D pressed the Follow toggle in" --expect-checked Follow
wait_for "$patience" follows_aurora || fail "--following --json does not list aurora: $(following_json)"
echo "e2e following: Ctrl+D followed aurora (the toggle reads as pressed; --following lists it)"

# --- 3. The gallery grows; Check Now finds the new upload ------------------------------------------------------

demo_server=$(pgrep -P "$server_pid") || fail "no demo server process under $server_pid"
kill -USR1 "$demo_server"
wait_for "$patience" grep -q "grew" "$work/server.err" || fail "the demo server did not grow: $(cat "$work/server.err")"
grown=$(newest_title)
[ -n "$grown" ] && [ "$grown" != "$first_before" ] || fail "aurora's newest item did not change after growing ('$grown')"

atspi_do --press Following || fail "the Following button could not be pressed"
atspi_do --press "Check Now" || fail "Check Now could not be pressed"
atspi_expect "Check Now found one new image" --expect-description "Following=1 new" \
  --expect-text "Last check just now: 1 new image" --expect "New Images (1)" --expect "Unfollow aurora on Demo"
shot popover
echo "e2e following: Check Now found the grown upload ('$grown'): the Following button says 1 new"

# --- 4. The New view -------------------------------------------------------------------------------------------

atspi_do --press "New Images (1)" || fail "New Images (1) could not be pressed"
atspi_expect "the New view lists the grown upload first, saying whose it is" \
  --expect-first-item "$grown=aurora on Demo" --expect-text "New Images"
shot new-view
echo "e2e following: the New view shows '$grown' first, from aurora on Demo"

# The keyboard is on the newest row once New Images opened the view: Enter opens it, the window's title the
# image's.
xdotool windowfocus --sync "$window"
xdotool key Return
wait_for "$patience" name_is "$grown" || fail "Enter did not open '$grown' in the large view (title '$(window_name)')"
wait_for "$patience" is_colourful 300x300+250+230 0.20 \
  || fail "the large view painted no image (saturation $(saturation 300x300+250+230))"
shot large-view
xdotool windowfocus --sync "$window"
xdotool key Escape
wait_for "$patience" name_is "New Images" || fail "Escape did not leave the large view (title '$(window_name)')"
# Seen, it stays in the New view until the view is shown again.
atspi_expect "the opened image is seen: nothing new is left" --expect-description "Following=0 new" \
  --expect-first-item "$grown=aurora on Demo"
echo "e2e following: Enter opened the new image, Escape went back, and it counts as seen (0 new)"

# --- 5. Unfollow from the popover -----------------------------------------------------------------------------

atspi_do --press Following || fail "the Following button could not be pressed"
atspi_do --press "Unfollow aurora on Demo" || fail "the Unfollow button could not be pressed"
wait_for "$patience" follows_nothing || fail "--following still lists: $(following_json)"
atspi_expect "the popover lists nothing once aurora is unfollowed" --expect-text "Galleries you follow appear here" \
  --expect-no-text "Unfollow aurora on Demo"
shot popover-unfollowed
echo "e2e following: Unfollow in the popover removed aurora (--following is empty)"

xdotool windowfocus --sync "$window"
xdotool key Escape
kill -0 "$app_pid" 2>/dev/null || fail "the app went away"
quit_app
assert_no_warnings "$work/app.log"
echo "e2e following: PASS"
