#!/usr/bin/env bash
# The medium benchmark matrices, packed for a device call, which carries at most 64 MiB with the tracked tree.
#
#   here:          bash config/pack-bench-data.sh pack     -> .bench-data.tar.xz (14 MB; the .gz files are 22 MB)
#                  (from ../shared/matrices/medium, else from .bench-data)
#   GPU machine:   bash config/pack-bench-data.sh unpack   -> .bench-data/*.mtx.gz, as the benchmarks expect
#                  (carry .bench-data.tar.xz; bench/session.sh does this when .bench-data is missing)
#
# xz of the plain files is a third smaller than gzip of each; the unpacked files are gzipped again (-1, one
# process per file) so that the scripts naming .bench-data/NAME.mtx.gz keep working.  Both steps do nothing
# when their result is already there.
set -euo pipefail
HERE=$(cd "$(dirname "$0")/.." && pwd)
PACK=$HERE/.bench-data.tar.xz DATA=$HERE/.bench-data

case "${1:-}" in
pack)
  [ -f "$PACK" ] && exit 0
  src=$HERE/../shared/matrices/medium; [ -d "$src" ] || src=$DATA
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  for f in "$src"/*.mtx.gz; do gzip -dc "$f" > "$tmp/$(basename "$f" .gz)"; done
  (cd "$tmp" && tar cf - *.mtx | xz -9 -T0 > "$PACK.part") && mv "$PACK.part" "$PACK"
  ls -la "$PACK" ;;
unpack)
  [ -d "$DATA" ] && exit 0
  [ -f "$PACK" ] || { echo "pack-bench-data.sh: no $PACK (carry it)" >&2; exit 1; }
  mkdir -p "$DATA.part" && tar xJf "$PACK" -C "$DATA.part"
  ls "$DATA.part"/*.mtx | xargs -P "$(nproc)" -n 1 gzip -1
  mv "$DATA.part" "$DATA" ;;
*) echo "usage: $0 pack|unpack" >&2; exit 2 ;;
esac
