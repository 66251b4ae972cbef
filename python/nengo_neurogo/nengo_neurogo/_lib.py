"""Loading libneurogo, the Go half of the backend (cmd/libneurogo)."""

import ctypes
import os
import pathlib
import shutil
import subprocess
import threading

_lock = threading.Lock()
_lib = None

CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_longlong, ctypes.c_longlong, ctypes.c_double)

_c_char_pp = ctypes.POINTER(ctypes.c_void_p)  # C strings the caller frees


def _repo_root():
    """The neurogo checkout this package lies in, if any."""
    here = pathlib.Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "go.mod").is_file() and (parent / "cmd" / "libneurogo").is_dir():
            return parent
    return None


def library_path():
    """Where libneurogo is: $NENGO_NEUROGO_LIB, next to this file, or built on demand."""
    env = os.environ.get("NENGO_NEUROGO_LIB")
    if env:
        return pathlib.Path(env)
    return pathlib.Path(__file__).resolve().parent / "libneurogo.so"


def build(path=None, quiet=True):
    """Build libneurogo from the neurogo checkout with the Go toolchain."""
    root = _repo_root()
    if root is None:
        raise RuntimeError(
            "nengo_neurogo: libneurogo is missing and this package is not inside a "
            "neurogo checkout to build it from; set NENGO_NEUROGO_LIB to the library"
        )
    go = shutil.which("go")
    if go is None:
        raise RuntimeError(
            "nengo_neurogo: libneurogo is missing and the Go toolchain ('go') is not on "
            "PATH to build it (go build -buildmode=c-shared ./cmd/libneurogo)"
        )
    path = pathlib.Path(path or library_path())
    cmd = [go, "build", "-buildmode=c-shared", "-o", str(path), "./cmd/libneurogo"]
    r = subprocess.run(cmd, cwd=root, capture_output=quiet, text=True, check=False)
    if r.returncode != 0:
        raise RuntimeError(f"nengo_neurogo: {' '.join(cmd)} failed:\n{r.stderr}")
    header = path.with_suffix(".h")
    if header.exists():
        header.unlink()
    return path


def load():
    """The loaded library (built first if it is missing)."""
    global _lib
    with _lock:
        if _lib is not None:
            return _lib
        path = library_path()
        if not path.exists():
            build(path)
        lib = ctypes.CDLL(str(path))
        ll, i, d = ctypes.c_longlong, ctypes.c_int, ctypes.c_double
        dp = ctypes.POINTER(d)
        lib.ng_check.argtypes = [ctypes.c_char_p, ll, _c_char_pp]
        lib.ng_check.restype = i
        lib.ng_new.argtypes = [ctypes.c_char_p, ll, dp, ll, CALLBACK, _c_char_pp]
        lib.ng_new.restype = ll
        lib.ng_run.argtypes = [ll, ll, _c_char_pp]
        lib.ng_run.restype = i
        lib.ng_reset.argtypes = [ll, _c_char_pp]
        lib.ng_reset.restype = i
        lib.ng_clear_probes.argtypes = [ll]
        lib.ng_clear_probes.restype = i
        lib.ng_steps.argtypes = [ll]
        lib.ng_steps.restype = ll
        lib.ng_signal.argtypes = [ll, ll, ctypes.POINTER(dp), ctypes.POINTER(ll)]
        lib.ng_signal.restype = i
        lib.ng_probe_len.argtypes = [ll, ll]
        lib.ng_probe_len.restype = ll
        lib.ng_probe.argtypes = [ll, ll, ll, dp, ll]
        lib.ng_probe.restype = ll
        lib.ng_plan.argtypes = [ll]
        lib.ng_plan.restype = ctypes.c_void_p
        lib.ng_close.argtypes = [ll]
        lib.ng_close.restype = None
        lib.ng_free.argtypes = [ctypes.c_void_p]
        lib.ng_free.restype = None
        lib.ng_memory.argtypes = []
        lib.ng_memory.restype = ll
        lib.ng_heap.argtypes = []
        lib.ng_heap.restype = ll
        _lib = lib
        return lib


def take_string(lib, ptr):
    """The text of a C string the library returned, which it then frees."""
    if not ptr:
        return ""
    raw = ctypes.string_at(ptr)
    lib.ng_free(ptr)
    return raw.decode("utf-8", "replace")
