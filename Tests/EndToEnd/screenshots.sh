#!/usr/bin/env bash
# Takes the README's screenshots of the real app on the demo gallery (run through .ci/headless):
#   docs/screenshots/main-window.png   the gallery, scrolled to show failing rows too
#   docs/screenshots/main-window-dark.png  the same in Adwaita's dark style (GTK_THEME=Adwaita:dark)
#   docs/screenshots/recent-galleries.png  the recent galleries (Ctrl+H) after a few searches
#   docs/screenshots/large-view.png    an image in the large view
#   docs/screenshots/large-view-details.png  the same with its details panel (Alt+Return)
#   docs/screenshots/large-view-zoomed.png  the same zoomed in (double-click: 100 %, then + twice), its menu open
#   docs/screenshots/no-such-user.png  the message for a user that does not exist
#   docs/screenshots/grid.png          the gallery as a grid (Ctrl+2), a tile selected with the keyboard
set -euo pipefail
: "${GALLERY_VIEWER:?}" "${GALLERY_DEMO_SERVER:?}" "${DISPLAY:?}"
out=${SCREENSHOTS:-docs/screenshots}
mkdir -p "$out"
# shellcheck source=helpers.sh
. "$(dirname "$0")/helpers.sh"
scratch_and_cleanup screenshots
start_demo_server server

shoot() { sleep "${2:-2}"; import -window "$window" "$out/$1"; echo "wrote $out/$1"; }
# With a popup menu open: the menu is a window of its own, so the shot is taken from the screen.
shoot_screen() { sleep "${2:-2}"; import -window root -crop 760x800+0+0 +repage "$out/$1"; echo "wrote $out/$1"; }
start() {
  if [ -n "${THEME:-}" ]; then
    GTK_THEME=$THEME launch_app app.log --source demo --endpoint "$base_url" "$@"
  else
    launch_app app.log --source demo --endpoint "$base_url" "$@"
  fi
  wait_for_app_window || fail "no window"
  place_window 760 800
  xdotool windowfocus --sync "$window"
}

# Scrolls so that the 404 and 500 rows are in view next to loaded ones.
scroll_to_failures() {
  xdotool mousemove --window "$window" 380 400
  for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do xdotool click 5; sleep 0.05; done
  # Off the window: a pointer resting on a row shows the row's tooltip, which a bare Xvfb paints black.
  xdotool mousemove 1000 900
}

# The recent galleries: three searches (a handover each), then Ctrl+H.
start atlas
sleep 2
bounded "$GALLERY_VIEWER" --source demo --endpoint "$base_url" empty
sleep 2
bounded "$GALLERY_VIEWER" --source demo --endpoint "$base_url" aurora
sleep 3
xdotool windowfocus --sync "$window"
xdotool key ctrl+h
shoot recent-galleries.png 1
xdotool key Escape
quit_app

THEME=Adwaita:dark start aurora
sleep 3
scroll_to_failures
shoot main-window-dark.png 3
quit_app

start aurora
sleep 3
scroll_to_failures
shoot main-window.png 3
xdotool mousemove --window "$window" 380 200 click --repeat 2 --delay 120 1
shoot large-view.png 3
xdotool key alt+Return
shoot large-view-details.png 2
xdotool key alt+Return
sleep 1
xdotool mousemove --window "$window" 300 420 click --repeat 2 --delay 120 1
sleep 1
xdotool key plus plus
sleep 1.5
xdotool mousemove --window "$window" 470 300 click 3
shoot_screen large-view-zoomed.png 2
xdotool key Escape
quit_app

start nobody-here
shoot no-such-user.png 2
quit_app

# Last: the grid is remembered, and would open every later launch as a grid.
start aurora
sleep 2
xdotool key ctrl+2
sleep 2
xdotool mousemove --window "$window" 120 150 click 1
xdotool mousemove --window "$window" 740 790
xdotool key Down Right Right
shoot grid.png 3
quit_app
