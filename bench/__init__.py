"""Benchmarks: scripts that measure and print (docs record their figures)."""

import os

# As in ``computer``: one BLAS thread, set before any benchmark imports numpy (a bench
# that imports numpy before ``computer`` would otherwise get a thread per core).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
