#!/usr/bin/env bash
# The benchmarks behind `make bench`: speed and memory goals are checked here, never by timed unit tests.
#
#   Tests/Benchmarks/run.sh [SCENARIO...]      (default: all; see Tests/Benchmarks/main.swift)
#
# Builds `gallery-benchmarks`, `gallery-soup-floor` (a bare libsoup client it times) and the app (`launch` starts it) in release mode
# (outside the headless wrapper: SwiftPM keeps its caches under the real HOME), then runs each scenario as its
# own process inside .ci/headless (Xvfb, private D-Bus, throwaway HOME). Each scenario prints a table and one
# `PASS goal …`/`FAIL goal …` line per goal; at the end the goal lines are repeated as a summary. Exit status:
# 0 when every goal passed, 1 otherwise (a scenario that crashed or broke off counts as failed). A run of every
# scenario also writes the goal lines as a table to docs/PERFORMANCE.md, with the machine, its load and the date.
#
# Environment (the Makefile passes them): SWIFT, BUILD_DIR (SwiftPM scratch path), SWIFT_FLAGS.
# The demo gallery must be rendered (make demo-data-release, a prerequisite of `make bench`).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

scenarios=("$@")
# A run of every scenario writes its goals to docs/PERFORMANCE.md; PERFORMANCE_DOC=PATH writes any run's there.
[ ${#scenarios[@]} -gt 0 ] || export PERFORMANCE_DOC=${PERFORMANCE_DOC:-$root/docs/PERFORMANCE.md}
[ ${#scenarios[@]} -gt 0 ] || scenarios=(mainloop thumbnails throughput memory scroll zoom hostile relaunch launch fullcache end10k end100k jump gridend10k gridend100k gridjump baselines download sandbox playback followcheck)

# The New view's scenarios (issue 28), after the others.
[ $# -gt 0 ] || scenarios+=(newview newviewcheck)

if [ -z "${GALLERY_BENCH_INSIDE:-}" ]; then
  swift=${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}
  build_dir=${BUILD_DIR:-.build}
  case "$build_dir" in /*) ;; *) build_dir=$root/$build_dir ;; esac
  # The same flags as the Makefile's release build, so the shared modules are built once for both.
  for product in gallery-benchmarks gallery-soup-floor gallery-decoder gallery-viewer; do
    # shellcheck disable=SC2086
    "$swift" build --scratch-path "$build_dir" ${SWIFT_FLAGS:-} -c release --static-swift-stdlib \
      --product "$product" || exit 1
  done
  export GALLERY_BENCHMARKS="$build_dir/release/gallery-benchmarks"
  [ -x "$GALLERY_BENCHMARKS" ] || { echo "bench: $GALLERY_BENCHMARKS was not built" >&2; exit 1; }
  echo "bench: $(nproc) cores, $(uptime | sed 's/.*load average/load average/')"
  export GALLERY_BENCH_LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)
  # The commit the binaries were built from, read now: the tree may change while the scenarios run.
  commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
  git -C "$root" diff --quiet HEAD -- Sources Tests Package.swift 2>/dev/null || commit="$commit with local changes"
  export GALLERY_BENCH_COMMIT=$commit
  GALLERY_BENCH_INSIDE=1 exec .ci/headless bash "$0" "${scenarios[@]}"
fi

# A desktop always has a window manager; a bare Xvfb has none, and then GTK 3 looks for one again on every frame
# (gdk_x11_screen_supports_net_wm_hint: a synchronous XGetWindowProperty, which waits for the X server, busy
# drawing the last frame, and which a desktop never makes because GDK keeps the window manager it found). So
# the root window names itself as an EWMH window manager that supports nothing, and GTK behaves as without one.
# The helper stays connected while the scenarios run: Xvfb resets (and forgets the properties) when its last
# client leaves.
read -r -d '' wm_stand_in_script <<'EOF' || true
import ctypes, signal, sys
x11 = ctypes.cdll.LoadLibrary("libX11.so.6")
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x11.XDefaultRootWindow.restype = ctypes.c_ulong
x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
x11.XInternAtom.restype = ctypes.c_ulong
x11.XChangeProperty.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_int,
                                ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
x11.XCreateSimpleWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong] + [ctypes.c_int] * 4 + [ctypes.c_uint,
                                    ctypes.c_ulong, ctypes.c_ulong]
x11.XCreateSimpleWindow.restype = ctypes.c_ulong
display = x11.XOpenDisplay(None)
if not display:
    sys.exit("bench: no X display for the window-manager stand-in")
root = x11.XDefaultRootWindow(display)
window = x11.XCreateSimpleWindow(display, root, -10, -10, 1, 1, 0, 0, 0)  # never mapped
check = x11.XInternAtom(display, b"_NET_SUPPORTING_WM_CHECK", 0)
supported = x11.XInternAtom(display, b"_NET_SUPPORTED", 0)
XA_ATOM, XA_WINDOW, REPLACE = 4, 33, 0
for target in (window, root):
    x11.XChangeProperty(display, target, check, XA_WINDOW, 32, REPLACE, (ctypes.c_ulong * 1)(window), 1)
x11.XChangeProperty(display, root, supported, XA_ATOM, 32, REPLACE, (ctypes.c_ulong * 1)(check), 1)
x11.XSync(display, 0)
signal.pause()
EOF
python3 -c "$wm_stand_in_script" </dev/null &
wm_stand_in=$!
trap 'kill "$wm_stand_in" 2>/dev/null || true' EXIT
sleep 0.5

# GDK 3 on X11 sets up GLX when it opens the display (to pick visuals), which maps the GL driver: under Xvfb,
# Mesa's llvmpipe and libLLVM, 52 MiB of resident memory (file-backed) that the app never uses. Xvfb let only the
# first GTK process of a session load it, so one scenario's memory depended on its place in the run (a window
# baseline of 101 MiB first, 49 MiB after). Without GL every scenario measures the app alone.
export GDK_GL=disable

# docs/PERFORMANCE.md: every goal line of this run as a table, with the machine and the date, so the numbers
# the docs quote come from one run of this tool.
write_performance_doc() {
  local cpu memory
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
  memory=$(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
  {
    echo "# Performance"
    echo
    echo "Written by \`make bench\` (Tests/Benchmarks/run.sh) from its last full run; do not edit by hand. Each goal's"
    echo "reason and calibration is in Tests/Benchmarks/Goals.swift; the scenarios' tables (context for every number)"
    echo "are in the run's output."
    echo
    echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "- Machine: $(nproc) cores ($cpu), $memory, $(uname -sr), $(. /etc/os-release && echo "$PRETTY_NAME")"
    echo "- Load average (1, 5, 15 min): ${GALLERY_BENCH_LOAD_AT_START:-unknown} at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
    echo "- Build: release, commit ${GALLERY_BENCH_COMMIT:-unknown}; display: Xvfb (.ci/headless)"
    echo "- Result: $passed goals passed, $failures failed"
    echo
    echo "| scenario | goal | measured | limit | result |"
    echo "| --- | --- | --- | --- | --- |"
    sed -n -E 's/^(PASS|FAIL) goal ([^.]+)\.([^:]+): measured (.*) \(limit (.*)\)$/| \2 | \3 | \4 | \5 | \1 |/p;
               s/^(PASS|FAIL) goal ([^.]+)\.([^:]+): measured ([^(]*)$/| \2 | \3 | \4 | completes | \1 |/p' "$log"
  } > "$1.new" && mv "$1.new" "$1"
  echo "bench: wrote $1"
}

log=$(mktemp "${TMPDIR:-/tmp}/gallery-bench.XXXXXX")
trap 'rm -f "$log"; kill "$wm_stand_in" 2>/dev/null || true' EXIT
failed=0
for scenario in "${scenarios[@]}"; do
  start=$SECONDS
  status=0
  "$GALLERY_BENCHMARKS" "$scenario" | tee -a "$log" || status=${PIPESTATUS[0]}
  echo "   ($scenario: $((SECONDS - start)) s, exit status $status)"
  if [ "$status" -ne 0 ]; then
    failed=1
    # A crash prints no goal lines of its own; make sure the summary shows it.
    grep -q "^FAIL goal $scenario\." "$log" || echo "FAIL goal $scenario.completes: measured exit status $status" | tee -a "$log"
  fi
done

echo
echo "== summary"
grep -E '^(PASS|FAIL) goal ' "$log" || true
passed=$(grep -c '^PASS goal ' "$log" || true)
failures=$(grep -c '^FAIL goal ' "$log" || true)
echo "bench: $passed passed, $failures failed"
[ -z "${PERFORMANCE_DOC:-}" ] || write_performance_doc "$PERFORMANCE_DOC"
[ "$failed" -eq 0 ] && [ "$failures" -eq 0 ]
