#!/usr/bin/env bash
# `make fuzz`: libFuzzer, with AddressSanitizer, on every parser the network feeds.
#
#   Tests/Fuzz/run.sh [TARGET...]        (default: all of them)
#   FUZZ_SECONDS=N   seconds per target (default 60: seven targets, seven minutes)
#
# Targets: FuzzMediaRSS, FuzzMastodonJSON, FuzzLinkHeader, FuzzCommonsJSON, FuzzImageHeader, FuzzBlueskyJSON,
# FuzzMisskeyJSON, FuzzProfileLink, FuzzDecoderProtocol (Tests/Fuzz/*).
# They exist in Package.swift only when GALLERY_FUZZ=1, and are built here into a scratch directory of their own
# (.build-fuzz) with -sanitize=fuzzer,address, so the normal build never sees them. Each starts from a corpus
# seeded with the test fixtures (data/fixtures) and kept in .build-fuzz/corpus/TARGET, so later runs go on where
# earlier ones stopped. A crash leaves its input in .build-fuzz/findings/TARGET and fails the run: turn it
# into a regression test.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
swift=${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}
seconds=${FUZZ_SECONDS:-60}
scratch=${FUZZ_BUILD_DIR:-$root/.build-fuzz}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzMediaRSS FuzzMastodonJSON FuzzLinkHeader FuzzCommonsJSON FuzzImageHeader \
                                     FuzzBlueskyJSON FuzzMisskeyJSON FuzzProfileLink FuzzDecoderProtocol)

seeds() {
  case "$1" in
    FuzzMediaRSS) ls data/fixtures/deviantart/*.xml ;;
    FuzzMastodonJSON) ls data/fixtures/mastodon/*.json ;;
    FuzzCommonsJSON) ls data/fixtures/commons/*.json ;;
    FuzzBlueskyJSON) ls data/fixtures/bluesky/*.json ;;
    FuzzMisskeyJSON) ls data/fixtures/misskey/*.json ;;
    FuzzImageHeader) ls data/fixtures/images/* ;;
    FuzzLinkHeader) ;;
    FuzzProfileLink) ;;
    FuzzDecoderProtocol) ;;
  esac
}

export GALLERY_FUZZ=1
failed=0
for target in "${targets[@]}"; do
  "$swift" build --scratch-path "$scratch" -c debug -Xswiftc -sanitize=fuzzer,address --product "$target"
  corpus=$scratch/corpus/$target
  findings=$scratch/findings/$target
  mkdir -p "$corpus" "$findings"
  for seed in $(seeds "$target"); do cp -n "$seed" "$corpus/" ; done
  if [ "$target" = FuzzLinkHeader ] && [ -z "$(ls -A "$corpus")" ]; then
    printf '<https://h/a?max_id=9>; rel="next", <https://h/a?min_id=1>; rel="prev"' > "$corpus/mastodon"
    printf '<https://h/a;b,c>; title="x, y; z"; rel="next prev"' > "$corpus/quoted"
  fi
  if [ "$target" = FuzzProfileLink ] && [ -z "$(ls -A "$corpus")" ]; then
    printf 'https://commons.wikimedia.org/w/index.php?title=Special:ListFiles&user=M%%C3%%BCller' > "$corpus/commons"
    printf 'https://mastodon.social/@alice@misskey.io' > "$corpus/fediverse"
    printf 'at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3k' > "$corpus/at"
    printf '{"links":[{"rel":"http://nodeinfo.diaspora.software/ns/schema/2.1","href":"/nodeinfo/2.1"}]}' > "$corpus/discovery"
    printf '{"version":"2.1","software":{"name":"mastodon","version":"4"}}' > "$corpus/document"
  fi
  if [ "$target" = FuzzDecoderProtocol ] && [ -z "$(ls -A "$corpus")" ]; then
    # A decoded 10 x 20 RGBA reply, then a PNG request bounded to 96 px.
    printf 'AGVD\0\0\0\0\n\0\0\0\24\0\0\0(\0\0\0\4\0\0\0\n\0\0\0\24\0\0\0\40\3\0\0\0\0\0\0\1\0\0\0\0\0\0\0' > "$corpus/reply"
    printf 'RGVDpng\0\0\0\0\0\0\0\0\0\0\0\0\0`\0\0\0\0\0\0\0\0\0\0\0\0\341\365\5\0\0\0\0\5\0\0\0\0\0\0\0' >> "$corpus/reply"
  fi
  echo "fuzz: $target for $seconds s ($(ls "$corpus" | wc -l) inputs in the corpus)"
  # -rss_limit_mb: a parser that balloons on one input is a finding too.
  if ! "$scratch/debug/$target" "$corpus" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
       -artifact_prefix="$findings/" -print_final_stats=1 2>&1 | tail -n 25; then
    failed=1
    echo "fuzz: $target FOUND A CRASH; its input is in $findings"
  fi
done
[ "$failed" -eq 0 ] && echo "fuzz: no crash in ${#targets[@]} targets x $seconds s"
exit "$failed"
