/*
 * Plain C reference implementations of perfect-maze generators, for comparing
 * the speed of mazeart's compiled kernels against straightforward C doing the
 * same algorithm on the same grid.
 *
 * Grid: H x W cells, cell i = row * W + col. Output: uint8_t passages[H * W],
 * bit N=1 (row - 1), E=2 (col + 1), S=4 (row + 1), W=8 (col - 1), set on both
 * cells of every opened passage.
 *
 * Randomness: SplitMix64 and Lemire's multiply-shift for bounded integers, the
 * stream mazeart's kernels use (mazeart/_rng.py). Wherever the package's kernel
 * draws in the same order (backtracker, prim, wilson, sidewinder, binary_tree)
 * the same stream gives the same maze.
 *
 * Build:  cc -O2 -std=c11 -o c_reference c_reference.c
 * Usage:  ./c_reference ALGO H W SEED REPEAT [DUMP]
 *   ALGO is one of backtracker, prim, kruskal, wilson, eller, sidewinder,
 *   binary_tree, digging (on blocks: its passages are the road's tree, which
 *   spans the road, not the grid). Prints one line of JSON. best_s is the best
 *   wall time over REPEAT runs, each run including the allocation and zeroing
 *   of the passages array and of every work array. With DUMP (a path, or "-" for stdout) the
 *   H * W passage bytes of the last run are written there and the JSON goes to
 *   stderr when DUMP is "-".
 */

#define _POSIX_C_SOURCE 199309L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { DIR_N, DIR_E, DIR_S, DIR_W };

/* ------------------------------------------------------------------ random */

static inline uint64_t next_u64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform integer in [0, k) for 1 <= k < 2^32. */
static inline uint32_t below(uint64_t *state, uint32_t k)
{
    return (uint32_t)(((next_u64(state) >> 32) * (uint64_t)k) >> 32);
}

/* A fair coin: one of the 64 flips buffered from a single draw (the buffer
 * carries over from row to row). */
static inline int flip(uint64_t *state, uint64_t *flips, int *left)
{
    if (*left == 0) {
        *flips = next_u64(state);
        *left = 64;
    }
    int heads = (int)(*flips & 1);
    *flips >>= 1;
    (*left)--;
    return heads;
}

/* ----------------------------------------------------------------- helpers */

static void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count, size);
    if (p == NULL && count != 0) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

/* Open the passage from cell a in direction d to its neighbour b. */
static inline void carve(uint8_t *passages, uint32_t a, int d, uint32_t b)
{
    passages[a] |= (uint8_t)(1u << d);
    passages[b] |= (uint8_t)(1u << ((d + 2) & 3));
}

/* Root of a in a union-find forest, halving the path on the way. */
static inline uint32_t find(uint32_t *parent, uint32_t a)
{
    while (parent[a] != a) {
        parent[a] = parent[parent[a]];
        a = parent[a];
    }
    return a;
}

/* ------------------------------------------------------------- backtracker */

/* Depth-first walk with an explicit stack: carve from the top cell into a
 * random unvisited neighbour and push it; pop when there is none. */
static void gen_backtracker(uint8_t *passages, uint32_t h, uint32_t w, uint64_t seed)
{
    uint64_t rng = seed;
    uint32_t n = h * w;
    uint8_t *visited = xcalloc(n, 1);
    uint32_t *stack = xcalloc(n, sizeof *stack);
    const int32_t step[4] = {-(int32_t)w, 1, (int32_t)w, -1};

    uint32_t start = below(&rng, n);
    visited[start] = 1;
    stack[0] = start;
    size_t top = 1;
    while (top > 0) {
        uint32_t cur = stack[top - 1];
        uint32_t row = cur / w, col = cur - row * w;
        int dirs[4], k = 0;
        if (row > 0 && !visited[cur - w]) dirs[k++] = DIR_N;
        if (col + 1 < w && !visited[cur + 1]) dirs[k++] = DIR_E;
        if (row + 1 < h && !visited[cur + w]) dirs[k++] = DIR_S;
        if (col > 0 && !visited[cur - 1]) dirs[k++] = DIR_W;
        if (k == 0) {
            top--;
            continue;
        }
        int d = k == 1 ? dirs[0] : dirs[below(&rng, (uint32_t)k)];
        uint32_t nb = (uint32_t)((int64_t)cur + step[d]);
        carve(passages, cur, d, nb);
        visited[nb] = 1;
        stack[top++] = nb;
    }
    free(stack);
    free(visited);
}

/* -------------------------------------------------------------------- prim */

enum { UNSEEN = 0, FRONTIER = 1, IN_MAZE = 2 };

/* Randomized Prim's on cells ("simplified" Prim's): the frontier is every cell
 * beside the maze; a uniformly random frontier cell joins the maze through a
 * uniformly random neighbour already in it, and its unseen neighbours join the
 * frontier (in the order N, E, S, W). */
static void gen_prim(uint8_t *passages, uint32_t h, uint32_t w, uint64_t seed)
{
    uint64_t rng = seed;
    uint32_t n = h * w;
    uint8_t *state = xcalloc(n, 1);
    uint32_t *frontier = xcalloc(n, sizeof *frontier);
    const int32_t step[4] = {-(int32_t)w, 1, (int32_t)w, -1};
    size_t m = 0;

    uint32_t cur = below(&rng, n);
    for (;;) {
        uint32_t row = cur / w, col = cur - row * w;
        state[cur] = IN_MAZE;
        if (row > 0 && state[cur - w] == UNSEEN) {
            state[cur - w] = FRONTIER;
            frontier[m++] = cur - w;
        }
        if (col + 1 < w && state[cur + 1] == UNSEEN) {
            state[cur + 1] = FRONTIER;
            frontier[m++] = cur + 1;
        }
        if (row + 1 < h && state[cur + w] == UNSEEN) {
            state[cur + w] = FRONTIER;
            frontier[m++] = cur + w;
        }
        if (col > 0 && state[cur - 1] == UNSEEN) {
            state[cur - 1] = FRONTIER;
            frontier[m++] = cur - 1;
        }
        if (m == 0)
            break;

        size_t i = below(&rng, (uint32_t)m);
        cur = frontier[i];
        frontier[i] = frontier[--m];
        row = cur / w;
        col = cur - row * w;
        int dirs[4], k = 0;
        if (row > 0 && state[cur - w] == IN_MAZE) dirs[k++] = DIR_N;
        if (col + 1 < w && state[cur + 1] == IN_MAZE) dirs[k++] = DIR_E;
        if (row + 1 < h && state[cur + w] == IN_MAZE) dirs[k++] = DIR_S;
        if (col > 0 && state[cur - 1] == IN_MAZE) dirs[k++] = DIR_W;
        int d = k == 1 ? dirs[0] : dirs[below(&rng, (uint32_t)k)];
        carve(passages, cur, d, (uint32_t)((int64_t)cur + step[d]));
    }
    free(frontier);
    free(state);
}

/* ----------------------------------------------------------------- kruskal */

/* Randomized Kruskal's: shuffle every interior wall (Fisher-Yates), then remove
 * each wall whose two cells are in different trees (union-find with path
 * halving and union by rank), stopping once the tree spans the grid.
 * Wall 2 * i is the east wall of cell i, wall 2 * i + 1 its south wall. */
static void gen_kruskal(uint8_t *passages, uint32_t h, uint32_t w, uint64_t seed)
{
    uint64_t rng = seed;
    uint32_t n = h * w;
    size_t n_walls = (size_t)h * (w - 1) + (size_t)(h - 1) * w;
    uint32_t *walls = xcalloc(n_walls, sizeof *walls);
    uint32_t *parent = xcalloc(n, sizeof *parent);
    uint8_t *rank = xcalloc(n, 1);

    size_t m = 0;
    for (uint32_t row = 0; row < h; row++) {
        for (uint32_t col = 0; col < w; col++) {
            uint32_t i = row * w + col;
            if (col + 1 < w) walls[m++] = 2 * i;
            if (row + 1 < h) walls[m++] = 2 * i + 1;
        }
    }
    for (size_t j = n_walls; j > 1; j--) {
        size_t k = below(&rng, (uint32_t)j);
        uint32_t t = walls[j - 1];
        walls[j - 1] = walls[k];
        walls[k] = t;
    }
    for (uint32_t i = 0; i < n; i++)
        parent[i] = i;

    uint32_t joined = 0;
    for (size_t j = 0; j < n_walls && joined + 1 < n; j++) {
        uint32_t a = walls[j] >> 1;
        int d = (walls[j] & 1) ? DIR_S : DIR_E;
        uint32_t b = d == DIR_S ? a + w : a + 1;
        uint32_t ra = find(parent, a), rb = find(parent, b);
        if (ra == rb)
            continue;
        if (rank[ra] < rank[rb]) {
            uint32_t t = ra;
            ra = rb;
            rb = t;
        }
        parent[rb] = ra;
        if (rank[ra] == rank[rb])
            rank[ra]++;
        carve(passages, a, d, b);
        joined++;
    }
    free(rank);
    free(parent);
    free(walls);
}

/* ------------------------------------------------------------------ wilson */

/* Wilson's algorithm: a random root starts the tree; from every cell not yet in
 * it (in reading order) a random walk runs until it meets the tree, each cell
 * remembering only the direction it was last left by, which erases the loops;
 * the loop-free path is then added to the tree. */
static void gen_wilson(uint8_t *passages, uint32_t h, uint32_t w, uint64_t seed)
{
    uint64_t rng = seed;
    uint32_t n = h * w;
    uint8_t *in_tree = xcalloc(n, 1);
    uint8_t *leave = xcalloc(n, 1);
    const int32_t step[4] = {-(int32_t)w, 1, (int32_t)w, -1};
    static const int32_t drow[4] = {-1, 0, 1, 0}, dcol[4] = {0, 1, 0, -1};

    in_tree[below(&rng, n)] = 1;
    for (uint32_t row0 = 0; row0 < h; row0++) {
        for (uint32_t col0 = 0; col0 < w; col0++) {
            uint32_t start = row0 * w + col0;
            if (in_tree[start])
                continue;
            uint32_t cur = start, row = row0, col = col0;
            while (!in_tree[cur]) {
                int dirs[4], k = 0;
                if (row > 0) dirs[k++] = DIR_N;
                if (col + 1 < w) dirs[k++] = DIR_E;
                if (row + 1 < h) dirs[k++] = DIR_S;
                if (col > 0) dirs[k++] = DIR_W;
                int d = k == 1 ? dirs[0] : dirs[below(&rng, (uint32_t)k)];
                leave[cur] = (uint8_t)d;
                cur = (uint32_t)((int64_t)cur + step[d]);
                row = (uint32_t)((int32_t)row + drow[d]);
                col = (uint32_t)((int32_t)col + dcol[d]);
            }
            cur = start;
            while (!in_tree[cur]) {
                int d = leave[cur];
                uint32_t nb = (uint32_t)((int64_t)cur + step[d]);
                carve(passages, cur, d, nb);
                in_tree[cur] = 1;
                cur = nb;
            }
        }
    }
    free(leave);
    free(in_tree);
}

/* ------------------------------------------------------------------- eller */

/* Eller's algorithm, one row of sets in memory. Each row: cells inherit the
 * set of the cell above when joined to it, other cells get new sets (ids are
 * renumbered 0..k-1 per row); adjacent cells of different sets are joined east
 * on a coin flip (always on the last row), merging the sets in a union-find
 * over the row's ids; then each cell opens south on a coin flip, and every set
 * that did not open south opens below one of its cells chosen at random. */
static void gen_eller(uint8_t *passages, uint32_t h, uint32_t w, uint64_t seed)
{
    uint64_t rng = seed;
    int32_t *above = xcalloc(w, sizeof *above);   /* set carried down, or -1 */
    int32_t *remap = xcalloc(w, sizeof *remap);   /* old set -> this row's id */
    uint32_t *id = xcalloc(w, sizeof *id);        /* set id of each column */
    uint32_t *parent = xcalloc(w, sizeof *parent);
    uint32_t *count = xcalloc(w, sizeof *count);  /* cells per set */
    uint8_t *linked = xcalloc(w, 1);              /* set has opened south */

    for (uint32_t col = 0; col < w; col++) {
        above[col] = -1;
        remap[col] = -1;
    }
    for (uint32_t row = 0; row < h; row++) {
        uint32_t base = row * w;
        int last = row + 1 == h;

        uint32_t k = 0;
        for (uint32_t col = 0; col < w; col++) {
            int32_t old = above[col];
            uint32_t s;
            if (old >= 0 && remap[old] >= 0) {
                s = (uint32_t)remap[old];
            } else {
                s = k++;
                parent[s] = s;
                if (old >= 0)
                    remap[old] = (int32_t)s;
            }
            id[col] = s;
        }
        for (uint32_t col = 0; col < w; col++) {
            if (above[col] >= 0)
                remap[above[col]] = -1;
        }

        for (uint32_t col = 0; col + 1 < w; col++) {
            uint32_t a = find(parent, id[col]);
            uint32_t b = find(parent, id[col + 1]);
            if (a == b)
                continue;
            if (last || below(&rng, 2) == 0) {
                parent[b] = a;
                carve(passages, base + col, DIR_E, base + col + 1);
            }
        }
        if (last)
            break;

        for (uint32_t s = 0; s < k; s++) {
            count[s] = 0;
            linked[s] = 0;
        }
        for (uint32_t col = 0; col < w; col++) {
            uint32_t s = find(parent, id[col]);
            id[col] = s;
            count[s]++;
            above[col] = -1;
        }
        for (uint32_t col = 0; col < w; col++) {
            if (below(&rng, 2) == 0) {
                uint32_t s = id[col];
                linked[s] = 1;
                above[col] = (int32_t)s;
                carve(passages, base + col, DIR_S, base + w + col);
            }
        }
        int any_unlinked = 0;
        for (uint32_t s = 0; s < k; s++) {
            if (parent[s] == s && !linked[s]) {
                count[s] = 1 + below(&rng, count[s]); /* count down to the chosen cell */
                any_unlinked = 1;
            }
        }
        if (any_unlinked) {
            for (uint32_t col = 0; col < w; col++) {
                uint32_t s = id[col];
                if (!linked[s] && --count[s] == 0) {
                    linked[s] = 1;
                    above[col] = (int32_t)s;
                    carve(passages, base + col, DIR_S, base + w + col);
                }
            }
        }
    }
    free(linked);
    free(count);
    free(parent);
    free(id);
    free(remap);
    free(above);
}

/* -------------------------------------------------------------- sidewinder */

/* Sidewinder: each row is cut into runs; a run extends east on a coin flip, and
 * when it closes, one of its cells chosen at random opens north. The top row
 * is a single run with no way north. Coins come 64 to a draw, as in mazeart. */
static void gen_sidewinder(uint8_t *passages, uint32_t h, uint32_t w, uint64_t seed)
{
    uint64_t rng = seed, flips = 0;
    int left = 0;
    for (uint32_t row = 0; row < h; row++) {
        uint32_t base = row * w;
        uint32_t run = 0; /* cells of the current run */
        for (uint32_t col = 0; col < w; col++) {
            uint32_t i = base + col;
            if (row > 0)
                run++;
            if (col + 1 < w && (row == 0 || flip(&rng, &flips, &left))) {
                carve(passages, i, DIR_E, i + 1);
                continue;
            }
            if (run > 0) {
                uint32_t up = i + 1 - run + (run > 1 ? below(&rng, run) : 0);
                carve(passages, up, DIR_N, up - w);
            }
            run = 0;
        }
    }
}

/* ------------------------------------------------------------- binary tree */

/* Binary tree: every cell opens north or west on a coin flip (only one way in
 * the top row and the left column), so every cell leads to the north-west
 * corner. This is the bias of mazeart's binary-tree; north/east is its mirror
 * image and costs the same. Coins come 64 to a draw, as in mazeart. */
static void gen_binary_tree(uint8_t *passages, uint32_t h, uint32_t w, uint64_t seed)
{
    uint64_t rng = seed, flips = 0;
    int left = 0;
    for (uint32_t row = 0; row < h; row++) {
        for (uint32_t col = 0; col < w; col++) {
            uint32_t i = row * w + col;
            int north = row > 0, west = col > 0;
            int go_north;
            if (north && west)
                go_north = flip(&rng, &flips, &left);
            else if (north || west)
                go_north = north;
            else
                continue;
            if (go_north)
                carve(passages, i, DIR_N, i - w);
            else
                carve(passages, i, DIR_W, i - 1);
        }
    }
}

/* ----------------------------------------------------------------- digging */

/* Digging (road extension) on H x W blocks: from a random block, extend the road
 * into a random neighbouring block whose other three sides are not road (so no
 * loop forms), until it cannot; then restart from a random road block, dropping
 * a block from the list when it cannot grow. The ground outside is wall. The
 * passages join each road block to the block it was dug from, so they form a
 * tree over the road (not a spanning tree of the grid). */
static void gen_digging(uint8_t *passages, uint32_t h, uint32_t w, uint64_t seed)
{
    uint64_t rng = seed;
    uint32_t n = h * w, stride = w + 2;
    size_t framed = (size_t)(h + 2) * stride;
    uint8_t *ground = xcalloc(framed, 1); /* 0 free, 1 road, 2 outside */
    uint32_t *active = xcalloc(n, sizeof *active);
    const int32_t step[4] = {-(int32_t)stride, 1, (int32_t)stride, -1};

    for (uint32_t col = 0; col < stride; col++)
        ground[col] = ground[(size_t)(h + 1) * stride + col] = 2;
    for (uint32_t row = 0; row < h + 2; row++)
        ground[(size_t)row * stride] = ground[(size_t)row * stride + w + 1] = 2;

    uint32_t start = below(&rng, n);
    uint32_t s = (start / w + 1) * stride + start % w + 1;
    ground[s] = 1;
    active[0] = s;
    uint32_t m = 1;
    while (m > 0) {
        uint32_t i = below(&rng, m);
        uint32_t cur = active[i];
        int extended = 0;
        for (;;) {
            int dirs[4], k = 0;
            for (int d = 0; d < 4; d++) {
                uint32_t t = cur + step[d];
                if (ground[t] != 0)
                    continue;
                int back = (d + 2) & 3, ok = 1;
                for (int e = 0; e < 4 && ok; e++)
                    if (e != back && ground[t + step[e]] == 1)
                        ok = 0;
                if (ok)
                    dirs[k++] = d;
            }
            if (k == 0)
                break;
            int d = k == 1 ? dirs[0] : dirs[below(&rng, (uint32_t)k)];
            uint32_t next = cur + step[d];
            ground[next] = 1;
            carve(passages, (cur / stride - 1) * w + cur % stride - 1, d,
                  (next / stride - 1) * w + next % stride - 1);
            active[m++] = next;
            cur = next;
            extended = 1;
        }
        if (!extended)
            active[i] = active[--m];
    }
    free(active);
    free(ground);
}

/* -------------------------------------------------------------------- main */

typedef void (*generator)(uint8_t *, uint32_t, uint32_t, uint64_t);

static const struct {
    const char *name;
    generator fn;
} ALGORITHMS[] = {
    {"backtracker", gen_backtracker},
    {"prim", gen_prim},
    {"kruskal", gen_kruskal},
    {"wilson", gen_wilson},
    {"eller", gen_eller},
    {"sidewinder", gen_sidewinder},
    {"binary_tree", gen_binary_tree},
    {"digging", gen_digging},
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int usage(void)
{
    fprintf(stderr, "usage: c_reference ALGO H W SEED REPEAT [DUMP]\n  ALGO:");
    for (size_t a = 0; a < sizeof ALGORITHMS / sizeof ALGORITHMS[0]; a++)
        fprintf(stderr, " %s", ALGORITHMS[a].name);
    fprintf(stderr, "\n");
    return 2;
}

static int parse_u64(const char *text, unsigned long long *out)
{
    char *end;
    if (*text == '\0' || *text == '-')
        return 0;
    *out = strtoull(text, &end, 10);
    return *end == '\0';
}

int main(int argc, char **argv)
{
    if (argc != 6 && argc != 7)
        return usage();
    generator fn = NULL;
    const char *name = argv[1];
    for (size_t a = 0; a < sizeof ALGORITHMS / sizeof ALGORITHMS[0]; a++) {
        if (strcmp(name, ALGORITHMS[a].name) == 0)
            fn = ALGORITHMS[a].fn;
    }
    unsigned long long h, w, seed, repeat;
    if (fn == NULL || !parse_u64(argv[2], &h) || !parse_u64(argv[3], &w)
        || !parse_u64(argv[4], &seed) || !parse_u64(argv[5], &repeat))
        return usage();
    if (h == 0 || w == 0 || repeat == 0 || h * w >= (1ULL << 31) || h >= (1ULL << 31)
        || w >= (1ULL << 31)) {
        fprintf(stderr, "need H, W, REPEAT >= 1 and H * W < 2^31\n");
        return 2;
    }
    size_t n = (size_t)(h * w);

    double best = 1e300;
    uint64_t checksum = 0, edges = 0;
    for (unsigned long long run = 0; run < repeat; run++) {
        double t0 = now();
        uint8_t *passages = xcalloc(n, 1);
        fn(passages, (uint32_t)h, (uint32_t)w, (uint64_t)seed);
        double t = now() - t0;
        if (t < best)
            best = t;

        checksum = 0;
        edges = 0;
        for (size_t i = 0; i < n; i++) {
            checksum += (uint64_t)passages[i] * (uint64_t)(i + 1);
            edges += (passages[i] >> 1 & 1) + (passages[i] >> 2 & 1);
        }
        if (run + 1 == repeat && argc == 7) {
            int to_stdout = strcmp(argv[6], "-") == 0;
            FILE *f = to_stdout ? stdout : fopen(argv[6], "wb");
            if (f == NULL || fwrite(passages, 1, n, f) != n) {
                perror(argv[6]);
                return 1;
            }
            if (!to_stdout)
                fclose(f);
            else
                fflush(stdout);
        }
        free(passages);
    }
    FILE *out = argc == 7 && strcmp(argv[6], "-") == 0 ? stderr : stdout;
    fprintf(out,
            "{\"algo\": \"%s\", \"h\": %llu, \"w\": %llu, \"seed\": %llu, \"repeat\": %llu, "
            "\"best_s\": %.9f, \"checksum\": %llu, \"edges\": %llu}\n",
            name, h, w, seed, repeat, best, (unsigned long long)checksum,
            (unsigned long long)edges);
    return 0;
}
