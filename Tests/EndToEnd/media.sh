#!/usr/bin/env bash
# End-to-end test of videos and sounds with the real binaries (run it through .ci/headless, as `make test-e2e`
# does): the demo server's Mastodon galleries hold gifvs, videos and sounds (made at build time by
# gallery-demo-images; aurora has a gifv and a video, atlas the sound too) →
#   --list --json names their media → --download saves them byte for byte like the pictures, --images-only
#   leaves them out; Commons' WebM videos and Ogg sounds likewise → in the window, the gifv opens, moves by itself (its frames change on screen) and the app
#   never maps libsoup 3 while it plays; the animated GIF and WebP move too, with no gdk-pixbuf loader module
#   mapped in the app (their frames come from the decoder helpers).
# Screenshots are kept in $E2E_SHOTS (default .build/e2e).
set -euo pipefail

: "${GALLERY_VIEWER:?path of the gallery-viewer binary}"
: "${GALLERY_DEMO_SERVER:?path of the gallery-demo-server binary}"
: "${DISPLAY:?an X display (run through .ci/headless)}"
for tool in xdotool import convert compare; do
  command -v "$tool" >/dev/null || { echo "e2e media: '$tool' not found; run 'make test-deps'" >&2; exit 1; }
done

shots=${E2E_SHOTS:-$(pwd)/.build/e2e}
mkdir -p "$shots"
# shellcheck source=helpers.sh
. "$(dirname "$0")/helpers.sh"
scratch_and_cleanup "e2e media"
on_fail() {
  import -window root "$shots/media-failure.png" 2>/dev/null && echo "e2e media: screen at failure: $shots/media-failure.png" >&2
}
media_dir=$(pwd)/data/demo/images/media
[ -s "$media_dir/loop.mp4" ] || fail "no demo media in $media_dir; run 'make demo-data'"

start_demo_server server
account=(--source mastodon --endpoint "$base_url" aurora@demo.test)

# 1. --list --json names each video's and sound's own file; the gifv loops.
bounded "$GALLERY_VIEWER" --list --json "${account[@]}" >"$work/list.json" || fail "--list failed"
grep -q '"kind":"video".*"loops":true.*"media_url":"http[^"]*/media/loop.mp4"' "$work/list.json" || fail "--list names no gifv"
grep -q '"duration":6,.*"media_url":"http[^"]*/media/clip.webm"' "$work/list.json" || fail "--list names no video"
bounded "$GALLERY_VIEWER" --list --json --source mastodon --endpoint "$base_url" atlas@demo.test >"$work/atlas.json" \
  || fail "--list atlas failed"
grep -q '"kind":"audio".*"media_url":"http[^"]*/media/sound.ogg"' "$work/atlas.json" || fail "--list names no sound"

# 2. --download saves them byte for byte next to the pictures; --images-only leaves them out. (aurora's
#    broken pictures fail as they should, so the status is 1: what counts is what was saved.)
status=0
bounded "$GALLERY_VIEWER" --download "$work/all" "${account[@]}" >"$work/download.log" 2>&1 || status=$?
[ "$status" -le 1 ] || fail "--download ended with status $status: $(cat "$work/download.log")"
saved=0
while IFS= read -r -d '' file; do
  case $file in
    *.mp4) original=loop.mp4 ;;
    *.webm) original=clip.webm ;;
    *.ogg) original=sound.ogg ;;
    *) continue ;;
  esac
  cmp -s "$file" "$media_dir/$original" || fail "$file is not byte for byte $original"
  saved=$((saved + 1))
done < <(find "$work/all" -type f -print0)
[ "$saved" -ge 2 ] || fail "--download saved $saved videos"
status=0
bounded "$GALLERY_VIEWER" --download "$work/images" --images-only "${account[@]}" >/dev/null 2>&1 || status=$?
[ "$status" -le 1 ] || fail "--download --images-only ended with status $status"
[ -z "$(find "$work/images" -type f \( -name '*.mp4' -o -name '*.webm' -o -name '*.ogg' \))" ] \
  || fail "--images-only saved videos or sounds"
[ -n "$(find "$work/images" -type f -name '*.jpg')" ] || fail "--images-only saved no pictures"
echo "e2e media: --download saved $saved videos byte for byte; --images-only none"

# 2b. Commons, through the demo server's MediaWiki API: its WebM videos and Ogg sounds are listed with their
#     length and saved byte for byte (its broken pictures fail as on Mastodon, so the status is 1).
commons=(--source commons --endpoint "$base_url" aurora)
bounded "$GALLERY_VIEWER" --list --json "${commons[@]}" >"$work/commons.json" || fail "--list --source commons failed"
grep -q '"duration":6,.*"kind":"video".*"media_url":"http[^"]*/media/clip.webm"' "$work/commons.json" \
  || fail "--list --source commons names no WebM video"
grep -q '"duration":4,.*"kind":"audio".*"media_url":"http[^"]*/media/sound.ogg"' "$work/commons.json" \
  || fail "--list --source commons names no Ogg sound"
status=0
bounded "$GALLERY_VIEWER" --download "$work/commons" "${commons[@]}" >"$work/commons.log" 2>&1 || status=$?
[ "$status" -le 1 ] || fail "--download --source commons ended with status $status: $(cat "$work/commons.log")"
commons_media=0
while IFS= read -r -d '' file; do
  case $file in *.webm) original=clip.webm ;; *.ogg) original=sound.ogg ;; *) continue ;; esac
  cmp -s "$file" "$media_dir/$original" || fail "$file is not byte for byte $original"
  commons_media=$((commons_media + 1))
done < <(find "$work/commons" -type f -print0)
[ "$commons_media" -eq "$(grep -c '"media_url"' "$work/commons.json")" ] \
  || fail "--download --source commons saved $commons_media of its videos and sounds"
echo "e2e media: Commons lists and saves its $commons_media videos and sounds"

# 2c. Bluesky: each video is played and saved from the original on the account's PDS, which its DID document
#     (the demo server stands for the PLC directory too) names: `getBlob` by the video's CID.
bluesky=(--source bluesky --endpoint "$base_url" atlas.demo.test)
bounded "$GALLERY_VIEWER" --list --json "${bluesky[@]}" >"$work/bluesky.json" || fail "--list --source bluesky failed"
bluesky_videos=$(grep -c '"kind":"video"' "$work/bluesky.json")
[ "$bluesky_videos" -gt 0 ] && [ "$bluesky_videos" -eq "$(grep -c '"kind":"video","media_url":"http[^"]*/xrpc/com.atproto.sync.getBlob?did=did%3Aplc%3A[a-z2-7]*&cid=bafkrei' "$work/bluesky.json")" ] \
  || fail "--list --source bluesky: not every video is played from the PDS"
bounded "$GALLERY_VIEWER" --download "$work/bluesky" "${bluesky[@]}" >"$work/bluesky.log" 2>&1 \
  || fail "--download --source bluesky failed: $(cat "$work/bluesky.log")"
bluesky_saved=0
while IFS= read -r -d '' file; do
  cmp -s "$file" "$media_dir/clip.webm" || fail "$file is not byte for byte the video's original"
  bluesky_saved=$((bluesky_saved + 1))
done < <(find "$work/bluesky" -type f -name '*.mp4' -print0)
[ "$bluesky_saved" -eq "$bluesky_videos" ] || fail "--download --source bluesky saved $bluesky_saved of $bluesky_videos videos"
echo "e2e media: Bluesky lists and saves its $bluesky_videos videos from the PDS"

# 3. The window: the first gifv's row (its place in the list) opens with Return, and its frames move.
row=$(grep -n '"loops":true' "$work/list.json" | head -n 1 | cut -d: -f1)
title=$(sed -n "${row}p" "$work/list.json" | sed 's/.*"title":"\([^"]*\)".*/\1/')
launch_app app.log "${account[@]}"
wait_for_app_window || fail "no window"
place_window 800 760
wait_for "$patience" is_colourful "$thumbnails" 0.20 || fail "no thumbnails for aurora"
xdotool windowfocus --sync "$window"
xdotool mousemove --window "$window" 400 120 click 1
xdotool key Home
for _ in $(seq 2 "$row"); do xdotool key Down; done
xdotool key Return
wait_for "$patience" name_is "$title" || fail "the gifv did not open (window title: '$(window_name)', expected '$title')"
video=600x300+100+200
save_region "$video" first
moved() { [ "$(pixels_changed "$video" first)" -gt 500 ]; }
wait_for "$patience" moved || fail "the gifv's frames did not move on screen"
import -window "$window" "$shots/media-gifv.png"
pid=$(app_process)
if grep -q 'libsoup-3' "/proc/$pid/maps"; then fail "libsoup 3 is mapped while a video plays"; fi
grep -q 'libgstreamer-1.0' "/proc/$pid/maps" || fail "GStreamer is not mapped: what played?"
echo "e2e media: the gifv played in the window, no libsoup 3 mapped"

# 4. The animated GIF and WebP play, decoded in the helpers only: the app maps no gdk-pixbuf loader module
#    for a server's bytes. (GTK may load the SVG loader for its own symbolic icons, so that one is allowed.)
for format in gif webp; do
  row=$(grep -n "\"file_name\":\"[^\"]*\.$format\"" "$work/list.json" | head -n 1 | cut -d: -f1)
  [ -n "$row" ] || fail "--list names no $format"
  title=$(sed -n "${row}p" "$work/list.json" | sed 's/.*"title":"\([^"]*\)".*/\1/')
  xdotool key Escape
  xdotool key Home
  for _ in $(seq 2 "$row"); do xdotool key Down; done
  xdotool key Return
  wait_for "$patience" name_is "$title" || fail "the $format did not open (window title: '$(window_name)')"
  save_region "$video" "$format"
  moved() { [ "$(pixels_changed "$video" "$format")" -gt 500 ]; }
  wait_for "$patience" moved || fail "the $format's frames did not move on screen"
  import -window "$window" "$shots/media-$format.png"
  grep -q 'libgdk_pixbuf-2.0' "/proc/$pid/maps" || fail "gdk-pixbuf is not mapped: is this the app's map?"
  if grep 'libpixbufloader-' "/proc/$pid/maps" | grep -qv 'libpixbufloader-svg'; then
    fail "the app mapped a gdk-pixbuf loader while the $format played: $(grep -o 'libpixbufloader-[a-z0-9]*' "/proc/$pid/maps" | sort -u | tr '\n' ' ')"
  fi
done
quit_app
assert_no_warnings "$work/app.log"
echo "e2e media: the GIF and the WebP played in the window, no gdk-pixbuf loader mapped in the app"
