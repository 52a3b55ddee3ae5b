# Sourced, after Tests/EndToEnd/helpers.sh, by the tests that read the window over AT-SPI
# (Tests/Accessibility/run.sh, Tests/EndToEnd/offline.sh, desktop.sh, habits.sh, selection.sh and following.sh,
# Tests/Translation/run.sh).
# .ci/headless turns GTK's accessibility bridge off (NO_AT_BRIDGE=1) so that the other tests need no
# accessibility bus; these start their own.

# start_atspi_bus LOG: starts at-spi-bus-launcher (its pid in atspi_bus_pid) and turns the bridge back on
# for the apps started after it.
start_atspi_bus() {
  local launcher= candidate
  for candidate in /usr/libexec/at-spi-bus-launcher /usr/lib/at-spi2-core/at-spi-bus-launcher; do
    [ -x "$candidate" ] && launcher=$candidate && break
  done
  [ -n "$launcher" ] || { echo "at-spi-bus-launcher not found; run 'make test-deps'" >&2; return 1; }
  /usr/bin/python3 -c 'import gi; gi.require_version("Atspi", "2.0")' 2>/dev/null \
    || { echo "python3-gi or gir1.2-atspi-2.0 missing; run 'make test-deps'" >&2; return 1; }
  unset NO_AT_BRIDGE
  "${bounded_life[@]}" "$launcher" --launch-immediately >"$1" 2>&1 &
  atspi_bus_pid=$!
}

# atspi_expect STATE ARGUMENT...: reads the app $app_id with atspi_check.py and those arguments (--expect NAME,
# --expect-checked NAME, --expect-text TEXT, --expect-no-text TEXT), which waits up to $patience s for them; the
# controls it saw go to $work/tree. On a failure it shows them and calls fail with STATE.
atspi_expect() {
  local state=$1; shift
  echo "$test_name: $state"
  E2E_PATIENCE=$patience bounded /usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/atspi_check.py" "$app_id" "$@" >"$work/tree" 2>"$work/problems" || {
    cat "$work/tree" "$work/problems" >&2
    fail "$state"
  }
}
