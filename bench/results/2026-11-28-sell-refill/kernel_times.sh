#!/usr/bin/env bash
# Each refill kernel's launches, total and mean time (us) in each trace of a traces.tgz (run-trace.sh's output):
#   bash kernel_times.sh h200-callN/traces.tgz
set -uo pipefail
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
tar xzf "${1:?usage: kernel_times.sh TRACES.tgz}" -C "$T"
for f in "$T"/tr-*; do
  case $f in *.gz) c="zcat $f" ;; *) c="cat $f" ;; esac
  [ "$($c | wc -l)" -gt 10 ] || continue
  echo "== $(basename "$f")"
  $c | awk '$1=="K"{d=($3-$2)/1000; n[$6]++; s[$6]+=d} END{for(k in n) if (k ~ /refill/) printf "%-60s %6d %10.1f %8.2f\n", substr(k,1,60), n[k], s[k], s[k]/n[k]}'
done
