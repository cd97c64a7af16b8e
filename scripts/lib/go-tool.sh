# What the install scripts share to build a Go tool from its module sources. Sourced, not run;
# defines functions only.

say() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }
fail() { say "error: $*"; exit 1; }

# Where finished builds are cached, outside the repository.
tools_dir=${SQUARECLOUD_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-squarecloud}

# The build tags of the engine (scripts/install-pulumi), which scripts/sdkgen is built with too:
# tags change which files of grpc and os/user compile, so a package built with other tags is cached
# apart, as is everything that imports it. With the same tags and module versions, sdkgen reuses
# what the engine's build compiled instead of compiling it again.
engine_build_tags=osusergo,grpcnotrace

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

# Builds a language host that a release of github.com/pulumi/pulumi/sdk/v3 still ships inside that
# module (later releases moved each host to a module of its own, which the module proxy reachable
# here does not serve).
#   [--patch FILE]: a patch (-p1) applied to the module's sources before the build
#   $1: the release (3.68.0)   $2: its pinned module checksum   $3: the host's package in the module
#   $4: the binary to write    $5...: files of the module (paths in it) to install beside the binary
build_sdk_host() {
  local patch_file=""
  if [ "$1" = --patch ]; then patch_file=$2; shift 2; fi
  local version=$1 sum=$2 package=$3 out=$4 name src work started
  shift 4
  name=$(basename "$package")
  command -v go >/dev/null 2>&1 || fail "no cached $name v$version and no Go toolchain to build it.
Install Go (https://go.dev/doc/install), then run this again."
  say "downloading pulumi sdk v$version sources (Go module proxy)"
  src=$(GONOSUMDB="github.com/pulumi/pulumi${GONOSUMDB:+,$GONOSUMDB}" GOFLAGS=-mod=mod download_pinned_module "github.com/pulumi/pulumi/sdk/v3@v$version" "$sum")
  work="$tools_dir/build-$name-v$version"
  writable_copy "$src" "$work"
  [ -z "$patch_file" ] || patch --quiet -p1 -d "$work" <"$patch_file"
  mkdir -p "$(dirname "$out")"
  started=$(date +%s)
  say "building $name (sdk v$version)"
  (cd "$work" && GOFLAGS=-mod=mod go build -trimpath -ldflags "-s -w" -o "$out.tmp" "./$package")
  local extra
  for extra in "$@"; do install -m 755 "$work/$extra" "$(dirname "$out")/$(basename "$extra")"; done
  mv "$out.tmp" "$out"
  rm -rf "$work"
  say "$name v$version built in $(( $(date +%s) - started ))s ($(dirname "$out"))"
}

# Links a language host into the directory of the engine scripts/install-pulumi built, where the
# engine looks first (beside itself): one found only on PATH runs too, with a warning on every
# run. The engine is $PULUMI_ENGINE_DIR when the caller has it; an engine that is not one of our
# builds (an official install, which ships its own hosts) is left alone. A link already in place
# is not touched: engines of running tests may be starting the host through it.
#   $1: the host's executable
link_beside_engine() {
  local engine_dir link
  engine_dir=${PULUMI_ENGINE_DIR:-$(bash "$(dirname "${BASH_SOURCE[0]}")/../install-pulumi")}
  link="$engine_dir/$(basename "$1")"
  case "$engine_dir" in
    "$tools_dir"/*) [ "$(readlink "$link" 2>/dev/null)" = "$1" ] || ln -sfn "$1" "$link" ;;
  esac
}
