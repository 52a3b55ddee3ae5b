#!/usr/bin/env bash
# End-to-end test of several items at once, with the real binary driven like a user (run it through
# .ci/headless, as `make test-e2e` does): aurora's first three rows selected with the keyboard (Home, then
# Shift+Down twice) → the Menu key opens their menu → "Save 3 Images…" → GTK's folder chooser (no portal on
# the test's bus), a folder typed and chosen → the three originals land there, byte for byte, under the names
# `--download` gives them. Screenshots go to $E2E_SHOTS (default .build/e2e).
set -euo pipefail

: "${GALLERY_VIEWER:?path of the gallery-viewer binary}"
: "${GALLERY_DEMO_SERVER:?path of the gallery-demo-server binary}"
: "${DISPLAY:?an X display (run through .ci/headless)}"
for tool in xdotool import convert; do
  command -v "$tool" >/dev/null || { echo "e2e selection: '$tool' not found; run 'make test-deps'" >&2; exit 1; }
done

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=helpers.sh
. "$here/helpers.sh"
# shellcheck source=../Accessibility/atspi-bus.sh
. "$here/../Accessibility/atspi-bus.sh"
app_id=io.github.galleryviewer.GalleryViewer
shots=${E2E_SHOTS:-$(pwd)/.build/e2e}
mkdir -p "$shots"
scratch_and_cleanup "e2e selection"
on_fail() {
  import -window root "$shots/selection-failure.png" 2>/dev/null && echo "e2e selection: screen at failure: $shots/selection-failure.png" >&2
}
originals=$(cd "$here/../../data/demo/images/full" && pwd)

start_atspi_bus "$work/launcher.log" || fail "no accessibility bus"
# atspi_do --activate NAME: the menu item NAME, activated over AT-SPI as assistive technology does.
atspi_do() { E2E_PATIENCE=$patience bounded /usr/bin/python3 "$here/../Accessibility/atspi_do.py" "$app_id" "$@"; }
start_demo_server server
# What --download names the first three items (the window's save gives the same names).
bounded "$GALLERY_VIEWER" --list --json --source demo --endpoint "$base_url" aurora >"$work/list.json" \
  || fail "gallery-viewer --list failed"
mapfile -t names < <(head -n 3 "$work/list.json" | sed -n 's/.*"file_name":"\([^"]*\)".*/\1/p')
[ "${#names[@]}" -eq 3 ] || fail "--list named ${#names[@]} files, not 3"

# The chooser starts in the Pictures folder: here, the folder the test reads (the chooser's location entry,
# typed into before GTK has laid it out, would take keys on an unrealized widget).
folder=$work/saved
mkdir -p "$folder" "$XDG_CONFIG_HOME"
printf 'XDG_PICTURES_DIR="%s"\n' "$folder" >"$XDG_CONFIG_HOME/user-dirs.dirs"
launch_app app.log --source demo --endpoint "$base_url" aurora
wait_for_app_window || fail "no window"
place_window 800 760
wait_for "$patience" is_colourful "$thumbnails" 0.20 || fail "no thumbnails for aurora"

# The first row, then two more with Shift+Down; the Menu key opens the menu of the three.
xdotool mousemove --window "$window" 400 120 click 1
xdotool key Home shift+Down shift+Down
xdotool key Menu
import -window root "$shots/selection-menu.png" 2>/dev/null || true
# "Save 3 Images…", activated over AT-SPI: a key that opens a dialog leaves its release to whichever window
# has the focus then, which without a window manager is the dialog before GTK has laid it out.
atspi_do --activate "Save 3 Images…" || fail "the menu has no Save 3 Images… item"

# GTK's folder chooser, in that folder: Save Here chooses it.
find_chooser() { chooser=$(xdotool search --onlyvisible --pid "$(app_process)" --name '^Save 3 Images$' 2>/dev/null | head -n 1) && [ -n "$chooser" ]; }
wait_for "$patience" find_chooser || fail "Save 3 Images… opened no folder chooser"
import -window root "$shots/selection-chooser.png" 2>/dev/null || true
atspi_do --press "Save Here" || fail "the chooser's Save Here button could not be pressed"
all_saved() {
  local name
  for name in "${names[@]}"; do [ -f "$folder/$name" ] || return 1; done
}
wait_for "$patience" all_saved || fail "the three images were not saved in $folder ($(ls -A "$folder" | tr '\n' ' '))"
for name in "${names[@]}"; do
  cmp -s "$folder/$name" "$originals/$name" || fail "$name is not the original, byte for byte"
done
[ "$(find "$folder" -type f | wc -l)" -eq 3 ] || fail "the folder holds more than the three images: $(ls -A "$folder")"
echo "e2e selection: Save 3 Images wrote the three originals under --download's names"

import -window "$window" "$shots/selection-after.png" 2>/dev/null || true
quit_app
assert_no_warnings "$work/app.log"
echo "e2e selection: PASS"
