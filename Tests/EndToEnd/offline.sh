#!/usr/bin/env bash
# End-to-end test of the disk cache with the real binary, driven like a user (run it through .ci/headless, as
# `make test-e2e` does):
#   the app on a demo server, aurora's thumbnails painted → Ctrl+W → the cache's index, the saved first page
#   and its thumbnails are on disk → the server is stopped (the network is gone) → a launch without the HTTP
#   cache paints the first screen from the kept thumbnails → a launch shows the first screen from the cache
#   and says it is offline → the server comes back on the same address →
#   Ctrl+R shows the live gallery → Clear Cache (the app's action, activated over D-Bus as the main menu's item
#   activates it) empties the cache and says so → Ctrl+Q.
# What the window says is read over AT-SPI, as a screen reader reads it (its own accessibility bus).
# Screenshots go to $E2E_SHOTS (default .build/e2e), next to run.sh's.
set -euo pipefail

: "${GALLERY_VIEWER:?path of the gallery-viewer binary}"
: "${GALLERY_DEMO_SERVER:?path of the gallery-demo-server binary}"
: "${DISPLAY:?an X display (run through .ci/headless)}"
: "${DBUS_SESSION_BUS_ADDRESS:?a session bus (run through .ci/headless)}"
: "${XDG_CACHE_HOME:?a throwaway cache directory (run through .ci/headless)}"
for tool in xdotool import convert gdbus; do
  command -v "$tool" >/dev/null || { echo "e2e offline: '$tool' not found; run 'make test-deps'" >&2; exit 1; }
done

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=helpers.sh
. "$here/helpers.sh"
# shellcheck source=../Accessibility/atspi-bus.sh
. "$here/../Accessibility/atspi-bus.sh"
app_id=io.github.galleryviewer.GalleryViewer
cache_dir=$XDG_CACHE_HOME/gallery-viewer
shots=${E2E_SHOTS:-$(pwd)/.build/e2e}
mkdir -p "$shots"
scratch_and_cleanup "e2e offline"
on_fail() {
  import -window root "$shots/offline-failure.png" 2>/dev/null && echo "e2e offline: screen at failure: $shots/offline-failure.png" >&2
}

# The demo server on port $1 (0: any free port), logging its requests; sets base_url and port.
start_server() {
  start_demo_server server --port "$1" --log-requests
  port=${base_url##*:}
}
stop_server() {
  kill -TERM "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=
}

# Starts the app (log $1, then its arguments) and finds its window, 800×760 at the top left.
launch() {
  launch_app "$@"
  wait_for_app_window || fail "no window appeared"
  place_window 800 760
}

entry_files() { find "$cache_dir/http" -maxdepth 1 -type f -name '[0-9]*' 2>/dev/null | wc -l; }

start_atspi_bus "$work/atspi.log" || fail "no accessibility bus"

# 1. Online: aurora's first screen, then its window closed.
start_server 0
launch app-online.log --source demo --endpoint "$base_url" aurora
wait_for "$patience" is_colourful "$thumbnails" 0.20 || fail "no thumbnails were painted online"
atspi_expect "online" --expect "Aurora over the Harbour" --expect-no-text "cannot be reached"
import -window root "$shots/offline-1-online.png"
# Closed as most people leave it (Ctrl+W, as the title bar's ✕): the quit that follows keeps what Ctrl+Q does.
xdotool windowfocus --sync "$window"
xdotool key ctrl+w
wait_for 60 bash -c "! kill -0 $app_pid 2>/dev/null" || fail "the app did not quit when its window closed"
wait "$app_pid" || fail "the app exited with status $? when its window closed"
app_pid=

# 2. What the quit left on disk: the index, the entries, the saved first page; private.
[ -s "$cache_dir/http/soup.cache2" ] || fail "no cache index was written on quit"
stored=$(entry_files)
[ "$stored" -ge 5 ] || fail "only $stored entries in the cache"
[ -s "$cache_dir/last-gallery.json" ] || fail "the first page was not saved"
[ "$(stat -c %a "$cache_dir")" = 700 ] || fail "the cache directory is $(stat -c %a "$cache_dir"), not 700"
[ "$(stat -c %a "$cache_dir/last-gallery.json")" = 600 ] || fail "the saved page is readable by others"
[ -s "$cache_dir/last-gallery.thumbnails" ] || fail "the first screen's thumbnails were not kept"
[ "$(stat -c %a "$cache_dir/last-gallery.thumbnails")" = 600 ] || fail "the kept thumbnails are readable by others"
echo "e2e offline: quit left an index of $(stat -c %s "$cache_dir/http/soup.cache2") bytes, $stored entries, the first page and its thumbnails"

# 2b. Without the server and without the HTTP cache (moved aside), the first screen's pictures still paint:
#     from the thumbnails kept at quit. The debug log says when.
stop_server
mv "$cache_dir/http" "$cache_dir/http.aside"
G_MESSAGES_DEBUG=gallery-viewer launch app-kept.log --source demo --endpoint "$base_url"
wait_for "$patience" is_colourful "$thumbnails" 0.20 || fail "no thumbnails from the kept first screen (saturation $(saturation "$thumbnails"))"
atspi_expect "kept first screen" --expect "Aurora over the Harbour"
wait_for "$patience" grep -q "launch: first screen painted with its pictures" "$work/app-kept.log" \
  || fail "the debug log did not say when the first screen was painted"
import -window root "$shots/offline-1b-kept.png"
echo "e2e offline: without the server or the HTTP cache, the kept thumbnails: $(grep -o 'first screen painted with its pictures [0-9]* ms' "$work/app-kept.log")"
quit_app
rm -rf "$cache_dir/http"
mv "$cache_dir/http.aside" "$cache_dir/http"

# 3. The network is gone: the next launch (the last search, aurora) shows its first screen from the
#    HTTP cache (the kept thumbnails moved aside) and says it is offline.
mv "$cache_dir/last-gallery.thumbnails" "$work/kept.thumbnails"
started=$(date +%s%N)
launch app-offline.log --source demo --endpoint "$base_url"
wait_for "$patience" is_colourful "$thumbnails" 0.20 || fail "offline: no thumbnails from the cache (saturation $(saturation "$thumbnails"))"
painted_ms=$(( ($(date +%s%N) - started) / 1000000 ))
atspi_expect "offline" --expect "Try Again" --expect "Aurora over the Harbour" \
  --expect-text "Offline: Demo cannot be reached" --expect-text "Offline · 24 images"
import -window root "$shots/offline-2-offline.png"
echo "e2e offline: second launch without the server: first screen with thumbnails from the cache in ${painted_ms} ms (debug build, screenshots polled), and it says it is offline"

# 4. The network is back (the same address): Ctrl+R loads the live gallery; the notice goes.
start_server "$port"
xdotool windowfocus --sync "$window"
xdotool key ctrl+r
atspi_expect "after Ctrl+R" --expect "Aurora over the Harbour" \
  --expect-no-text "cannot be reached" --expect-no-text "Offline ·"
echo "e2e offline: Ctrl+R with the server back: the live gallery, no offline notice"

# 5. Clear Cache (main menu › Clear Cache is the app action clear-cache): everything goes, and it says so.
bounded gdbus call --session --dest "$app_id" --object-path /io/github/galleryviewer/GalleryViewer \
  --method org.gtk.Actions.Activate clear-cache '[]' '{}' >/dev/null || fail "could not activate clear-cache"
atspi_expect "after Clear Cache" --expect-text "Cache cleared:"
wait_for "$patience" bash -c "[ \$(find '$cache_dir/http' -maxdepth 1 -type f -name '[0-9]*' | wc -l) -eq 0 ]" \
  || fail "$(entry_files) entries left after Clear Cache"
[ ! -e "$cache_dir/last-gallery.json" ] || fail "the saved page is still there after Clear Cache"
import -window root "$shots/offline-3-cleared.png"
quit_app
[ ! -e "$cache_dir/last-gallery.thumbnails" ] || fail "the first screen was kept at quit after Clear Cache"
stop_server  # it lists its requests as it stops
grep -q '^gallery-demo-server: request /rss.xml' "$work/server.err" || fail "Ctrl+R did not ask the server for the feed"
assert_no_warnings "$work"/app*.log
echo "e2e offline: PASS"
