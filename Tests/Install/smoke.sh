#!/usr/bin/env bash
# Smoke pass of the release build as `make install` installs it: Tests/Install/check.sh runs it through
# .ci/headless on the tree it installed. The installed gallery-demo-server serves the installed demo gallery, and
# the installed gallery-viewer
#   --list prints the items, --download saves files byte for byte the ones the server serves,
#   a search in the window paints thumbnails, a double-click on the first row opens the large view and paints
#   the image, Escape goes back, Ctrl+Q quits with no GLib/GTK warnings.
# The steps are the end-to-end test's (Tests/EndToEnd/helpers.sh), on the installed programs.
#
#   GALLERY_VIEWER=PREFIX/bin/gallery-viewer GALLERY_DEMO_SERVER=PREFIX/bin/gallery-demo-server \
#     .ci/headless bash Tests/Install/smoke.sh
set -euo pipefail

: "${GALLERY_VIEWER:?path of the installed gallery-viewer}"
: "${GALLERY_DEMO_SERVER:?path of the installed gallery-demo-server}"
: "${DISPLAY:?an X display (run through .ci/headless)}"
for tool in xdotool import convert compare; do
  command -v "$tool" >/dev/null || { echo "install smoke: '$tool' not found; run 'make test-deps'" >&2; exit 1; }
done

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../EndToEnd/helpers.sh
. "$here/../EndToEnd/helpers.sh"
shots=${E2E_SHOTS:-$(pwd)/.build/e2e}
mkdir -p "$shots"
scratch_and_cleanup "install smoke"
on_fail() {
  import -window root "$shots/install-failure.png" 2>/dev/null \
    && echo "install smoke: screen at failure: $shots/install-failure.png" >&2
}

# The installed server finds the installed demo gallery next to itself (PREFIX/share/gallery-viewer), unless
# the environment points elsewhere.
unset GALLERY_VIEWER_DATA_DIR
served=$(cd "$(dirname "$GALLERY_DEMO_SERVER")/../share/gallery-viewer/demo/images/full" && pwd) \
  || fail "no installed demo images next to $GALLERY_DEMO_SERVER"
start_demo_server server --log-requests
echo "install smoke: demo server at $base_url"

# --list: every item of aurora, with the fields a script reads.
bounded "$GALLERY_VIEWER" --list --json --source demo --endpoint "$base_url" aurora >"$work/list.json" \
  || fail "gallery-viewer --list failed"
[ "$(wc -l <"$work/list.json")" -eq 60 ] || fail "--list printed $(wc -l <"$work/list.json") items for aurora, not 60"
for key in '"title"' '"kind":"image"' '"thumbnail_url":"http' '"full_url":"http' '"page_url":"http'; do
  grep -q "$key" "$work/list.json" || fail "--list --json lacks $key"
done
echo "install smoke: --list printed aurora's 60 items"

# --download: atlas's 360 images, each the server's bytes, nothing partial left.
dl=$work/downloads
bounded "$GALLERY_VIEWER" --download "$dl" --source demo --endpoint "$base_url" atlas >"$work/dl.out" 2>"$work/dl.err" \
  || fail "--download atlas exited with $?: $(tail -n 3 "$work/dl.err")"
saved=$(find "$dl/demo/atlas" -maxdepth 1 -type f ! -name '.*' | wc -l)
[ "$saved" -eq 360 ] || fail "--download saved $saved files, not 360"
same_as_originals "$dl/demo/atlas" "$served" || fail "a downloaded file is not what the server serves"
[ -z "$(find "$dl/demo/atlas" -maxdepth 1 -name '.*' -type f)" ] || fail "partial files left after a complete download"
grep -q 'Saved 360 of 360 images' "$work/dl.out" || fail "summary: $(cat "$work/dl.out")"
echo "install smoke: --download saved atlas's 360 images as served"

# The window: a search paints thumbnails, the first row opens the large view, Escape, Ctrl+Q.
launch_app app.log --source demo --endpoint "$base_url"
wait_for_app_window || fail "no 'Gallery Viewer' window appeared"
place_window 800 760
search_in_window aurora
import -window root "$shots/install-1-gallery.png"
list_first_title --source demo --endpoint "$base_url" aurora
open_first_row "$first_title"
import -window root "$shots/install-2-large-view.png"
xdotool key Escape
wait_for "$patience" name_is 'Gallery Viewer' || fail "Escape did not close the large view (title '$(window_name)')"
quit_app
assert_no_warnings "$work/app.log"
echo "install smoke: a search painted thumbnails, the first row opened '$first_title' in the large view"
echo "install smoke: PASS"
