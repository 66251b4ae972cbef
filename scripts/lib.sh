# Shared helpers for scripts/start and scripts/test (sourced, not run).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/bin:$PATH"

log() { printf '\033[1m[neurogo]\033[0m %s\n' "$*" >&2; }

need_go() {
  if ! command -v go >/dev/null 2>&1; then
    echo "neurogo needs Go 1.26 or newer on PATH (https://go.dev/dl/)" >&2
    exit 1
  fi
}

# ensure_python installs the pinned Python packages when any is missing or
# at another version.
ensure_python() {
  if ! python3 - <<'PY' 2>/dev/null
import importlib.metadata as m, sys
for line in open("requirements.txt"):
    line = line.split("#")[0].strip()
    if not line:
        continue
    name, ver = line.split("==")
    if m.version(name) != ver:
        sys.exit(1)
PY
  then
    log "installing Python packages (requirements.txt)"
    python3 -m pip install -q --disable-pip-version-check -r requirements.txt
  fi
  # papermill's Go translator (python/neurogo_papermill), reinstalled when
  # its sources change.
  local stamp sum
  stamp="$(python3 -c 'import site; print(site.getsitepackages()[0])')/neurogo_papermill.stamp"
  sum=$(cat python/neurogo_papermill/*.py python/neurogo_papermill/*.toml python/neurogo_papermill/*.pth python/neurogo_papermill/neurogo_papermill/*.py | sha256sum | cut -d' ' -f1)
  if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$sum" ]]; then
    log "installing the papermill Go translator (python/neurogo_papermill)"
    python3 -m pip install -q --disable-pip-version-check ./python/neurogo_papermill
    rm -rf python/neurogo_papermill/build python/neurogo_papermill/*.egg-info
    echo "$sum" > "$stamp" 2>/dev/null || true
  fi
}

# build_kernel builds bin/neurogo.
build_kernel() {
  need_go
  log "building bin/neurogo"
  mkdir -p bin
  # GOEXPERIMENT=simd: the simulator's inner loops (internal/vec) use AVX2
  # vectors when the CPU has them (bit-identical to the portable loops)
  GOEXPERIMENT=simd go build -o bin/neurogo ./cmd/neurogo
}

# ensure_chromium installs Debian's chromium for the JupyterLab end-to-end
# test when it is missing and we may (root with apt-get).
ensure_chromium() {
  if [[ -x /usr/bin/chromium ]]; then return 0; fi
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    log "installing chromium (Debian package) for the JupyterLab end-to-end test"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    log "chromium is missing and cannot be installed here (needs root and apt-get)"
  fi
}

# ensure_e2e_node installs playwright-core for the end-to-end test.
ensure_e2e_node() {
  local d="$ROOT/kernel/jupytertest/e2e"
  [[ -f "$d/package.json" ]] || return 0
  if [[ ! -d "$d/node_modules/playwright-core" ]]; then
    log "installing playwright-core (npm ci) for the end-to-end test"
    (cd "$d" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}
