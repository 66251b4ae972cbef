"""Finding the neurogo binary and the neurogo kernelspec on a worker."""
import os
import shutil
import subprocess


def neurogo_binary(required=False):
    """The neurogo binary: $NEUROGO_BIN (set by `neurogo sweep`), else
    `neurogo` on PATH, else bin/neurogo of the source tree ($NEUROGO_ROOT,
    or the checkout this package lies in). None when there is none, or an
    error when required."""
    cands = [os.environ.get("NEUROGO_BIN")]
    cands.append(shutil.which("neurogo"))
    for root in (os.environ.get("NEUROGO_ROOT"), _checkout()):
        if root:
            cands.append(os.path.join(root, "bin", "neurogo"))
    for c in cands:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    if required:
        raise FileNotFoundError(
            "no neurogo binary on this worker: set NEUROGO_BIN, put neurogo on PATH, or run "
            "scripts/start in the checkout (see docs/guides/sweeps.md, 'Workers')")
    return None


def _checkout():
    d = os.path.dirname(os.path.abspath(__file__))
    for _ in range(4):
        d = os.path.dirname(d)
        if os.path.isfile(os.path.join(d, "go.mod")) and os.path.isdir(os.path.join(d, "kernel")):
            return d
    return None


def ensure_kernelspec(name, scratch):
    """Makes the kernelspec name findable by jupyter_client. When it is not
    installed and name is "neurogo", registers the neurogo binary found
    here in scratch/share/jupyter (neurogo install --prefix) and puts that
    first on JUPYTER_PATH for this process and the kernels it starts."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        KernelSpecManager().get_kernel_spec(name)
        return
    except NoSuchKernel:
        if name != "neurogo":
            raise
    exe = neurogo_binary(required=True)
    prefix = os.path.join(scratch, "kernelspec")
    subprocess.run([exe, "install", "--prefix", prefix], check=True, capture_output=True)
    path = os.path.join(prefix, "share", "jupyter")
    old = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = path + (os.pathsep + old if old else "")
