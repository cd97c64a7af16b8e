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

# The Pulumi engine (built from sources on first use, then cached); exports PULUMI_ENGINE_DIR and
# puts it first on PATH so `pulumi` in a shell started from here is the pinned one.
ensure_engine() {
  PULUMI_ENGINE_DIR=$(bash scripts/install-pulumi)
  export PULUMI_ENGINE_DIR PATH="$PULUMI_ENGINE_DIR:$PATH"
}

# The Pulumi YAML language host, which the e2e tests' YAML programs run on (built from sources on
# first use, then cached); exports PULUMI_YAML_HOST_DIR and puts it on PATH, where the engine looks
# for a language host it does not find beside itself.
ensure_yaml_host() {
  PULUMI_YAML_HOST_DIR=$(bash scripts/install-yaml-host)
  export PULUMI_YAML_HOST_DIR PATH="$PULUMI_YAML_HOST_DIR:$PATH"
}

# What runs the e2e tests' Python programs (built and set up on first use, then cached): the Python
# language host and a virtualenv with the pinned PyPI `pulumi`, in one bin/ directory. Exports
# PULUMI_PYTHON_BIN; stacks of Python programs put it first on PATH (not done here: it would make
# its python the one every other command runs).
ensure_python_host() {
  PULUMI_PYTHON_BIN=$(bash scripts/install-python-host)
  export PULUMI_PYTHON_BIN
}

# The Go language host, which the e2e tests' Go programs run on (built from sources on first use,
# then cached); exports PULUMI_GO_HOST_DIR, the directory holding it. Stacks of Go programs put it
# on PATH.
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

# Compiles into dist/ unless the sources are the ones dist/ was compiled from (the stamp of their
# hash, written after a successful compile, sits beside the output).
build() {
  local stamp=dist/.sources-sha256 want
  want=$(sources_hash)
  if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
    say "compiled output is up to date"
    return
  fi
  say "compiling TypeScript"
  rm -rf dist # a stale compiled module (moved or deleted since) must never be loaded
  node_modules/.bin/tsc -p tsconfig.json
  echo "$want" >"$stamp"
}

# What tsc reads: its config, the compiler version (in the lock) and every file under the
# directories tsconfig.json includes, with their paths (a moved file changes the output too).
sources_hash() {
  {
    sha256sum tsconfig.json package-lock.json
    find scripts provider sdk/nodejs emulator tests bench examples -name node_modules -prune -o -type f \( -name '*.ts' -o -name '*.json' \) -print0 |
      sort -z | xargs -0 sha256sum
  } | sha256sum | cut -d' ' -f1
}
