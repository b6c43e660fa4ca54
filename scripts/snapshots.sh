#!/usr/bin/env bash
# Review pending CLI snapshots (tests/snapshots/*.snap.new, written by the `snapshots` tests
# when the output changed): shows each difference; with --accept, replaces the snapshots.
#   bash scripts/snapshots.sh            # show what changed
#   bash scripts/snapshots.sh --accept   # accept every pending snapshot
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT/tests/snapshots"
accept=false
[ "${1:-}" = "--accept" ] && accept=true
shopt -s nullglob
pending=(*.snap.new)
[ ${#pending[@]} -gt 0 ] || { say "no pending snapshots"; exit 0; }
for new in "${pending[@]}"; do
  old="${new%.new}"
  if [ -f "$old" ]; then diff -u "$old" "$new" || true; else echo "=== new snapshot $old"; cat "$new"; fi
  if $accept; then mv "$new" "$old"; say "accepted $old"; fi
done
$accept || say "${#pending[@]} pending; accept them with: bash scripts/snapshots.sh --accept"
