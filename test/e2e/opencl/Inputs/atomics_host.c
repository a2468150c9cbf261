// Host of atomics.cl: final values of the counters and the sets of old
// values the atomic functions returned.
#include <respec/opencl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GROUP 64
#define GROUPS 8
#define G (GROUP * GROUPS)

static void set_arg(respec_cl_kernel *kernel, unsigned i, const void *p) {
  respec_cl_set_kernel_arg(kernel, i, sizeof(p), &p);
}
static int run(const char *name, void *a, void *b, void *c) {
  respec_cl_kernel *kernel = respec_cl_create_kernel(name, NULL);
  set_arg(kernel, 0, a);
  set_arg(kernel, 1, b);
  if (c)
    set_arg(kernel, 2, c);
  size_t global = G, local = GROUP;
  int status = respec_cl_enqueue_ndrange(kernel, 1, NULL, &global, &local);
  respec_cl_release_kernel(kernel);
  return status != RESPEC_CL_SUCCESS;
}

static int failures;
static int expect(const char *what, long long got, long long expected) {
  if (got == expected)
    return 0;
  if (++failures <= 20)
    printf("  %s: got %lld, expected %lld\n", what, got, expected);
  return 1;
}

static int compare_ll(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return (x > y) - (x < y);
}

// Whether values[0..count) is exactly {first + step * k : k < count} (for
// unsigned values, modulo 2^32 when `wrap` is set), each once.
static int is_sequence(const char *what, const long long *values, int count,
                       long long first, long long step, int wrap) {
  long long *sorted = malloc(count * sizeof *sorted);
  long long *want = malloc(count * sizeof *want);
  for (int k = 0; k < count; ++k) {
    sorted[k] = values[k];
    want[k] = first + step * k;
    if (wrap)
      want[k] = (uint32_t)want[k];
  }
  qsort(sorted, count, sizeof *sorted, compare_ll);
  qsort(want, count, sizeof *want, compare_ll);
  int bad = 0;
  for (int k = 0; k < count && !bad; ++k)
    bad = expect(what, sorted[k], want[k]);
  free(sorted);
  free(want);
  return bad;
}

static int global_int(void) {
  int c[9] = {0, 0, 0, G, -1, 0, INT_MAX, INT_MIN, 777};
  static int olds[8 * G];
  static long long column[G + 1];
  int bad = run("global_int", c, olds, NULL);
  // atomic_add(gid + 1): sorted by old value, each old is the previous one
  // plus the previous work-item's increment; the last one reaches the end.
  bad |= expect("add final", c[0], (long long)G * (G + 1) / 2);
  {
    static long long pairs[G][2];
    for (int gid = 0; gid < G; ++gid)
      pairs[gid][0] = olds[8 * gid], pairs[gid][1] = gid + 1;
    qsort(pairs, G, sizeof pairs[0], compare_ll);
    long long sum = 0;
    for (int k = 0; k < G && !bad; ++k) {
      bad |= expect("add chain", pairs[k][0], sum);
      sum += pairs[k][1];
    }
  }
  bad |= expect("sub final", c[1], -2LL * G);
  for (int gid = 0; gid < G; ++gid)
    column[gid] = olds[8 * gid + 1];
  bad |= is_sequence("sub olds", column, G, -2 * (G - 1), 2, 0);
  bad |= expect("inc final", c[2], G);
  for (int gid = 0; gid < G; ++gid)
    column[gid] = olds[8 * gid + 2];
  bad |= is_sequence("inc tickets", column, G, 0, 1, 0);
  bad |= expect("dec final", c[3], 0);
  for (int gid = 0; gid < G; ++gid)
    column[gid] = olds[8 * gid + 3];
  bad |= is_sequence("dec olds", column, G, 1, 1, 0);
  // atomic_xchg: the olds and the final value are -1 and every gid.
  for (int gid = 0; gid < G; ++gid)
    column[gid] = olds[8 * gid + 4];
  column[G] = c[4];
  bad |= is_sequence("xchg values", column, G + 1, -1, 1, 0);
  bad |= expect("cmpxchg counter", c[5], 3LL * G);
  for (int gid = 0; gid < G; ++gid)
    column[gid] = olds[8 * gid + 5];
  bad |= is_sequence("cmpxchg olds", column, G, 0, 3, 0);
  int lo = INT_MAX, hi = INT_MIN;
  for (int gid = 0; gid < G; ++gid) {
    int v = (gid * 7919) % 1000 - 500;
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  bad |= expect("min final", c[6], lo);
  bad |= expect("max final", c[7], hi);
  for (int gid = 0; gid < G; ++gid) {
    bad |= expect("min old >= final", olds[8 * gid + 6] >= lo, 1);
    bad |= expect("max old <= final", olds[8 * gid + 7] <= hi, 1);
  }
  bad |= expect("failed cmpxchg", c[8], 777);
  printf("global int: %s\n", bad ? "FAILED" : "ok");
  return bad;
}

static int global_uint(void) {
  uint32_t u[10] = {0xffffffffu, 0, 0, 0xffffff00u, 0xffffffffu, 0, 0, G, 0, 0};
  static uint32_t olds[4 * G];
  static long long column[G];
  int bad = run("global_uint", u, olds, NULL);
  uint32_t x = 0;
  for (uint32_t gid = 0; gid < G; ++gid)
    x ^= gid * 2654435761u;
  bad |= expect("and", u[0], 0);
  bad |= expect("or", u[1], 0xffffffffu);
  bad |= expect("xor", u[2], x);
  bad |= expect("add wraps", u[3], (uint32_t)(0xffffff00u + G));
  for (int gid = 0; gid < G; ++gid)
    column[gid] = olds[4 * gid];
  bad |= is_sequence("add olds", column, G, 0xffffff00u, 1, 1);
  bad |= expect("unsigned min", u[4], 0x80000000u);
  bad |= expect("unsigned max", u[5], 0x80000000u | (G - 1));
  bad |= expect("inc", u[6], G);
  for (int gid = 0; gid < G; ++gid)
    column[gid] = olds[4 * gid + 1];
  bad |= is_sequence("inc tickets", column, G, 0, 1, 0);
  bad |= expect("dec", u[7], 0);
  for (int gid = 0; gid < G; ++gid)
    column[gid] = olds[4 * gid + 2];
  bad |= is_sequence("dec olds", column, G, 1, 1, 0);
  bad |= expect("sub wraps", u[8], (uint32_t)(-5 * G));
  for (int gid = 0; gid < G; ++gid)
    column[gid] = olds[4 * gid + 3];
  bad |= is_sequence("sub olds", column, G, -5 * (G - 1), 5, 1);
  bad |= expect("xchg", u[9], 7);
  printf("global uint: %s\n", bad ? "FAILED" : "ok");
  return bad;
}

static int global_float(void) {
  float f = -1.0f;
  static float olds[G];
  static long long column[G + 1];
  int bad = run("global_float", &f, olds, NULL);
  // The olds and the final value are -1 and every gid + 0.5, each once:
  // twice them are -2 and the odd numbers 1, 3, ..., 2G - 1.
  for (int gid = 0; gid < G; ++gid)
    column[gid] = (long long)(2 * olds[gid]);
  column[G] = (long long)(2 * f);
  int minus_one = 0, n = 0;
  static long long odd[G + 1];
  for (int k = 0; k <= G; ++k) {
    if (column[k] == -2)
      ++minus_one;
    else
      odd[n++] = column[k];
  }
  bad |= expect("float xchg: -1 once", minus_one, 1);
  bad |= n == G ? is_sequence("float xchg: gid + 0.5", odd, G, 1, 2, 0)
                : expect("float xchg: values", n, G);
  printf("global float xchg: %s\n", bad ? "FAILED" : "ok");
  return bad;
}

static int local_atomics(void) {
  static int groups[13 * GROUPS], tickets[G];
  static float fx[G];
  static long long column[GROUP + 1];
  memset(groups, 0x5a, sizeof groups);
  int bad = run("local_atomics", groups, tickets, fx);
  int sum = GROUP * (GROUP - 1) / 2;
  uint32_t x = 0;
  for (uint32_t lid = 0; lid < GROUP; ++lid)
    x ^= lid * 40503u;
  for (int g = 0; g < GROUPS; ++g) {
    const int *c = groups + 13 * g;
    bad |= expect("local add", c[0], sum);
    bad |= expect("local inc", c[1], GROUP);
    bad |= expect("local sub", c[2], 1000 - sum);
    bad |= expect("local dec", c[3], -GROUP);
    bad |= expect("local min", c[4], -10);
    bad |= expect("local max", c[5], GROUP - 1 - 10);
    bad |= expect("local xchg is a lid", c[6] >= 0 && c[6] < GROUP, 1);
    bad |= expect("local cmpxchg counter", c[7], sum);
    bad |= expect("local and", c[8], 0);
    bad |= expect("local or", (uint32_t)c[9], 0xffffffffu);
    bad |= expect("local xor", (uint32_t)c[10], x);
    bad |= expect("local unsigned max", (uint32_t)c[11],
                  0x80000000u | (GROUP - 1));
    for (int lid = 0; lid < GROUP; ++lid)
      column[lid] = tickets[g * GROUP + lid];
    bad |= is_sequence("local tickets", column, GROUP, 0, 1, 0);
    float last;
    memcpy(&last, &c[12], sizeof last);
    for (int lid = 0; lid < GROUP; ++lid)
      column[lid] = (long long)fx[g * GROUP + lid];
    column[GROUP] = (long long)last;
    bad |= is_sequence("local float xchg values", column, GROUP + 1, -1, 1, 0);
  }
  printf("local: %s\n", bad ? "FAILED" : "ok");
  return bad;
}

int main(void) {
  int bad = 0;
  bad |= global_int();
  bad |= global_uint();
  bad |= global_float();
  bad |= local_atomics();
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}
