#!/usr/bin/env bash
# End-to-end test of habits people bring from GNOME's image viewers, with the real binary driven like a user
# (run it through .ci/headless, as `make test-e2e` does), read over AT-SPI as a screen reader reads it:
#   the slideshow: with the shortest interval (3 s) in the state file, the second row selected and F5, the
#     large view shows that item, then the next one by itself; Escape ends the show and leaves the large
#     view open, so a second Escape goes back to the list (during a show it would only end the show);
#   a drop opens a gallery: another process's window (gallery-test-drag-source) offers atlas's profile link,
#     dragged with the mouse onto the window: a real X drag and drop; atlas's gallery shows.
# Screenshots go to $E2E_SHOTS (default .build/e2e).
set -euo pipefail

: "${GALLERY_VIEWER:?path of the gallery-viewer binary}"
: "${GALLERY_DEMO_SERVER:?path of the gallery-demo-server binary}"
: "${DISPLAY:?an X display (run through .ci/headless)}"
: "${XDG_CONFIG_HOME:?a throwaway config directory (run through .ci/headless)}"
# Built beside the app by `swift build` (Package.swift's DragLinkSource); never installed.
drag_source=${GALLERY_DRAG_SOURCE:-$(dirname "$GALLERY_VIEWER")/gallery-test-drag-source}
[ -x "$drag_source" ] || { echo "e2e habits: no $drag_source; run 'swift build' (make build-tests)" >&2; exit 1; }
for tool in xdotool import; do
  command -v "$tool" >/dev/null || { echo "e2e habits: '$tool' not found; run 'make test-deps'" >&2; exit 1; }
done

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=helpers.sh
. "$here/helpers.sh"
# shellcheck source=../Accessibility/atspi-bus.sh
. "$here/../Accessibility/atspi-bus.sh"
app_id=io.github.galleryviewer.GalleryViewer
shots=${E2E_SHOTS:-$(pwd)/.build/e2e}
mkdir -p "$shots"
scratch_and_cleanup "e2e habits"
on_fail() {
  import -window root "$shots/habits-failure.png" 2>/dev/null && echo "e2e habits: screen at failure: $shots/habits-failure.png" >&2
}
atspi_do() { E2E_PATIENCE=$patience bounded /usr/bin/python3 "$here/../Accessibility/atspi_do.py" "$app_id" "$@"; }

start_atspi_bus "$work/launcher.log" || fail "no accessibility bus"
start_demo_server server
# DeviantArt's profile links, answered by the demo server: without --source the endpoint serves every source.
link_of() { echo "https://www.deviantart.com/$1"; }
titles_of() {  # USER: the titles of USER's gallery, one a line, in the window's order
  bounded "$GALLERY_VIEWER" --list --endpoint "$base_url" "$(link_of "$1")" >"$work/$1.list" || fail "--list $1 failed"
  cut -f 1 "$work/$1.list"
}
mapfile -t aurora_titles < <(titles_of aurora)
mapfile -t atlas_titles < <(titles_of atlas)
[ "${#aurora_titles[@]}" -ge 3 ] && [ "${#atlas_titles[@]}" -ge 1 ] || fail "the demo galleries are too short"
second=${aurora_titles[1]} third=${aurora_titles[2]}

# --- 1. The slideshow ------------------------------------------------------------------------------------------

# The interval the main menu would have remembered: the shortest, so the test waits 3 s per picture.
mkdir -p "$XDG_CONFIG_HOME/gallery-viewer"
printf '[slideshow]\ninterval=3\n' >"$XDG_CONFIG_HOME/gallery-viewer/state.ini"
# The follower listens before the app starts: GTK reads the listeners when it joins the bus, so it cannot
# miss the first name. Patience for the launch and the gallery too.
follow_patience=$((3 * patience))
E2E_PATIENCE=$follow_patience timeout --kill-after=10 $((follow_patience + 60)) /usr/bin/python3 \
  "$here/../Accessibility/atspi_follow.py" "$app_id" "Large view: " "Large view: $second" "Large view: $third" \
  >"$work/follow.out" 2>"$work/follow.err" &
follow_pid=$!
extra_pids="$extra_pids $follow_pid"
wait_for "$patience" grep -qx listening "$work/follow.out" \
  || fail "the AT-SPI follower did not start: $(cat "$work/follow.err")"

launch_app app.log --endpoint "$base_url" "$(link_of aurora)"
wait_for_app_window || fail "no window"
place_window 800 760
wait_for "$patience" is_colourful "$thumbnails" 0.20 || fail "no thumbnails for aurora"
# A click selects the first row, Down the second (a double-click would open it). Bare Xvfb has no window
# manager: the window is focused explicitly.
xdotool mousemove --window "$window" 400 120 click 1
xdotool windowfocus --sync "$window"
xdotool key Down
atspi_do --selected "$second" || fail "Down did not select the second row, '$second'"
xdotool windowfocus --sync "$window"
xdotool key F5
follow_status=0
wait "$follow_pid" || follow_status=$?
[ "$follow_status" -eq 0 ] \
  || fail "the slideshow did not go from '$second' to '$third' by itself (names heard: $(paste -sd '|' "$work/follow.out"); $(cat "$work/follow.err"))"
import -window root "$shots/habits-slideshow.png"
echo "e2e habits: the slideshow started at the selected '$second' and went on to '$third' by itself"

# Escape ends the show where it is: the large view stays. Full screen cannot be seen on a bare X server (no
# window manager to grant it), but the next Escape can: in a show it would only end the show; now it closes
# the large view.
xdotool windowfocus --sync "$window"
xdotool key Escape
xdotool key Escape
wait_for "$patience" name_is 'Gallery Viewer' \
  || fail "two Escapes did not end the show and close the large view (title '$(window_name)')"
echo "e2e habits: Escape ended the slideshow in the large view (a second Escape closed it)"

# --- 2. A drop opens a gallery ---------------------------------------------------------------------------------

# The drag source's window beside the app's, its button offering atlas's link.
"${bounded_life[@]}" "$drag_source" "$(link_of atlas)" >"$work/drag.out" 2>"$work/drag.err" &
drag_pid=$!
extra_pids="$extra_pids $drag_pid"
wait_for "$patience" grep -qsx ready "$work/drag.out" || fail "the drag source showed no window ($(cat "$work/drag.err"))"
find_source_window() {
  local pid
  pid=$(cat "/proc/$drag_pid/task/$drag_pid/children" 2>/dev/null) && [ -n "$pid" ] \
    && source_window=$(xdotool search --onlyvisible --pid "${pid%% *}" --name '^Drag source test$' 2>/dev/null | head -n 1) \
    && [ -n "$source_window" ]
}
wait_for "$patience" find_source_window || fail "the drag source's window was not found"
xdotool windowmove "$source_window" 860 100
source_is_placed() { xdotool getwindowgeometry "$source_window" 2>/dev/null | grep -q 'Position: 860,100'; }
wait_for "$patience" source_is_placed || fail "the drag source's window did not move beside the app's"
said() { grep -qsx "$1" "$work/drag.out"; }

# Press on the button, move past GTK's drag threshold: the drag begins. Then over the app's window, until it
# answers that it takes the drop (GTK takes a release before that answer as a drop on nothing): each move
# sends the window the pointer's place again. Then let go.
xdotool mousemove --window "$source_window" --sync 140 50 mousedown 1
xdotool mousemove_relative --sync -- -20 10 mousemove_relative --sync -- -30 10
wait_for "$patience" said drag-begin || fail "dragging the source's button started no drag ($(cat "$work/drag.out"))"
over_the_window() {
  xdotool mousemove --sync $((400 + RANDOM % 20)) $((400 + RANDOM % 20))
  said drag-accepted
}
wait_for "$patience" over_the_window || fail "the app's window did not take the link's drag ($(cat "$work/drag.out"))"
xdotool mouseup 1
wait_for "$patience" grep -q '^drag-end' "$work/drag.out" || fail "the drag did not end ($(cat "$work/drag.out"))"
said 'drag-end dropped' || fail "the drop did not succeed ($(cat "$work/drag.out"))"
# The window prefers the uri-list a browser's address bar offers.
said 'drag-data-get text/uri-list' || fail "the drop did not take the link as text/uri-list ($(cat "$work/drag.out"))"

atspi_do --find "${atlas_titles[0]}" || fail "the dropped link did not open atlas's gallery"
grep -q '^username=atlas$' "$XDG_CONFIG_HOME/gallery-viewer/state.ini" || fail "the state file does not name atlas"
grep -q '^source=deviantart$' "$XDG_CONFIG_HOME/gallery-viewer/state.ini" || fail "the link did not pick DeviantArt"
import -window root "$shots/habits-drop.png"
echo "e2e habits: a profile link dragged from another process and dropped on the window opened atlas's gallery"

kill -0 "$app_pid" 2>/dev/null || fail "the app went away"
quit_app
assert_no_warnings "$work/app.log" "$work/drag.err"
echo "e2e habits: PASS"
