#!/usr/bin/env bash
# make test-asan: the whole XCTest suite built with AddressSanitizer (LeakSanitizer included) in a scratch
# directory of its own, run headless like `make test-unit`. Fails on any test failure, any memory error
# (use after free, overflow, double free: the process stops at the first), and any leak that is not one of
# the system libraries' own listed in lsan-suppressions.txt (each with the reason it is not ours).
#
#   Tests/AddressSanitizer/run.sh            (SWIFT, SWIFT_FLAGS and ASAN_BUILD_DIR from the Makefile)
#   ASAN_STACKS=full Tests/AddressSanitizer/run.sh --filter GalleryUITests.ItemActionTests
#                                            full allocation stacks, to find where a reported leak comes from
#
# Allocation stacks are unwound by frame pointers, which is cheap but stops at the first system library
# built without them (GLib, GTK, fontconfig): a leak of GLib memory then shows only "malloc, g_malloc".
# ASAN_STACKS=full unwinds with DWARF instead, about twice as slow, and slow enough to upset the UI tests'
# timing: use it to investigate one report, not for the whole suite.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
SWIFT=${SWIFT:-swift}
SWIFT_FLAGS=${SWIFT_FLAGS:-}
BUILD_DIR=${ASAN_BUILD_DIR:-.build-asan}
here=Tests/AddressSanitizer

start=$(date +%s)
# Only the test bundle (SwiftPM's <package>PackageTests product): the executables and the benchmarks are not
# needed here, and leaving them out saves a minute or two of a clean build.
# shellcheck disable=SC2086  # SWIFT_FLAGS is a list of flags
if ! $SWIFT build --product GalleryViewerPackageTests --scratch-path "$BUILD_DIR" --sanitize=address $SWIFT_FLAGS; then
  echo "test-asan: the AddressSanitizer build failed"; exit 1
fi
# The decoder helper the tests start: the plain debug build's (under AddressSanitizer its seccomp filter would
# stop the sanitizer's own report files and leak checker; the helper's safety is its sandbox, not ASan). The
# follow store's crash test kills a writer process: the debug build's too (what it proves is SQLite's).
# `make test` has built them already (DEBUG_PRODUCTS_BUILT=1) and runs the plain tests meanwhile, whose
# `swift test` holds SwiftPM's lock on that directory: a build there would wait for them to end.
for product in gallery-decoder gallery-test-follow-writer; do
  if [ -n "${DEBUG_PRODUCTS_BUILT:-}" ]; then
    [ -x "${DEBUG_BUILD_DIR:-.build}/debug/$product" ] || { echo "test-asan: ${DEBUG_BUILD_DIR:-.build}/debug/$product is missing"; exit 1; }
    continue
  fi
  # shellcheck disable=SC2086
  if ! $SWIFT build --product $product --scratch-path "${DEBUG_BUILD_DIR:-.build}" $SWIFT_FLAGS; then
    echo "test-asan: the build of $product failed"; exit 1
  fi
done
export GALLERY_DECODER GALLERY_TEST_FOLLOW_WRITER
GALLERY_DECODER=$(cd "${DEBUG_BUILD_DIR:-.build}/debug" && pwd)/gallery-decoder
GALLERY_TEST_FOLLOW_WRITER=$(cd "${DEBUG_BUILD_DIR:-.build}/debug" && pwd)/gallery-test-follow-writer
built=$(date +%s)
echo "test-asan: built in $((built - start)) s ($BUILD_DIR)"

reports=$(mktemp -d "${TMPDIR:-/tmp}/gallery-asan.XXXXXX")
trap 'rm -rf "$reports"' EXIT
unwind=fast_unwind_on_malloc=1
[ "${ASAN_STACKS:-}" = full ] && unwind=fast_unwind_on_malloc=0:malloc_context_size=40

# Reports go to files (one per process: the XCTest run, then Swift Testing's), read below. Leaks do not
# change the exit status (exitcode=0): they are judged here, so that a test failure and a leak say which.
# SWIFT_BACKTRACE=enable=no: the Swift runtime's backtracer and LeakSanitizer's stop-the-world both handle
# the process's threads at exit, and together they hung the run; ASan prints its own stacks.
# shellcheck disable=SC2086
ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1:halt_on_error=1:$unwind" \
LSAN_OPTIONS="suppressions=$root/$here/lsan-suppressions.txt:print_suppressions=0:exitcode=0" \
SWIFT_BACKTRACE=enable=no \
  .ci/headless "$SWIFT" test --skip-build --scratch-path "$BUILD_DIR" $SWIFT_FLAGS "$@"
status=$?
echo "test-asan: ran in $(($(date +%s) - built)) s"

# GLib's quark table block (see lsan-suppressions.txt, `_dl_init`) is the one leak a suppression cannot
# name under frame-pointer stacks: they end at g_malloc, like every other GLib allocation, so suppressing
# that frame would hide our own GLib leaks too. It is recognised by what it is: one block of 2048 pointers
# (16,384 bytes) whose stack is only malloc and g_malloc. The table grows by 2048 quarks at a time, each time
# into a new block and leaving the old one: with GTK and GStreamer loaded there are more than 4096 quarks,
# and LeakSanitizer reports the orphaned blocks of 16,384, 32,768… bytes together (n blocks: 16,384 ×
# n(n+1)/2 bytes), with that same stack. Everything else in a report fails the run.
unexpected=$(python3 - "$reports" <<'PY'
import glob, re, sys
out = []
for path in sorted(glob.glob(sys.argv[1] + "/asan.*")):
    text = open(path, errors="replace").read()
    # One record per blank-line separated block; leaks start with "Direct/Indirect leak of".
    for block in re.split(r"\n\s*\n", text):
        lines = [l for l in block.strip().splitlines() if l.strip()]
        if not lines:
            continue
        head = lines[0]
        frames = [l for l in lines[1:] if re.match(r"\s*#\d+ ", l)]
        size = re.match(r"Direct leak of (\d+) byte\(s\) in (\d+) object\(s\)", head)
        if size and len(frames) == 2 and " in malloc " in frames[0] and " in g_malloc " in frames[1] \
                and int(size.group(1)) == 16384 * int(size.group(2)) * (int(size.group(2)) + 1) // 2:
            continue  # GLib's orphaned quark blocks
        if re.search(r"(Direct|Indirect) leak of|ERROR: AddressSanitizer", block):
            out.append(block.strip())
print("\n\n".join(out))
PY
)
if [ -n "$unexpected" ]; then
  printf '%s\n' "$unexpected" | head -n 300
  echo "test-asan: AddressSanitizer reported the above (full stacks: ASAN_STACKS=full $here/run.sh --filter TEST)"
  exit 1
fi
if [ "$status" -ne 0 ]; then
  cat "$reports"/asan.* 2>/dev/null | head -n 200
  echo "test-asan: the tests failed under AddressSanitizer (exit $status)"
  exit 1
fi
echo "test-asan: no memory errors, no leaks of ours"
