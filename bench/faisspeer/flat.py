"""FAISS IndexFlatIP on fonte's peer data set, one thread.

Reads base.f32 and queries.f32 (raw little-endian float32, 384 values a
row) written by `go run ./bench/faisspeer/gen -out DIR`, and prints the
median QPS of 5 runs at batch 1 (the first 200 queries one by one) and at
batch 1,000, with k = 10, by wall clock and by the thread's CPU time. If DIR holds fonte_top10.u64 (written by gen
with -bench) it also reports how many of fonte's top-10 ids FAISS returns.

    /usr/bin/python3 bench/faisspeer/flat.py DIR

Uses Debian's python3-faiss (apt-get install python3-faiss). One thread:
OMP_NUM_THREADS and OPENBLAS_NUM_THREADS are set to 1 before FAISS and
NumPy load, and faiss.omp_set_num_threads(1).

Debian's OpenBLAS 0.3.21 does not know recent Xeons (Sapphire/Emerald
Rapids) and falls back to its Prescott (SSE3) kernels there, which makes
FAISS's batch search several times slower; the script prints the core it
got. For the strongest peer run it again with OPENBLAS_CORETYPE=SkylakeX
(the AVX-512 kernels) in the command's environment.
"""

import os

os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"

import ctypes
import statistics
import sys
import time

import faiss
import numpy as np

DIM = 384
K = 10
RUNS = 5
SINGLE = 200


def timed(n, f):
    """Median rates of n queries per second of wall-clock time and of the
    thread's CPU time over RUNS runs of f; on a shared machine the CPU-time
    rate leaves out the time the thread waited for a core."""
    wall, cpu = [], []
    for _ in range(RUNS):
        t, ct = time.perf_counter(), time.thread_time()
        f()
        wall.append(n / (time.perf_counter() - t))
        cpu.append(n / (time.thread_time() - ct))
    return statistics.median(wall), statistics.median(cpu)


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    faiss.omp_set_num_threads(1)
    xb = np.fromfile(os.path.join(d, "base.f32"), dtype="<f4").reshape(-1, DIM)
    xq = np.fromfile(os.path.join(d, "queries.f32"), dtype="<f4").reshape(-1, DIM)
    index = faiss.IndexFlatIP(DIM)
    index.add(xb)
    try:
        ob = ctypes.CDLL("libopenblas.so.0")
        ob.openblas_get_corename.restype = ctypes.c_char_p
        blas = "OpenBLAS core %s, %d thread(s)" % (
            ob.openblas_get_corename().decode(), ob.openblas_get_num_threads())
    except OSError:
        blas = "BLAS unknown"
    print("FAISS %s IndexFlatIP, %d x %d, %d queries, k=%d, omp threads %d, %s"
          % (faiss.__version__, xb.shape[0], DIM, xq.shape[0], K,
             faiss.omp_get_max_threads(), blas))

    index.search(xq[:1], K)  # warm up

    def batch1():
        for i in range(SINGLE):
            index.search(xq[i:i + 1], K)

    one, one_cpu = timed(SINGLE, batch1)
    all_, all_cpu = timed(len(xq), lambda: index.search(xq, K))
    print("FAISS IndexFlatIP              batch 1: %7.1f QPS (CPU %7.1f)   batch %d: %7.1f QPS (CPU %7.1f)"
          % (one, one_cpu, len(xq), all_, all_cpu))

    path = os.path.join(d, "fonte_top10.u64")
    if os.path.exists(path):
        fonte = np.fromfile(path, dtype="<u8").reshape(-1, K)
        _, ids = index.search(xq, K)
        hit = sum(len(set(map(int, a)) & set(map(int, b))) for a, b in zip(ids, fonte))
        print("FAISS top-%d ids shared with fonte's Flat: %.4f" % (K, hit / fonte.size))


if __name__ == "__main__":
    main()
