#!/usr/bin/env bash
# Download throughput of `gallery-viewer --download` against `curl --parallel` on the same URLs, from the
# same demo server, with the same connection cap (the app's 5 image connections per host; curl
# --parallel-max 5). Each side runs ROUNDS times into a fresh folder; the median is reported.
#
#   Tests/DownloadBenchmark/vs-curl.sh [USER] [LATENCY_MS]     defaults: atlas 0
#   GALLERY_VIEWER, GALLERY_DEMO_SERVER: the binaries (default: the release build), ROUNDS (default 5).
#
# The app's time includes reading the gallery's feed pages; curl is handed the image URLs, so the feed
# is also timed on its own (`--list`) and subtracted for a like-for-like figure.
set -euo pipefail
user=${1:-atlas}
latency=${2:-0}
rounds=${ROUNDS:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
viewer=${GALLERY_VIEWER:-$root/.build/release/gallery-viewer}
GALLERY_DEMO_SERVER=${GALLERY_DEMO_SERVER:-$root/.build/release/gallery-demo-server}
command -v curl >/dev/null || { echo "vs-curl: curl not found (apt-get install curl)" >&2; exit 1; }

# shellcheck source=../EndToEnd/helpers.sh
. "$root/Tests/EndToEnd/helpers.sh"
scratch_and_cleanup vs-curl
start_demo_server server --latency "$latency"
base=$base_url

"$viewer" --list --source demo --endpoint "$base" "$user" | awk -F '\t' '$2 == "image" { print $3 }' >"$work/urls"
count=$(wc -l <"$work/urls")
i=0
while read -r url; do
  i=$((i + 1))
  printf 'url = "%s"\noutput = "%s/curl/%d"\n' "$url" "$work" "$i"
done <"$work/urls" >"$work/curl.config"

now() { date +%s%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
run_rounds() {  # NAME COMMAND...: prints the median milliseconds
  local name=$1; shift
  local times=() start
  for _ in $(seq "$rounds"); do
    rm -rf "$work/curl" "$work/app"; mkdir -p "$work/curl"
    start=$(now)
    "$@" >/dev/null 2>&1 || { echo "vs-curl: $name failed" >&2; exit 1; }
    times+=($(( ($(now) - start) / 1000000 )))
  done
  printf '%s\n' "${times[@]}" | median
}

feed_ms=$(run_rounds "--list" "$viewer" --list --source demo --endpoint "$base" "$user")
app_ms=$(run_rounds "gallery-viewer" "$viewer" --download "$work/app" --source demo --endpoint "$base" "$user")
bytes=$(du -sb "$work/app" | cut -f 1)
curl_ms=$(run_rounds "curl" curl --silent --fail --parallel --parallel-max 5 --config "$work/curl.config")
curl_bytes=$(du -sb "$work/curl" | cut -f 1)

mbps() { awk -v b="$1" -v ms="$2" 'BEGIN { printf "%.1f", b / 1e6 / (ms > 0 ? ms / 1000 : 0.001) }'; }
echo "vs-curl: $user, $count images, $((bytes / 1000)) kB (curl: $((curl_bytes / 1000)) kB), server latency $latency ms,"
echo "         5 connections, median of $rounds runs"
echo "  gallery-viewer --download   ${app_ms} ms  $(mbps "$bytes" "$app_ms") MB/s  (of which the feed: ${feed_ms} ms)"
echo "  ... without the feed        $((app_ms - feed_ms)) ms  $(mbps "$bytes" $((app_ms - feed_ms))) MB/s"
echo "  curl --parallel-max 5       ${curl_ms} ms  $(mbps "$curl_bytes" "$curl_ms") MB/s"
echo "  load average: $(cut -d ' ' -f 1-3 /proc/loadavg)"
