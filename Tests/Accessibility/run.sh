#!/usr/bin/env bash
# Accessibility test of the real binary: reads the window's accessibility tree over AT-SPI, as a screen
# reader does, and checks that every control on screen has a name, in each state of the window: the
# gallery (rows, a failed row's retry button, a sensitive row's reveal button, the header bar and its Grid
# toggle), the recent galleries' popover, the grid (tiles, pressed in), the large view (its back button; its
# details panel, whose alt text is the picture's description), the shortcuts window, a status page with "Try
# Again" (reached by a second launch handing its search to the running window), the grid again after a
# relaunch (the choice is remembered), and the note that the namespace sandbox is off.
#
# Run through .ci/headless (X display and session bus). .ci/headless sets NO_AT_BRIDGE=1 so that other
# tests need no accessibility bus; this one unsets it and starts its own bus with at-spi-bus-launcher.
set -euo pipefail

: "${GALLERY_VIEWER:?path of the gallery-viewer binary}"
: "${GALLERY_DEMO_SERVER:?path of the gallery-demo-server binary}"
: "${DISPLAY:?an X display (run through .ci/headless)}"
: "${DBUS_SESSION_BUS_ADDRESS:?a session bus (run through .ci/headless)}"
command -v xdotool >/dev/null || { echo "a11y: xdotool not found; run 'make test-deps'" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../EndToEnd/helpers.sh
. "$here/../EndToEnd/helpers.sh"
# shellcheck source=atspi-bus.sh
. "$here/atspi-bus.sh"
app_id=io.github.galleryviewer.GalleryViewer
scratch_and_cleanup a11y
check() {  # STATE EXPECTED-NAME... [--OPTION VALUE]... (atspi_check.py's options, passed as they are)
  local state=$1; shift
  local expect=()
  while [ $# -gt 0 ]; do
    case $1 in
      --*) expect+=("$1" "$2"); shift 2 ;;
      *) expect+=(--expect "$1"); shift ;;
    esac
  done
  atspi_expect "$state" "${expect[@]}"
  sed 's/^/    /' "$work/tree"
}

start_atspi_bus "$work/launcher.log" || fail "no accessibility bus"

start_demo_server server

launch_app app.log --source demo --endpoint "$base_url" aurora
wait_for_app_window || fail "no window"
# Tall enough that the recycled list binds row 9 (a sensitive item) next to the first rows.
place_window 800 1000

check "the gallery" "Main Menu" "Source" "Username" "Grid" "Aurora over the Harbour" "Retry: HTTP 404 Not Found" \
  "Show sensitive image"

# The recent galleries' popover (Ctrl+H): the list, each gallery and its remove button, Clear History.
xdotool windowfocus --sync "$window"
xdotool key ctrl+h
check "the recent galleries" "Recent Galleries" "aurora on Demo" "Remove aurora on Demo from Recent Galleries" \
  "Clear History"
xdotool key Escape

xdotool windowfocus --sync "$window"
xdotool key ctrl+2
check "the grid" "Grid" "Aurora over the Harbour" "Retry: HTTP 404 Not Found" "Show sensitive image" --expect-checked "Grid"

# The first tile: Aurora over the Harbour, whose alt text the details check reads.
xdotool mousemove --window "$window" 100 120 click --repeat 2 --delay 120 1
check "the large view" "Back to the Gallery" "Image Menu" "Image Details"

# The details panel: its rows are named by their captions, and the picture's description is its alt text.
xdotool key alt+Return
band="A band at the bottom reads “#001” and “Aurora over the Harbour — aurora”"
atspi_expect "the details panel" --expect "Image Details" --expect "Title" --expect "Description" --expect "Page" \
  --expect-description "Large view: Aurora over the Harbour=$band" --expect-description "Description=$band"
sed 's/^/    /' "$work/tree"
xdotool key alt+Return

xdotool key Escape
xdotool key ctrl+question
check "the shortcuts window" "Search Shortcuts"
xdotool key Escape

# A second launch hands its search over; the closed port makes it a network error with "Try Again".
bounded "$GALLERY_VIEWER" --source demo --endpoint http://127.0.0.1:9 nobody || fail "the second launch failed"
check "the status page" "Try Again"
assert_no_warnings "$work/app.log"

# The grid was the last choice: a new launch opens with it (from the state file the first one wrote).
quit_app
launch_app app-relaunch.log --source demo --endpoint "$base_url" aurora
wait_for_app_window || fail "no window after the relaunch"
check "the grid after a relaunch" "Aurora over the Harbour" --expect-checked "Grid"
assert_no_warnings "$work/app-relaunch.log"

# Where bubblewrap cannot create namespaces (here a bwrap first on PATH that fails as it does in such
# containers), the window says so in a bar at the top that a screen reader reads, its close button named.
quit_app
mkdir -p "$work/no-userns"
printf '#!/bin/sh\necho "bwrap: No permissions to creating new namespace" >&2\nexit 1\n' >"$work/no-userns/bwrap"
chmod +x "$work/no-userns/bwrap"
PATH="$work/no-userns:$PATH" launch_app app-no-userns.log --source demo --endpoint "$base_url" aurora
wait_for_app_window || fail "no window without namespaces"
check "the note that the namespace sandbox is off" "Dismiss" "Aurora over the Harbour" \
  --expect-text "Images are decoded without the namespace sandbox"
assert_no_warnings "$work/app-no-userns.log"
echo "a11y: PASS"
