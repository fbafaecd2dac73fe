"""hnswlib's Python binding on the benchmark's dense data file: one run.

    /usr/bin/python3 hnswlib_py.py build DATAFILE INDEX [M efConstruction]
    /usr/bin/python3 hnswlib_py.py search DATAFILE INDEX PASSES ef...

Uses Debian's python3-hnswlib (apt-get install python3-hnswlib), the
binding of the same hnswlib that peer.cpp compiles, but built by Debian
for any x86-64 rather than with -march=native. Inner-product space (the
cosine on the unit vectors), one thread (num_threads=1 everywhere).

A build run adds all vectors in one add_items call, prints the build time
(wall and process CPU) and the growth of the resident set per vector, and
saves the index to INDEX. A search run loads INDEX and, at each ef,
searches the queries one knn_query call at a time, PASSES times, as a
Python caller serving one request at a time would, and prints
recall@k against the exact top k and the rates, in peer.cpp's format.
"""

import os

os.environ["OMP_NUM_THREADS"] = "1"

import sys
import time

import hnswlib
import numpy as np


def read_data(path):
    with open(path, "rb") as f:
        if f.read(8) != b"FHNSWPR1":
            sys.exit("hnswlib_py.py: %s is not a benchmark data file" % path)
        n, nq, dim, k = (int(x) for x in np.frombuffer(f.read(16), dtype="<u4"))
        xb = np.fromfile(f, dtype="<f4", count=n * dim).reshape(n, dim)
        xq = np.fromfile(f, dtype="<f4", count=nq * dim).reshape(nq, dim)
        truth = np.fromfile(f, dtype="<u4", count=nq * k).reshape(nq, k)
    return xb, xq, truth


def rss_bytes():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def main():
    mode, path, index_path = sys.argv[1], sys.argv[2], sys.argv[3]
    xb, xq, truth = read_data(path)
    n, dim = xb.shape
    k = truth.shape[1]
    if mode == "build":
        m = int(sys.argv[4]) if len(sys.argv) > 4 else 16
        efc = int(sys.argv[5]) if len(sys.argv) > 5 else 200
        ids = np.arange(n)
        rss0 = rss_bytes()
        t, c = time.perf_counter(), time.process_time()
        p = hnswlib.Index(space="ip", dim=dim)
        p.init_index(max_elements=n, ef_construction=efc, M=m, random_seed=100)
        p.set_num_threads(1)
        p.add_items(xb, ids, num_threads=1)
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        rss1 = rss_bytes()
        print("n %d\nM %d\nefConstruction %d" % (n, m, efc))
        print("build_s %.3f\nbuild_cpu_s %.3f" % (wall, cpu))
        print("rss_bytes_per_vector %.1f" % ((rss1 - rss0) / n))
        p.save_index(index_path)
        return
    passes = int(sys.argv[4])
    efs = [int(e) for e in sys.argv[5:]] or [32, 64, 128]
    p = hnswlib.Index(space="ip", dim=dim)
    t = time.perf_counter()
    p.load_index(index_path, max_elements=n)
    print("load_s %.3f" % (time.perf_counter() - t))
    p.set_num_threads(1)
    want = [set(map(int, row)) for row in truth]
    for ef in efs:
        p.set_ef(ef)
        got = [None] * len(xq)
        t, c = time.perf_counter(), time.process_time()
        for _ in range(passes):
            for i in range(len(xq)):
                got[i] = p.knn_query(xq[i], k=k, num_threads=1)[0]
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        found = sum(len(want[i] & set(map(int, got[i][0]))) for i in range(len(xq)))
        q = passes * len(xq)
        print("ef %d recall %.4f qps %.1f qps_cpu %.1f" % (ef, found / truth.size, q / wall, q / cpu))


if __name__ == "__main__":
    main()
