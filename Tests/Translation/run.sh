#!/usr/bin/env bash
# Translation test of the real binary: the made-up language "xx" (data/fixtures/translation/xx.po) is compiled
# into a locale folder of its own, and the app runs in it with LANGUAGE=xx LANG=C.UTF-8 and
# GALLERY_VIEWER_LOCALEDIR pointing there, as a user's language and an installed catalogue would:
#   - the command line: an error with two placeholders in another order, a usage error;
#   - the window, read over AT-SPI as a screen reader reads it: the title, the header bar's names, the
#     subtitle with plural forms (24 → the second of three) and its parts reordered, a failed row's retry button
#     whose translation repeats and misspells its placeholder, and a status page handed over by a second
#     launch (placeholder moved);
#   - and the same checks in English without LANGUAGE, so the test cannot pass without translating.
# Run through .ci/headless (X display, session bus); starts its own accessibility bus as test-a11y does.
set -euo pipefail

: "${GALLERY_VIEWER:?path of the gallery-viewer binary}"
: "${GALLERY_DEMO_SERVER:?path of the gallery-demo-server binary}"
: "${DISPLAY:?an X display (run through .ci/headless)}"
: "${DBUS_SESSION_BUS_ADDRESS:?a session bus (run through .ci/headless)}"
for tool in msgfmt msgmerge xdotool; do
  command -v "$tool" >/dev/null || { echo "translation: '$tool' not found; run 'make test-deps'" >&2; exit 1; }
done

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../EndToEnd/helpers.sh
. "$root/Tests/EndToEnd/helpers.sh"
# shellcheck source=../Accessibility/atspi-bus.sh
. "$root/Tests/Accessibility/atspi-bus.sh"
app_id=io.github.galleryviewer.GalleryViewer
fixture=$root/data/fixtures/translation/xx.po
template=$root/resources/po/gallery-viewer.pot
scratch_and_cleanup translation

# 1. The catalogue. Its texts must still be the app's: a text changed in the code would otherwise just stay
#    English here, and the failure below would not say why.
stale=$(msgmerge --quiet --no-fuzzy-matching -o - "$fixture" "$template" | grep -A1 '^#~ msgid' || true)
[ -z "$stale" ] || fail "texts of ${fixture#$root/} that are no longer in the template (make pot):"$'\n'"$stale"
mkdir -p "$work/locale/xx/LC_MESSAGES"
msgfmt --check -o "$work/locale/xx/LC_MESSAGES/gallery-viewer.mo" "$fixture" || fail "msgfmt ${fixture#$root/}"
in_xx=(env LANGUAGE=xx LANG=C.UTF-8 GALLERY_VIEWER_LOCALEDIR="$work/locale")

# The bus first: a window started just after at-spi-bus-launcher failed to open the display (seen twice here).
start_atspi_bus "$work/launcher.log" || fail "no accessibility bus"
start_demo_server server

# 2. The command line, which never starts GTK: the locale is the app's own doing.
list_error() { bounded "$@" --list --source demo --endpoint "$base_url" nosuchuser 2>&1 >/dev/null || true; }
english=$(list_error "$GALLERY_VIEWER")
[ "$english" = 'gallery-viewer: No such user: nosuchuser. Demo has no user called “nosuchuser”. Check the spelling.' ] \
  || fail "--list in English said: $english"
translated=$(list_error "${in_xx[@]}" "$GALLERY_VIEWER")
[ "$translated" = 'gallery-viewer: Unbekannt: nosuchuser (xx) – Demo kennt „nosuchuser“ nicht. (xx)' ] \
  || fail "--list in xx said: $translated"
usage=$(bounded "${in_xx[@]}" "$GALLERY_VIEWER" --list 2>&1 || true)
grep -qF -- '--list braucht einen USERNAME oder Profil-LINK. (xx)' <<<"$usage" || fail "the usage error in xx: $usage"
echo "translation: command line ok"

# 3. The window.
LANGUAGE=xx LANG=C.UTF-8 GALLERY_VIEWER_LOCALEDIR="$work/locale" launch_app app.log --source demo --endpoint "$base_url" aurora
wait_for_app_window '^Galerie-Betrachter \(xx\)$' \
  || fail "no window titled in xx (windows: $(xdotool search --onlyvisible --name . getwindowname %@ 2>/dev/null | tr '\n' '|'))"
place_window 800 1000

# aurora's first page: 24 images ("24" takes xx's second plural form, as in Polish), some failing on purpose;
# the subtitle's parts come in the catalogue's order, failures first.
atspi_expect "the gallery in xx" \
  --expect "Hauptmenü (xx)" --expect "Quelle (xx)" --expect "Benutzername (xx)" \
  --expect "HTTP 404 Not Found / HTTP 404 Not Found / {reasn} (xx)" \
  --expect-text "fehlgeschlagen (xx) · " --expect-text " · 24 Bilder (xx)" --expect-no-text "24 images"

# A second launch hands its search over to the running window: its status page, placeholder moved.
bounded "${in_xx[@]}" "$GALLERY_VIEWER" --source demo --endpoint "$base_url" empty || fail "the second launch failed"
atspi_expect "the status page in xx" \
  --expect-text "Noch keine Bilder von empty (xx)" --expect-text "Diese Galerie ist leer. (xx)"

assert_no_warnings "$work/app.log"
kill "$app_pid"  # quits as Ctrl+Q does, giving up the app's name on the bus
wait "$app_pid" 2>/dev/null || true
app_pid=

# 4. The same window without LANGUAGE speaks English: what was checked above came from the catalogue.
launch_app app.log --source demo --endpoint "$base_url" aurora
wait_for_app_window || fail "no window titled in English"
atspi_expect "the gallery in English" \
  --expect "Main Menu" --expect "Source" --expect "Retry: HTTP 404 Not Found" --expect-text "24 images, " --expect-no-text "(xx)"
echo "translation: PASS"
