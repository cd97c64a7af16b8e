# Set-up shared by scripts/test and scripts/demo: everything a fresh machine needs, idempotent.
# Sourced, not run; expects the repo root as the working directory.

say() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }

# npm dependencies, installed again only when package-lock.json changed since the last install.
ensure_node_modules() {
  local stamp=node_modules/.installed-lock-sha256 want
  want=$(sha256sum package-lock.json | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    say "installing npm dependencies"
    npm ci --no-audit --no-fund --loglevel=error >&2
    echo "$want" >"$stamp"
  fi
}

# The Pulumi engine (built from sources on first use, then cached); exports PULUMI_ENGINE_DIR and
# puts it first on PATH so `pulumi` in a shell started from here is the pinned one.
ensure_engine() {
  PULUMI_ENGINE_DIR=$(bash scripts/install-pulumi)
  export PULUMI_ENGINE_DIR PATH="$PULUMI_ENGINE_DIR:$PATH"
}

# actionlint, which the tests run on the example GitHub Actions workflow (built from sources on
# first use, then cached); exports ACTIONLINT_BIN, the binary the tests run.
ensure_actionlint() {
  ACTIONLINT_BIN="$(bash scripts/install-actionlint)/actionlint"
  export ACTIONLINT_BIN
}

build() {
  say "compiling TypeScript"
  rm -rf dist # a stale compiled module (moved or deleted since) must never be loaded
  node_modules/.bin/tsc -p tsconfig.json
}
