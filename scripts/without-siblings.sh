#!/usr/bin/env bash
# without-siblings.sh CMD [ARGS...]: runs CMD from the repository root with the folders beside the
# repository hidden, as in a fresh clone with nothing next to it, so a test that reads outside
# the repository fails here instead of passing by luck.
#
# How: in a private mount namespace (unshare --mount --propagation private, so nothing leaks to
# the rest of the machine), the repository is bound to a temporary folder, an empty tmpfs is
# mounted over the repository's parent folder, the repository's folder name is made again in it
# and the repository bound back there. The repository keeps its absolute path (cargo's build
# cache stays valid); its siblings are gone for CMD and whatever CMD starts.
#
# Needs root and unshare(1); without them it says that the siblings are not hidden and runs CMD
# as it is.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ "$#" -gt 0 ] || { echo "usage: scripts/without-siblings.sh CMD [ARGS...]" >&2; exit 2; }

if [ -z "${TGSI_WITHOUT_SIBLINGS_INNER:-}" ]; then
  if [ "$(id -u)" != 0 ] || ! command -v unshare > /dev/null; then
    echo "[without-siblings] not root or no unshare: the repository's sibling folders are NOT hidden" >&2
    cd "$ROOT" && exec "$@"
  fi
  TGSI_WITHOUT_SIBLINGS_INNER=1 exec unshare --mount --propagation private -- bash "$0" "$@"
fi

# Inside the private namespace.
unset TGSI_WITHOUT_SIBLINGS_INNER
parent="$(dirname "$ROOT")"
name="$(basename "$ROOT")"
fail() { echo "[without-siblings] $*" >&2; exit 1; }
if [ "$parent" = / ]; then
  echo "[without-siblings] the repository is at the top of the file system: its siblings are NOT hidden" >&2
  cd "$ROOT" && exec "$@"
fi
# The repository waits in a folder that the tmpfs over $parent does not hide (a clone in /tmp
# cannot wait in /tmp).
keep=""
for base in /tmp /var/tmp /dev/shm /run; do
  case "$base/" in "$parent/"*) continue ;; esac
  [ -d "$base" ] && [ -w "$base" ] || continue
  keep="$(mktemp -d "$base/without-siblings.XXXXXX")" && break
done
[ -n "$keep" ] || fail "no folder outside $parent to keep the repository in while its parent is hidden"
mount --bind "$ROOT" "$keep" || fail "could not bind $ROOT"
mount -t tmpfs -o size=1m,mode=755 without-siblings "$parent" || fail "could not mount a tmpfs over $parent"
mkdir "$parent/$name" || fail "could not make $parent/$name"
mount --bind "$keep" "$parent/$name" || fail "could not bind the repository back"
umount "$keep" && rmdir "$keep"
cd "$ROOT" || fail "no $ROOT"
exec "$@"
