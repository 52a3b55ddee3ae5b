#!/usr/bin/env bash
# Install check: `make install DESTDIR=<tmp> PREFIX=/usr`, then verify the tree, that the installed programs
# carry no dynamic dependency on the Swift runtime (static stdlib) and run without the toolchain, that the
# installed metadata validates as a whole, that the installed programs work (Tests/Install/smoke.sh: a search,
# the large view, --list, --download) and that `make uninstall` removes every file again.
#
#   Tests/Install/check.sh          (make check-install; make test runs it unless SKIP_INSTALL_CHECK=1)
set -uo pipefail

APP_ID=${APP_ID:-io.github.galleryviewer.GalleryViewer}
MAKE=${MAKE:-make}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

dest=$(mktemp -d "${TMPDIR:-/tmp}/gallery-viewer-install.XXXXXX")
trap 'rm -rf "$dest"' EXIT
prefix=/usr
share=$dest$prefix/share

passed=0 failed=0
pass() { passed=$((passed + 1)); echo "ok   $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
indent() { sed 's/^/       /'; }

echo "install-check: make install DESTDIR=$dest PREFIX=$prefix"
start=$(date +%s)
if ! "$MAKE" --no-print-directory install DESTDIR="$dest" PREFIX="$prefix" >"$dest.log" 2>&1; then
  tail -n 30 "$dest.log" | indent; rm -f "$dest.log"
  echo "install-check: make install failed"; exit 1
fi
rm -f "$dest.log"
pass "make install ($(( $(date +%s) - start )) s, release build included)"

# Every file we ship, where the desktop and the app expect it.
expect=(
  "$dest$prefix/bin/gallery-viewer"
  "$dest$prefix/bin/gallery-demo-server"
  "$dest$prefix/libexec/gallery-viewer/gallery-decoder"
  "$share/applications/$APP_ID.desktop"
  "$share/metainfo/$APP_ID.metainfo.xml"
  "$share/icons/hicolor/scalable/apps/$APP_ID.svg"
  "$share/icons/hicolor/symbolic/apps/$APP_ID-symbolic.svg"
)
for f in resources/*.css; do [ -f "$f" ] && expect+=("$share/gallery-viewer/$(basename "$f")"); done
for f in "${expect[@]}"; do
  [ -f "$f" ] && pass "installed ${f#$dest}" || fail "not installed: ${f#$dest}"
done
for p in gallery-viewer gallery-demo-server; do
  [ -x "$dest$prefix/bin/$p" ] && pass "$p is executable" || fail "$p is not executable"
done
for f in "$share/applications/$APP_ID.desktop" "$share/metainfo/$APP_ID.metainfo.xml"; do
  [ "$(stat -c %a "$f" 2>/dev/null)" = 644 ] && pass "${f#$dest} is mode 644" || fail "${f#$dest} is not mode 644"
done

# The demo gallery: the installed tree is the source tree (users.json, feeds, rendered images), dotfiles aside.
if [ -d data/demo ]; then
  if out=$(diff -r --exclude='.*' data/demo "$share/gallery-viewer/demo" 2>&1); then
    pass "demo data installed: $(find "$share/gallery-viewer/demo" -type f | wc -l) files in ${share#$dest}/gallery-viewer/demo"
  else
    fail "installed demo data differs from data/demo:"; printf '%s\n' "$out" | head -n 20 | indent
  fi
else
  fail "data/demo does not exist (make demo-data should have created data/demo/images)"
fi

# Static Swift stdlib: no libswift*, Foundation, libdispatch, BlocksRuntime or XCTest at run time.
for p in gallery-viewer gallery-demo-server libexec/gallery-viewer/gallery-decoder; do
  bin=$dest$prefix/bin/$p
  [ "${p#libexec/}" != "$p" ] && bin=$dest$prefix/$p
  libs=$(ldd "$bin" 2>&1)
  if grep -qiE 'libswift|libFoundation|libdispatch|libBlocksRuntime|libXCTest|_InternalSwift' <<<"$libs"; then
    fail "$p links the Swift runtime dynamically:"; grep -iE 'swift|Foundation|dispatch|Blocks|XCTest' <<<"$libs" | indent
  elif grep -q 'not found' <<<"$libs"; then
    fail "$p has unresolved libraries:"; grep 'not found' <<<"$libs" | indent
  else
    pass "$p: no Swift runtime libraries in ldd ($(wc -l <<<"$libs") libraries, all system ones)"
  fi
  if [ "$bin" != "${bin%gallery-decoder}" ]; then
    # The helper decodes a server's bytes: it links GLib and gdk-pixbuf (and libseccomp), not the network,
    # XML, database or widget libraries the app needs (fewer libraries to attack, to load and to relocate).
    if grep -E 'libsoup|libxml2|libsqlite|libgtk|libgdk-3' <<<"$libs" >/dev/null; then
      fail "$p links more than it needs:"; grep -E 'libsoup|libxml2|libsqlite|libgtk|libgdk-3' <<<"$libs" | indent
    else
      pass "$p: no libsoup, libxml2, sqlite or GTK in ldd"
    fi
    # It speaks only to the app: it is run through `gallery-viewer --version` below.
    continue
  fi
  # Runs with the toolchain out of reach: bare environment, no /opt/swift on PATH or in LD_LIBRARY_PATH.
  if out=$(env -i PATH=/usr/bin:/bin HOME="$dest" timeout --kill-after=10 120 "$bin" --help 2>&1); then
    pass "$p --help runs without the toolchain"
  else
    fail "$p --help failed without the toolchain:"; printf '%s\n' "$out" | head -n 10 | indent
  fi
done

# The installed app finds its installed decoder helper, which starts and greets with its protections on.
if out=$(env -i PATH=/usr/bin:/bin HOME="$dest" timeout --kill-after=10 120 "$dest$prefix/bin/gallery-viewer" --version 2>&1) \
    && grep -q 'separate processes, .*seccomp filter' <<<"$out"; then
  pass "gallery-viewer --version: $(grep 'Image decoding' <<<"$out")"
else
  fail "gallery-viewer --version does not report a working decoder helper:"; printf '%s\n' "$out" | head -n 5 | indent
fi

# LIBEXECDIR elsewhere: the install writes the helper's directory down and the app finds it there. Only the
# helper's part is installed again (install-decoder, the release build done above) and the installed app copied
# beside it, into a prefix of their own: without DESTDIR, since the app reads the path it runs from.
alt=$(mktemp -d "${TMPDIR:-/tmp}/gallery-viewer-libexec.XXXXXX") out=
if "$MAKE" --no-print-directory -s install-decoder PREFIX="$alt" LIBEXECDIR="$alt/lib/helpers" >"$alt.log" 2>&1 \
    && install -D -m 755 "$dest$prefix/bin/gallery-viewer" "$alt/bin/gallery-viewer" \
    && out=$(env -i PATH=/usr/bin:/bin HOME="$alt" timeout --kill-after=10 120 "$alt/bin/gallery-viewer" --version 2>&1) \
    && [ ! -e "$alt/libexec" ] && grep -q 'separate processes, .*seccomp filter' <<<"$out"; then
  pass "LIBEXECDIR elsewhere: gallery-viewer --version finds the helper in it ($(grep 'Image decoding' <<<"$out"))"
else
  fail "make install-decoder LIBEXECDIR=$alt/lib/helpers: the app does not find its helper:"
  { cat "$alt.log"; printf '%s\n' "${out:-}"; } | tail -n 10 | indent
fi
rm -rf "$alt" "$alt.log"

# The hostile test server (decompression bombs, gzip bombs, broken feeds) is for the tests, the benchmarks and
# `gallery-demo-server --hostile` only: the installed app must not carry it. gallery-demo-server must (it is the
# control that shows the search finds the symbols when they are there), and the app must have a symbol table
# at all, or the search would pass on a stripped binary that proves nothing.
hostile_symbols() { nm "$1" 2>/dev/null | grep -ci 'hostile'; }
app=$dest$prefix/bin/gallery-viewer server=$dest$prefix/bin/gallery-demo-server
app_symbols=$(nm "$app" 2>/dev/null | wc -l)
if [ "$app_symbols" -eq 0 ]; then
  fail "gallery-viewer has no symbol table: the hostile-code check cannot look"
elif [ "$(hostile_symbols "$app")" -ne 0 ] || strings "$app" | grep -qE 'HostileServer|billion-laughs|gzip-bomb'; then
  fail "gallery-viewer carries the hostile test server:"; { nm "$app" | grep -i hostile; strings "$app" | grep -E 'HostileServer|billion-laughs|gzip-bomb'; } | head -n 5 | indent
elif [ "$(hostile_symbols "$server")" -eq 0 ]; then
  fail "gallery-demo-server has no hostile symbols: the check would not see them in gallery-viewer either"
else
  pass "gallery-viewer carries no hostile test server (0 of $app_symbols symbols; gallery-demo-server has $(hostile_symbols "$server"))"
fi

# FoundationEssentials only (LayerTests): the whole of Foundation links ICU and its data into the app, which doubles
# its size and what the loader maps before `--download` sends its first request. The symbol table is there (above).
foundation_symbols=$(nm "$app" 2>/dev/null | grep -cE '\$s10Foundation|\$s30FoundationInternationalization|icudt[0-9]+_dat')
essentials_symbols=$(nm "$app" 2>/dev/null | grep -c '\$s20FoundationEssentials')
if [ "$foundation_symbols" -ne 0 ]; then
  fail "gallery-viewer links Foundation, FoundationInternationalization or ICU's data ($foundation_symbols symbols; FoundationEssentials is enough)"
elif [ "$essentials_symbols" -eq 0 ]; then
  fail "gallery-viewer has no FoundationEssentials symbols: the Foundation check would not see Foundation's either"
else
  pass "gallery-viewer links FoundationEssentials ($essentials_symbols symbols), not Foundation; $(du -h "$app" | cut -f1)"
fi

# The installed metadata as a whole (metainfo + desktop entry + icon, as GNOME Software's tooling sees it).
out=$(appstreamcli validate-tree --no-net "$dest$prefix" 2>&1); rc=$?
if [ $rc -eq 0 ] && ! grep -qE '^[EW]:' <<<"$out"; then
  pass "appstreamcli validate-tree --no-net"
else
  fail "appstreamcli validate-tree --no-net (exit $rc):"; printf '%s\n' "$out" | indent
fi

# The installed programs at work, as a user runs them: Tests/Install/smoke.sh drives the installed gallery-viewer
# (--list, --download, a search, the large view) on the installed gallery-demo-server, under .ci/headless.
# Bounded by timeout like every launch in the tests: it only fires when something hangs.
smoke_log=$dest.smoke.log
start=$(date +%s)
if GALLERY_VIEWER=$app GALLERY_DEMO_SERVER=$server timeout --kill-after=10 900 .ci/headless bash Tests/Install/smoke.sh \
     >"$smoke_log" 2>&1; then
  pass "release smoke pass of the installed programs ($(( $(date +%s) - start )) s):"; grep '^install smoke: ' "$smoke_log" | indent
else
  fail "release smoke pass of the installed programs (exit $?):"; tail -n 40 "$smoke_log" | indent
fi
rm -f "$smoke_log"

# Uninstall removes every file it installed (empty directories may stay: they may be shared).
if "$MAKE" --no-print-directory -s uninstall DESTDIR="$dest" PREFIX="$prefix" >/dev/null 2>&1; then
  left=$(find "$dest" -mindepth 1 ! -type d)
  [ -z "$left" ] && pass "make uninstall removed every file" || { fail "make uninstall left files:"; printf '%s\n' "$left" | head | indent; }
else
  fail "make uninstall failed"
fi

# Translations: no language is listed yet, so the tree above has none; the rule must work all the same. With
# the test language listed (data/fixtures/translation/xx.po), install-translated compiles its catalogue into
# share/locale and merges it into the desktop entry and the metainfo, which still validate; uninstall removes
# the catalogue again.
po=$(mktemp -d "${TMPDIR:-/tmp}/gallery-viewer-po.XXXXXX")
trap 'rm -rf "$dest" "$po"' EXIT
cp data/fixtures/translation/xx.po "$po/" && echo xx >"$po/LINGUAS"
catalogue=$share/locale/xx/LC_MESSAGES/gallery-viewer.mo
if out=$("$MAKE" --no-print-directory install-translated DESTDIR="$dest" PREFIX="$prefix" PO_DIR="$po" 2>&1); then
  [ -f "$catalogue" ] && [ "$(stat -c %a "$catalogue")" = 644 ] && msgunfmt "$catalogue" | grep -q 'Hauptmenü (xx)' \
    && pass "a listed language is compiled to ${catalogue#$dest}" || fail "no readable catalogue at ${catalogue#$dest}"
  grep -qxF 'Name[xx]=Galerie-Betrachter (xx)' "$share/applications/$APP_ID.desktop" \
    && out=$(desktop-file-validate "$share/applications/$APP_ID.desktop" 2>&1) && [ -z "$out" ] \
    && pass "the desktop entry carries the translation and validates" \
    || { fail "the translated desktop entry:"; { printf '%s\n' "$out"; grep '^Name' "$share/applications/$APP_ID.desktop"; } | indent; }
  grep -qF '<summary xml:lang="xx">Bildergalerien im Netz ansehen (xx)</summary>' "$share/metainfo/$APP_ID.metainfo.xml" \
    && out=$(appstreamcli validate --no-net "$share/metainfo/$APP_ID.metainfo.xml" 2>&1) && ! grep -qE '^[EW]:' <<<"$out" \
    && pass "the metainfo carries the translation and validates" \
    || { fail "the translated metainfo:"; printf '%s\n' "$out" | indent; }
  "$MAKE" --no-print-directory -s uninstall DESTDIR="$dest" PREFIX="$prefix" PO_DIR="$po" >/dev/null 2>&1
  left=$(find "$dest" -mindepth 1 ! -type d)
  [ -z "$left" ] && pass "make uninstall removed the catalogue" || { fail "make uninstall left:"; printf '%s\n' "$left" | indent; }
else
  fail "make install-translated with a language listed failed:"; printf '%s\n' "$out" | tail -n 20 | indent
fi

echo "install-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
