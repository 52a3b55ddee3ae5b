#!/usr/bin/env bash
# The benchmarks behind `make bench`: speed and memory goals are checked here, never by timed unit tests.
#
#   Tests/Benchmarks/run.sh [SCENARIO...]      (default: all; see Tests/Benchmarks/main.swift)
#
# Builds `gallery-benchmarks` in release mode (outside the headless wrapper: SwiftPM keeps its caches under the
# real HOME), then runs each scenario as its own process inside .ci/headless (Xvfb, private D-Bus, throwaway
# HOME). Each scenario prints a table and one `PASS goal …`/`FAIL goal …` line per goal; at the end the goal
# lines are repeated as a summary. Exit status: 0 when every goal passed, 1 otherwise (a scenario that crashed
# or broke off counts as failed).
#
# Environment (the Makefile passes them): SWIFT, BUILD_DIR (SwiftPM scratch path), SWIFT_FLAGS.
# The demo gallery must be rendered (make demo-data-release, a prerequisite of `make bench`).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(mainloop thumbnails throughput memory scroll zoom hostile relaunch fullcache end10k end100k jump gridend10k gridend100k gridjump baselines)

if [ -z "${GALLERY_BENCH_INSIDE:-}" ]; then
  swift=${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}
  build_dir=${BUILD_DIR:-.build}
  case "$build_dir" in /*) ;; *) build_dir=$root/$build_dir ;; esac
  # The same flags as the Makefile's release build, so the shared modules are built once for both.
  # shellcheck disable=SC2086
  "$swift" build --scratch-path "$build_dir" ${SWIFT_FLAGS:-} -c release --static-swift-stdlib \
    --product gallery-benchmarks
  export GALLERY_BENCHMARKS="$build_dir/release/gallery-benchmarks"
  [ -x "$GALLERY_BENCHMARKS" ] || { echo "bench: $GALLERY_BENCHMARKS was not built" >&2; exit 1; }
  echo "bench: $(nproc) cores, $(uptime | sed 's/.*load average/load average/')"
  GALLERY_BENCH_INSIDE=1 exec .ci/headless bash "$0" "${scenarios[@]}"
fi

log=$(mktemp "${TMPDIR:-/tmp}/gallery-bench.XXXXXX")
trap 'rm -f "$log"' EXIT
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
[ "$failed" -eq 0 ] && [ "$failures" -eq 0 ]
