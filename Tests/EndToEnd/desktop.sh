#!/usr/bin/env bash
# End-to-end test of what the large view hands to the desktop, with the real binary driven like a user (run it
# through .ci/headless, as `make test-e2e` does): aurora's first photo open →
#   Ctrl+F8 (Set as Background): the original lands in ~/.local/share/backgrounds, byte for byte, and GNOME's
#     background setting names it (no portal runs on the test's bus; GSettings writes a keyfile here);
#   Ctrl+Shift+O (Open With): GTK's chooser offers the type's default application (a desktop entry of the
#     test's own, which copies the file it is given) and its Select button, pressed over AT-SPI as assistive
#     technology presses it, launches that on the original;
#   Ctrl+P (Print): GTK's print dialog, "Print to File" chosen and printed with the keyboard, writes a PDF of
#     one page carrying the photo as a JPEG.
# Screenshots go to $E2E_SHOTS (default .build/e2e).
set -euo pipefail

: "${GALLERY_VIEWER:?path of the gallery-viewer binary}"
: "${GALLERY_DEMO_SERVER:?path of the gallery-demo-server binary}"
: "${DISPLAY:?an X display (run through .ci/headless)}"
: "${DBUS_SESSION_BUS_ADDRESS:?a session bus (run through .ci/headless)}"
: "${XDG_DATA_HOME:?a throwaway data directory (run through .ci/headless)}"
: "${XDG_CONFIG_HOME:?a throwaway config directory (run through .ci/headless)}"
for tool in xdotool import convert gdbus; do
  command -v "$tool" >/dev/null || { echo "e2e desktop: '$tool' not found; run 'make test-deps'" >&2; exit 1; }
done

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=helpers.sh
. "$here/helpers.sh"
# shellcheck source=../Accessibility/atspi-bus.sh
. "$here/../Accessibility/atspi-bus.sh"
app_id=io.github.galleryviewer.GalleryViewer
shots=${E2E_SHOTS:-$(pwd)/.build/e2e}
mkdir -p "$shots"
scratch_and_cleanup "e2e desktop"
on_fail() {
  import -window root "$shots/desktop-failure.png" 2>/dev/null && echo "e2e desktop: screen at failure: $shots/desktop-failure.png" >&2
}
photo=aurora-001-aurora-over-the-harbour.jpg
whole_pdf() { [ -s "$pdf" ] && tail -c 16 "$pdf" | grep -q '%%EOF'; }
# atspi_do --select|--press|--find NAME: that, over AT-SPI, on the app's window or dialogs (atspi_do.py).
atspi_do() { E2E_PATIENCE=$patience bounded /usr/bin/python3 "$here/../Accessibility/atspi_do.py" "$app_id" "$@"; }
originals=$(cd "$here/../../data/demo/images/full" && pwd)
[ -f "$originals/$photo" ] || fail "the demo images are not rendered (make demo-data)"

# The test's own application for JPEG: it notes the GDK_GL it was given (the app leaves GL off for itself only),
# then copies its argument to $received (atomically, so a half copy is never compared).
received=$work/opened.jpg
mkdir -p "$XDG_DATA_HOME/applications" "$XDG_CONFIG_HOME"
printf '#!/bin/sh\necho "GDK_GL=${GDK_GL-unset}" >"%s.env"\ncp "$1" "%s.part" && mv "%s.part" "%s"\n' \
  "$received" "$received" "$received" "$received" >"$work/opener.sh"
chmod +x "$work/opener.sh"
printf '[Desktop Entry]\nType=Application\nName=Test Opener\nExec=%s %%f\nMimeType=image/jpeg;\n' "$work/opener.sh" \
  >"$XDG_DATA_HOME/applications/gallery-test-opener.desktop"
printf '[Default Applications]\nimage/jpeg=gallery-test-opener.desktop\n' >"$XDG_CONFIG_HOME/mimeapps.list"
# GTK's print dialog with its "Print to File" printer only: its CUPS backend would look for printers over the
# system bus, which the test's session lacks (GTK warns), and no printer here is to be reached anyway.
mkdir -p "$XDG_CONFIG_HOME/gtk-3.0"
printf '[Settings]\ngtk-print-backends=file\n' >"$XDG_CONFIG_HOME/gtk-3.0/settings.ini"

start_atspi_bus "$work/launcher.log" || fail "no accessibility bus"
start_demo_server server
# GSettings in a keyfile this script can read (.ci/headless's memory backend lives and dies with the app). In
# the scratch folder: "Print to File" writes output.pdf into the app's working directory.
cd "$work"
GSETTINGS_BACKEND=keyfile launch_app app.log --source demo --endpoint "$base_url" aurora
wait_for_app_window || fail "no window"
place_window 800 760
wait_for "$patience" is_colourful "$thumbnails" 0.20 || fail "no thumbnails for aurora"
open_first_row "Aurora over the Harbour"

# 1. Set as Background. The test's bus is private but starts any service the machine has installed: where
#    xdg-desktop-portal is, its own dialog would answer, so this step is for machines without one (CI's).
keyfile=$XDG_CONFIG_HOME/glib-2.0/settings/keyfile
if gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
     --method org.freedesktop.DBus.ListActivatableNames | grep -q "'org.freedesktop.portal.Desktop'"; then
  echo "e2e desktop: Set as Background skipped: xdg-desktop-portal is installed here"
else
  xdotool windowfocus --sync "$window"
  xdotool key ctrl+F8
  # Saved as TIME-NAME: never in the place of a file of the user's.
  background_file() { background=$(find "$XDG_DATA_HOME/backgrounds" -name "*-$photo" 2>/dev/null | head -n 1) && [ -n "$background" ]; }
  names_background() { background_file && grep -qs "^picture-uri='file://$background'" "$keyfile"; }
  wait_for "$patience" names_background || fail "GNOME's background setting does not name the saved photo ($(cat "$keyfile" 2>/dev/null))"
  cmp -s "$background" "$originals/$photo" || fail "the background is not the original, byte for byte"
  echo "e2e desktop: Set as Background saved the original and set GNOME's background to it"
fi

# 2. Open With: the chooser offers the type's default application first, chosen; Select launches it.
xdotool windowfocus --sync "$window"
xdotool key ctrl+shift+o
# Never Select another application of the machine's (ImageMagick's display claims JPEG too).
atspi_do --selected "Test Opener" || fail "the application chooser did not choose Test Opener first"
import -window root "$shots/desktop-open-with.png" 2>/dev/null || true
atspi_do --press "Select" || fail "the chooser's Select button could not be pressed"
wait_for "$patience" test -s "$received" || fail "Test Opener was not launched on the original"
cmp -s "$received" "$originals/$photo" || fail "Test Opener did not get the original, byte for byte"
[ "$(cat "$received.env")" = "GDK_GL=unset" ] || fail "Test Opener was started with $(cat "$received.env"), not the user's environment"
echo "e2e desktop: Open With launched the default application on the original"

# 3. Print: "Print to File" in GTK's dialog, chosen and printed with the keyboard (Down selects the first
#    printer, Alt+P presses Print), tried again until the PDF is there: the dialog lists its printers after it
#    opens. Not over AT-SPI: reading the dialog's tabbed pages, which it swaps when a printer is chosen, makes
#    GTK's notebook accessibility emit a critical (gtk_notebook_get_tab_label) once the dialog goes.
#    Its default output is output.pdf in the working directory.
pdf=$work/output.pdf
xdotool windowfocus --sync "$window"
xdotool key ctrl+p
find_print_dialog() { print_dialog=$(xdotool search --onlyvisible --pid "$(app_process)" --name '^Print$' 2>/dev/null | head -n 1) && [ -n "$print_dialog" ]; }
wait_for "$patience" find_print_dialog || fail "Ctrl+P opened no print dialog"
import -window root "$shots/desktop-print-dialog.png" 2>/dev/null || true
print_to_file() {
  if find_print_dialog; then
    xdotool windowfocus --sync "$print_dialog" 2>/dev/null || true
    xdotool key Down alt+p
  fi
  whole_pdf
}
wait_for "$patience" print_to_file || fail "no PDF at $pdf"
pages=$(grep -ac '/Type /Page\b' "$pdf" || true)  # not /Pages, the page tree
[ "$pages" -eq 1 ] || fail "the PDF has $pages pages, not one"
grep -aq '/DCTDecode' "$pdf" || fail "the PDF does not carry the photo as a JPEG"
grep -aq '/Width 4000' "$pdf" || fail "the PDF's photo is not at full resolution"
echo "e2e desktop: Print wrote a one-page PDF of the photo"

import -window "$window" "$shots/desktop-after.png" 2>/dev/null || true
quit_app
assert_no_warnings "$work/app.log"
echo "e2e desktop: PASS"
