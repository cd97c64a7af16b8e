# Set-up shared by scripts/test and scripts/demo: everything a fresh machine needs, idempotent.
# Sourced, not run; expects the repo root as the working directory.

say() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }

# npm dependencies, installed again only when package-lock.json changed since the last install.
# npm writes node_modules/.package-lock.json at the end of every install, ours or the reader's own
# `npm ci`, so it is older than package-lock.json only when the lock changed after the install.
ensure_node_modules() {
  if [ ! node_modules/.package-lock.json -nt package-lock.json ]; then
    say "installing npm dependencies"
    npm ci --no-audit --no-fund --loglevel=error >&2
  fi
}

# Install steps bound by downloads and the disk (apt, npm and pip fetches, unpacking, virtualenvs)
# run in the background beside the Go builds, which keep both cores busy: a cold run is shorter by
# about their time. The step's ensure_ function joins it first, then runs its script again, which
# finds the install cached and prints it: no tool is ever installed twice at once. A step's output
# is printed when it is joined, as one block, and its failure fails the run there. A run that stops
# early still waits for the steps it started, so that none outlives it into the next run.
#   $1: the step's name (a word)   $2...: the command (its stdout is dropped)
start_in_background() {
  local name=$1 log
  shift
  log=$(mktemp)
  "$@" >/dev/null 2>"$log" &
  printf -v "background_pid_$name" '%s' "$!"
  printf -v "background_log_$name" '%s' "$log"
  trap wait EXIT
}

# Waits for the step started as $1, if one was, prints its output and fails if it failed.
join_background() {
  local pid_var="background_pid_$1" log_var="background_log_$1" status=0
  [ -n "${!pid_var:-}" ] || return 0
  wait "${!pid_var}" || status=$?
  cat "${!log_var}" >&2
  rm -f "${!log_var}"
  unset "$pid_var" "$log_var"
  [ "$status" = 0 ] || { say "error: the background step $1 failed (exit $status)"; exit "$status"; }
}

# The Pulumi engine (built from sources on first use, then cached); exports PULUMI_ENGINE_DIR and
# puts it first on PATH so `pulumi` in a shell started from here is the pinned one.
ensure_engine() {
  PULUMI_ENGINE_DIR=$(bash scripts/install-pulumi)
  export PULUMI_ENGINE_DIR PATH="$PULUMI_ENGINE_DIR:$PATH"
}

# The Pulumi YAML language host, which the e2e tests' YAML programs run on (built from sources on
# first use, then cached, linked beside the engine, where the engine looks first); exports
# PULUMI_YAML_HOST_DIR. Each language host stays off PATH: one found there would run with a
# warning on every run.
ensure_yaml_host() {
  PULUMI_YAML_HOST_DIR=$(bash scripts/install-yaml-host)
  export PULUMI_YAML_HOST_DIR
}

# What runs the e2e tests' Python programs (built and set up on first use, then cached): the Python
# language host, linked beside the engine, and a virtualenv with the pinned PyPI `pulumi`. Exports
# PULUMI_PYTHON_BIN, the virtualenv's bin/; stacks of Python programs put it first on PATH (not done
# here: it would make its python the one every other command runs).
ensure_python_host() {
  join_background python_host
  PULUMI_PYTHON_BIN=$(bash scripts/install-python-host)
  export PULUMI_PYTHON_BIN
}

# The official Python client of the platform API in a virtualenv of its own, which
# tests/e2e/clients/python-sdk.test.ts drives against the emulator (installed on first use, then
# cached); exports SQUARECLOUD_PYTHON_CLIENTS_BIN, its bin/ directory.
ensure_python_clients() {
  SQUARECLOUD_PYTHON_CLIENTS_BIN=$(bash scripts/install-python-clients)
  export SQUARECLOUD_PYTHON_CLIENTS_BIN
}

# The Go language host, which the e2e tests' Go programs run on (built from sources on first use,
# then cached, linked beside the engine); exports PULUMI_GO_HOST_DIR, the directory holding it.
ensure_go_host() {
  PULUMI_GO_HOST_DIR=$(bash scripts/install-go-host)
  export PULUMI_GO_HOST_DIR
}

# Compiles the Go SDK (sdk/go) and the sdk/v3 it builds on into the machine's Go build cache, where
# the builds of the e2e tests' Go programs find them: with a cold cache the first program's build
# takes minutes, longer than a test step may; warm, this takes about a second.
warm_go_build_cache() {
  say "compiling the Go SDK into the Go build cache"
  (cd sdk/go && go build -mod=readonly ./...)
}

# Pulumi's Java tools (built from sources on first use, then cached): the language host the e2e tests'
# Java programs run on and pulumi-java-gen, which `npm run gen` writes sdk/java with. Exports
# PULUMI_JAVA_HOST_DIR, the directory holding both. Stacks of Java programs put it on PATH.
ensure_java_host() {
  PULUMI_JAVA_HOST_DIR=$(bash scripts/install-java-host)
  export PULUMI_JAVA_HOST_DIR
}

# Compiles the Java SDK (sdk/java) with Maven into dist/java, after the TypeScript build (which
# empties dist/ when it compiles): the first build downloads its dependencies and Maven's plugins
# from Maven Central into ~/.m2. The tests' Java programs compile against it without Maven.
build_java_sdk() {
  local tool
  for tool in javac jar mvn; do
    command -v "$tool" >/dev/null 2>&1 || { say "error: no $tool on PATH: install a JDK 11+ and Maven (Debian: apt-get install openjdk-17-jdk-headless maven), then run this again."; exit 1; }
  done
  say "building the Java SDK (Maven)"
  node dist/scripts/build-java.js >/dev/null
}

# The SDK generator `npm run gen` and the generated files' staleness test run (built from
# scripts/sdkgen on first use, then cached); exports SDKGEN_DIR, the directory holding `sdkgen`.
ensure_sdkgen() {
  SDKGEN_DIR=$(bash scripts/install-sdkgen)
  export SDKGEN_DIR
}

# actionlint, which the tests run on the example GitHub Actions workflow (built from sources on
# first use, then cached); exports ACTIONLINT_BIN, the binary the tests run.
ensure_actionlint() {
  ACTIONLINT_BIN="$(bash scripts/install-actionlint)/actionlint"
  export ACTIONLINT_BIN
}

# Whether jest's arguments select only engine-free tests: at least one path, each under
# tests/unit or tests/emulator (compiled or not). Options are not paths; no path means every test.
engine_free_selection() {
  local arg paths=0
  for arg in "$@"; do
    case "$arg" in
      -*) ;;
      dist/tests/unit* | dist/tests/emulator* | tests/unit* | tests/emulator*) paths=$((paths + 1)) ;;
      *) return 1 ;;
    esac
  done
  [ "$paths" -gt 0 ]
}

# The local npm registry, PyPI index and upload client the release rehearsal publishes to
# (installed on first use from pinned lists, then cached); exports SQUARECLOUD_REGISTRIES_BIN.
ensure_registries() {
  join_background registries
  SQUARECLOUD_REGISTRIES_BIN=$(bash scripts/install-registries)
  export SQUARECLOUD_REGISTRIES_BIN
}

# Compiles into dist/ unless the sources are the ones dist/ was compiled from (the stamp of their
# hash, written after a successful compile, sits beside the output). Every way in (`npm run
# build` and the scripts built on it, the emulator, the demo, the tests) comes through here.
build() {
  local stamp=dist/.sources-sha256 want
  want=$(sources_hash)
  if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
    say "compiled output is up to date"
    return
  fi
  say "compiling TypeScript"
  compile_pruning_stale
  echo "$want" >"$stamp"
}

# tsc writes over what it emits and leaves the rest, so a module moved or deleted since the last
# compile would stay loadable: this removes every file of the subtrees tsc writes (dist/provider,
# dist/tests, ...) that this compile did not emit. What other builds put in dist/ (the plugin
# archives, the wheels) is in subtrees of its own and stays.
compile_pruning_stale() {
  local listing emitted owned
  listing=$(mktemp)
  if ! node_modules/.bin/tsc -p tsconfig.json --listEmittedFiles >"$listing"; then
    grep -v '^TSFILE: ' "$listing" >&2
    rm -f "$listing"
    return 1
  fi
  emitted=$(sed -n "s|^TSFILE: $(pwd -P)/||p" "$listing" | LC_ALL=C sort)
  rm -f "$listing"
  [ -n "$emitted" ] || return 0
  owned=$(printf '%s\n' "$emitted" | cut -d/ -f1-2 | LC_ALL=C sort -u)
  # shellcheck disable=SC2086 # one path per line, none with spaces
  LC_ALL=C comm -23 <(find $owned -type f | LC_ALL=C sort) <(printf '%s\n' "$emitted") | xargs -r rm -f --
  # shellcheck disable=SC2086
  find $owned -type d -empty -delete
}

# What tsc reads: its config, the compiler version (in the lock) and every file under the
# directories tsconfig.json includes, with their paths (a moved file changes the output too).
sources_hash() {
  {
    sha256sum tsconfig.json package-lock.json
    find scripts provider sdk/nodejs emulator tests bench examples \( -name node_modules -o -path bench/results \) -prune -o -type f \( -name '*.ts' -o -name '*.json' \) -print0 |
      sort -z | xargs -0 sha256sum
  } | sha256sum | cut -d' ' -f1
}

# The plugin archives of every target in dist/plugin/ (`npm run build:plugin`), which the tests
# inspect and the engine downloads in the e2e tests; built after the compile unless a whole set
# (SHA256SUMS is written last) is newer than the Node pin. The Node builds are fetched from the
# npm registry on first use, then cached.
ensure_plugin_archives() {
  join_background node_builds
  # Written last by a whole build: newer than the compiled output and the pinned Node builds, the
  # archives hold what the sources give now.
  if [ dist/plugin/SHA256SUMS -nt dist/.sources-sha256 ] && [ dist/plugin/SHA256SUMS -nt scripts/install-node-builds ]; then
    say "plugin archives are up to date"
    return
  fi
  say "building the plugin archives"
  node dist/scripts/build-plugin.js >/dev/null
}

# The emulator's archive for this machine in dist/emulator-archives/ (`npm run build:emulator`), which
# a test runs without Node on PATH, as users without Node do; the release builds every target's.
# Built after the compile unless the archive is newer than the compiled output and the Node pin.
ensure_emulator_archive() {
  local archive
  archive=dist/emulator-archives/$(node -p 'const r = require("./dist/provider/release-assets");
    r.emulatorArchiveName(require("./dist/provider/client/version").packageVersion(), r.hostTarget())')
  if [ "$archive" -nt dist/.sources-sha256 ] && [ "$archive" -nt scripts/install-node-builds ]; then
    say "emulator archive is up to date"
    return
  fi
  say "building the emulator archive of this machine"
  node dist/scripts/build-emulator.js --target "$(node -p 'require("./dist/provider/release-assets").hostTarget()')" >/dev/null
}

# An aarch64 user-mode emulator (qemu-user), which runs the linux-arm64 archive's Node in the tests;
# installed with apt-get when missing. Exports QEMU_AARCH64, the command prefix that runs one.
# Only an x86-64 Linux machine needs it: elsewhere the tests run no foreign-architecture build.
ensure_qemu_user() {
  [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || return 0
  QEMU_AARCH64=$(bash scripts/install-qemu-user)
  export QEMU_AARCH64
}

# Wine (Debian's wine64 8.0, unpacked into the tools cache with a Windows 10 prefix, no root),
# which runs the windows-amd64 archive's Node in an e2e test. Exports WINE_BIN_DIR, the directory
# holding `wine`. Only an x86-64 Linux machine needs it: elsewhere that test does not run.
ensure_wine() {
  [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || return 0
  join_background wine
  WINE_BIN_DIR=$(bash scripts/install-wine)
  export WINE_BIN_DIR
}
