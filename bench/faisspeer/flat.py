"""FAISS IndexFlatIP on the benchmark's dense data file, one thread: one run.

    /usr/bin/python3 flat.py DATAFILE [SINGLE]

Reads the file the benchmark command writes (bench/data.go: "FHNSWPR1",
n, queries, dim, k as uint32, then the vectors, the queries and the exact
top k, little-endian), adds the vectors to an IndexFlatIP (timed, with the
growth of the process's resident set over the index's creation and the
adds, per vector: the index's memory, the data already loaded), then
times the first SINGLE queries (default 200) searched one at a time (by
FAISS's own kernels, as by default, and through BLAS) and all queries in
one batch, k = 10, by wall clock and by the process's CPU time,
and checks the batch's results against the exact top k. Prints one
"key value" line per measure, as the benchmark's own workers do.

Uses Debian's python3-faiss (apt-get install python3-faiss). One thread:
OMP_NUM_THREADS and OPENBLAS_NUM_THREADS are set to 1 before FAISS and
NumPy load, and faiss.omp_set_num_threads(1).

Debian's OpenBLAS 0.3.21 does not know recent Xeons (Sapphire/Emerald
Rapids) and falls back to its Prescott (SSE3) kernels there, which makes
FAISS's batch search several times slower; the benchmark sets
OPENBLAS_CORETYPE=SkylakeX (the AVX-512 kernels) when the CPU has
AVX-512, and the script prints the core OpenBLAS chose.
"""

import os

os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"

import ctypes
import sys
import time

import faiss
import numpy as np


def read_data(path):
    with open(path, "rb") as f:
        if f.read(8) != b"FHNSWPR1":
            sys.exit("flat.py: %s is not a benchmark data file" % path)
        n, nq, dim, k = np.frombuffer(f.read(16), dtype="<u4")
        n, nq, dim, k = int(n), int(nq), int(dim), int(k)
        xb = np.fromfile(f, dtype="<f4", count=n * dim).reshape(n, dim)
        xq = np.fromfile(f, dtype="<f4", count=nq * dim).reshape(nq, dim)
        truth = np.fromfile(f, dtype="<u4", count=nq * k).reshape(nq, k)
    return xb, xq, truth


def rss_bytes():
    # /proc/self/statm: size, resident, ... in pages.
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def timed(key, n, f):
    t, c = time.perf_counter(), time.process_time()
    f()
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    print("%s %.2f\n%s_cpu %.2f" % (key, n / wall, key, n / cpu))


def main():
    path = sys.argv[1]
    single = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    faiss.omp_set_num_threads(1)
    xb, xq, truth = read_data(path)
    k = truth.shape[1]
    try:
        ob = ctypes.CDLL("libopenblas.so.0")
        ob.openblas_get_corename.restype = ctypes.c_char_p
        core = ob.openblas_get_corename().decode()
    except OSError:
        core = "unknown"
    print("info faiss %s" % faiss.__version__)
    print("info openblas_core %s" % core)
    print("info numpy %s" % np.__version__)
    print("info compile %s" % (faiss.get_compile_options() if hasattr(faiss, "get_compile_options") else "unknown"))
    rss0 = rss_bytes()
    index = faiss.IndexFlatIP(xb.shape[1])
    t = time.perf_counter()
    index.add(xb)
    print("add_s %.4f" % (time.perf_counter() - t))
    print("rss_bytes_per_vector %.1f" % ((rss_bytes() - rss0) / len(xb)))

    index.search(xq[:1], k)  # warm up
    single = min(single, len(xq))

    def one_by_one():
        for i in range(single):
            index.search(xq[i:i + 1], k)

    timed("single_qps", single, one_by_one)
    # FAISS scans one query without BLAS (its own kernels, which Debian
    # builds for any x86-64) below distance_compute_blas_threshold queries
    # (20); forcing the BLAS path makes single queries faster here, so it
    # is measured too, as FAISS's best single-query figure.
    default = faiss.cvar.distance_compute_blas_threshold
    faiss.cvar.distance_compute_blas_threshold = 1
    index.search(xq[:1], k)
    timed("single_blas_qps", single, one_by_one)
    faiss.cvar.distance_compute_blas_threshold = default
    out = {}
    timed("batch_qps", len(xq), lambda: out.setdefault("ids", index.search(xq, k)[1]))
    ids = out["ids"]
    found = sum(len(set(map(int, a)) & set(map(int, b))) for a, b in zip(ids, truth))
    print("recall %.4f" % (found / truth.size))


if __name__ == "__main__":
    main()
