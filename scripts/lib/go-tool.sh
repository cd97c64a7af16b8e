# What scripts/install-pulumi and scripts/install-actionlint share to build a Go tool from its
# module sources. Sourced, not run; defines functions only.

say() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }
fail() { say "error: $*"; exit 1; }

# Where finished builds are cached, outside the repository.
tools_dir=${SQUARECLOUD_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-squarecloud}

# Downloads a module through the Go module proxy and prints its directory in the module cache,
# after checking its checksum (go.sum "h1:" form) against the pinned one. The public checksum
# database is not reachable from here, so the pin is what guards the sources we build.
#   $1: module@version   $2: its pinned checksum
download_pinned_module() {
  local json dir sum
  [ -n "$2" ] || fail "no pinned checksum for $1"
  json=$(go mod download -json "$1") || fail "could not download $1: $json"
  dir=$(printf '%s\n' "$json" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
  sum=$(printf '%s\n' "$json" | sed -n 's/^\t"Sum": "\(.*\)",$/\1/p')
  [ "$sum" = "$2" ] || fail "checksum mismatch for $1: got $sum, pinned $2"
  echo "$dir"
}

# The module cache is read-only: builds run in a writable copy.
#   $1: a module's directory   $2: where the copy goes (replaced)
writable_copy() {
  rm -rf "$2"
  mkdir -p "$(dirname "$2")"
  cp -r "$1" "$2"
  chmod -R u+w "$2"
}
