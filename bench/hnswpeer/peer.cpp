// peer.cpp measures hnswlib (Debian's libhnswlib-dev headers) on the data
// file the benchmark command (bench/) writes, so all engines are timed on the
// same vectors, queries and ground truth. Single-threaded throughout.
//
// Input (little-endian), written by the benchmark command (bench/data.go):
//   magic "FHNSWPR1", n, nq, dim, k (uint32 each),
//   n*dim float32 vectors, nq*dim float32 queries,
//   nq*k uint32 exact top-k row numbers (float64 brute force).
//
// Output: one "key value" line per measure, read by the benchmark command.
//
// Usage: peer DATAFILE [M efConstruction passes ef...]
//
// With PEER_INDEX=FILE, an index is saved to FILE after a build, and
// loaded from FILE instead of built when FILE exists.

#include <hnswlib/hnswlib.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <unordered_set>
#include <vector>

namespace {

// rss_kb reads a "VmRSS:" or "VmHWM:" line of /proc/self/status.
long rss_kb(const char *key) {
    std::ifstream f("/proc/self/status");
    std::string line;
    size_t n = std::strlen(key);
    while (std::getline(f, line)) {
        if (line.compare(0, n, key) == 0) return std::atol(line.c_str() + n);
    }
    return -1;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// cpu_seconds is the process's CPU time: on a shared machine it does not
// count the time spent waiting for a core, as fonte's benchmark does not.
double cpu_seconds() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

template <typename T>
void read_or_die(std::ifstream &in, T *dst, size_t count, const char *what) {
    in.read(reinterpret_cast<char *>(dst), static_cast<std::streamsize>(count * sizeof(T)));
    if (!in) {
        std::fprintf(stderr, "peer: truncated file reading %s\n", what);
        std::exit(1);
    }
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s DATAFILE [M efConstruction passes ef...]\n", argv[0]);
        return 2;
    }
    size_t M = argc > 2 ? std::atoi(argv[2]) : 16;
    size_t efc = argc > 3 ? std::atoi(argv[3]) : 200;
    int passes = argc > 4 ? std::atoi(argv[4]) : 3;
    std::vector<size_t> efs;
    for (int i = 5; i < argc; i++) efs.push_back(std::atoi(argv[i]));
    if (efs.empty()) efs = {32, 64, 128};

    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "peer: cannot open %s\n", argv[1]);
        return 1;
    }
    char magic[8];
    read_or_die(in, magic, 8, "magic");
    if (std::memcmp(magic, "FHNSWPR1", 8) != 0) {
        std::fprintf(stderr, "peer: %s is not a fonte peer data file\n", argv[1]);
        return 1;
    }
    uint32_t hdr[4];
    read_or_die(in, hdr, 4, "header");
    const size_t n = hdr[0], nq = hdr[1], dim = hdr[2], k = hdr[3];
    std::vector<float> data(n * dim), queries(nq * dim);
    std::vector<uint32_t> truth(nq * k);
    read_or_die(in, data.data(), data.size(), "vectors");
    read_or_die(in, queries.data(), queries.size(), "queries");
    read_or_die(in, truth.data(), truth.size(), "ground truth");

    std::printf("n %zu\nqueries %zu\ndim %zu\nM %zu\nefConstruction %zu\n", n, nq, dim, M, efc);
    long rss_before = rss_kb("VmRSS:");

    // Inner product space: distance 1 - <a, b>, the cosine on normalised
    // vectors, like fonte's scores.
    hnswlib::InnerProductSpace space(dim);
    auto t0 = std::chrono::steady_clock::now();
    double c0 = cpu_seconds();
    hnswlib::HierarchicalNSW<float> *index;
    // PEER_INDEX names a saved index to load instead of building (for
    // repeated search measurements); it is written after a build.
    const char *saved = std::getenv("PEER_INDEX");
    bool load = saved && std::ifstream(saved).good();
    if (load) {
        index = new hnswlib::HierarchicalNSW<float>(&space, saved);
    } else {
        index = new hnswlib::HierarchicalNSW<float>(&space, n, M, efc, 100);
        for (size_t i = 0; i < n; i++) index->addPoint(data.data() + i * dim, i);
    }
    double build = seconds_since(t0);
    double build_cpu = cpu_seconds() - c0;
    long rss_after = rss_kb("VmRSS:");
    if (load) {
        std::printf("load_s %.3f\n", build);
    } else {
        std::printf("build_s %.3f\nbuild_cpu_s %.3f\n", build, build_cpu);
        // The growth of the resident set over the build, per vector.
        std::printf("rss_bytes_per_vector %.1f\n", (rss_after - rss_before) * 1024.0 / n);
        if (saved) index->saveIndex(saved);
    }
    size_t links0 = 0;
    for (size_t i = 0; i < n; i++) links0 += index->getListCount(index->get_linklist0(i));
    std::printf("mean_degree0 %.2f\n", double(links0) / n);

    for (size_t ef : efs) {
        if (passes < 1) break;  // a build-only run
        index->setEf(ef);
        // passes runs over the queries, timed together, as fonte's
        // benchmark times -benchtime Nx.
        std::vector<uint32_t> got(nq * k);
        index->metric_hops = 0;
        index->metric_distance_computations = 0;
        auto t = std::chrono::steady_clock::now();
        double c = cpu_seconds();
        for (int r = 0; r < passes; r++) {
            for (size_t q = 0; q < nq; q++) {
                auto res = index->searchKnn(queries.data() + q * dim, k);
                for (size_t j = 0; !res.empty(); j++, res.pop()) got[q * k + j] = res.top().second;
            }
        }
        double wall = seconds_since(t), cpu = cpu_seconds() - c;
        // Recall outside the clock, as in fonte's benchmark.
        size_t found = 0;
        for (size_t q = 0; q < nq; q++) {
            std::unordered_set<uint32_t> want(truth.begin() + q * k, truth.begin() + (q + 1) * k);
            for (size_t j = 0; j < k; j++) found += want.count(got[q * k + j]);
        }
        double recall = double(found) / double(nq * k);
        std::printf("ef %zu recall %.4f qps %.0f qps_cpu %.0f\n", ef, recall, passes * nq / wall, passes * nq / cpu);
        // hnswlib's own counters: expanded nodes, and links looked at
        // (visited or not), per query, all layers.
        std::printf("ef %zu hops %.1f links_seen %.1f\n", ef, double(index->metric_hops) / (passes * nq),
                    double(index->metric_distance_computations) / (passes * nq));
    }
    std::printf("peak_rss_mb %.1f\n", rss_kb("VmHWM:") / 1024.0);
    delete index;
    return 0;
}
