// Host of barrier_patterns.cl.
#include <respec/opencl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_arg(respec_cl_kernel *kernel, unsigned i, const void *p) {
  respec_cl_set_kernel_arg(kernel, i, sizeof(p), &p);
}
static int report(const char *name, int bad) {
  printf("%s: %s\n", name, bad ? "FAILED" : "ok");
  return bad;
}

static int transpose(void) {
  enum { W = 64, H = 32 };
  static float in[W * H], out[W * H];
  for (int k = 0; k < W * H; ++k)
    in[k] = (float)k;
  memset(out, 0, sizeof out);
  int width = W, height = H;
  respec_cl_kernel *kernel = respec_cl_create_kernel("transpose", NULL);
  set_arg(kernel, 0, in);
  set_arg(kernel, 1, out);
  respec_cl_set_kernel_arg(kernel, 2, sizeof width, &width);
  respec_cl_set_kernel_arg(kernel, 3, sizeof height, &height);
  size_t global[2] = {W, H}, local[2] = {16, 8};
  int bad = respec_cl_enqueue_ndrange(kernel, 2, NULL, global, local) != 0;
  respec_cl_release_kernel(kernel);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      if (out[x * H + y] != in[y * W + x]) {
        if (!bad)
          printf("  out[%d][%d] = %g, expected %g\n", x, y, out[x * H + y],
                 in[y * W + x]);
        bad = 1;
      }
  return report("transpose 16x8", bad);
}

static int rounds(void) {
  enum { GROUP = 32, GROUPS = 6, N = GROUP * GROUPS, ROUNDS = 5 };
  int in[N], out[N], totals[GROUPS * ROUNDS];
  int v[N], expected_totals[GROUPS * ROUNDS];
  for (int k = 0; k < N; ++k)
    in[k] = v[k] = (k * 7919) % 1000;
  for (int g = 0; g < GROUPS; ++g)
    for (int r = 0; r < ROUNDS; ++r) {
      int total = 0;
      for (int l = 0; l < GROUP; ++l)
        total += v[g * GROUP + l];
      expected_totals[g * ROUNDS + r] = total;
      for (int l = 0; l < GROUP; ++l)
        v[g * GROUP + l] = (v[g * GROUP + l] * 3 + total + l) % 1000003;
    }
  memset(out, 0, sizeof out);
  memset(totals, 0, sizeof totals);
  int rounds = ROUNDS;
  respec_cl_kernel *kernel = respec_cl_create_kernel("rounds", NULL);
  set_arg(kernel, 0, in);
  set_arg(kernel, 1, out);
  set_arg(kernel, 2, totals);
  respec_cl_set_kernel_arg(kernel, 3, GROUP * sizeof(int), NULL);
  respec_cl_set_kernel_arg(kernel, 4, sizeof rounds, &rounds);
  size_t global = N, local = GROUP;
  int bad = respec_cl_enqueue_ndrange(kernel, 1, NULL, &global, &local) != 0;
  respec_cl_release_kernel(kernel);
  bad |= memcmp(out, v, sizeof out) != 0;
  bad |= memcmp(totals, expected_totals, sizeof totals) != 0;
  return report("rounds of reductions", bad);
}

static int until_done(void) {
  enum { GROUP = 16, GROUPS = 4, N = GROUP * GROUPS };
  uint32_t in[N], iterations[N];
  for (int k = 0; k < N; ++k)
    in[k] = (uint32_t)((k * 2654435761u) >> (k % 32));
  in[5] = 0xffffffffu; // group 0 loops 32 times
  for (int k = GROUP; k < 2 * GROUP; ++k)
    in[k] = 0; // group 1 does not loop
  memset(iterations, 0xff, sizeof iterations);
  respec_cl_kernel *kernel = respec_cl_create_kernel("until_done", NULL);
  set_arg(kernel, 0, in);
  set_arg(kernel, 1, iterations);
  size_t global = N, local = GROUP;
  int bad = respec_cl_enqueue_ndrange(kernel, 1, NULL, &global, &local) != 0;
  respec_cl_release_kernel(kernel);
  for (int g = 0; g < GROUPS; ++g) {
    uint32_t largest = 0, count = 0;
    for (int l = 0; l < GROUP; ++l)
      largest = in[g * GROUP + l] > largest ? in[g * GROUP + l] : largest;
    for (; largest; largest /= 2)
      ++count;
    for (int l = 0; l < GROUP; ++l)
      if (iterations[g * GROUP + l] != count) {
        if (!bad)
          printf("  group %d: %u iterations, expected %u\n", g,
                 iterations[g * GROUP + l], count);
        bad = 1;
      }
  }
  return report("loop until done", bad);
}

static int stencil(void) {
  enum { GROUP = 64, N = 4 * GROUP };
  static const double w[5] = {0.0625, 0.25, 0.375, 0.25, 0.0625};
  float in[N], out[N];
  for (int k = 0; k < N; ++k)
    in[k] = (float)((k * 37) % 101) - 50.0f;
  memset(out, 0, sizeof out);
  respec_cl_kernel *kernel = respec_cl_create_kernel("stencil", NULL);
  set_arg(kernel, 0, in);
  set_arg(kernel, 1, out);
  respec_cl_set_kernel_arg(kernel, 2, 2 * sizeof(float), NULL);
  respec_cl_set_kernel_arg(kernel, 3, 2 * sizeof(float), NULL);
  size_t global = N, local = GROUP;
  int bad = respec_cl_enqueue_ndrange(kernel, 1, NULL, &global, &local) != 0;
  respec_cl_release_kernel(kernel);
  for (int k = 0; k < N; ++k) {
    double s = 0;
    for (int j = -2; j <= 2; ++j)
      s += w[j + 2] * (k + j >= 0 && k + j < N ? in[k + j] : 0.0);
    if (fabs(out[k] - s) > 1e-5) { // all values are exact in float
      if (!bad)
        printf("  out[%d] = %g, expected %g\n", k, out[k], s);
      bad = 1;
    }
  }
  return report("constant stencil", bad);
}

static int kernel_calls_kernel(void) {
  enum { N = 128 };
  float data[N];
  for (int k = 0; k < N; ++k)
    data[k] = (float)k;
  float factor = 2.0f, delta = 0.5f;
  respec_cl_kernel *kernel =
      respec_cl_create_kernel("scale_offset_scale", NULL);
  set_arg(kernel, 0, data);
  respec_cl_set_kernel_arg(kernel, 1, sizeof factor, &factor);
  respec_cl_set_kernel_arg(kernel, 2, sizeof delta, &delta);
  size_t global = N;
  int bad = respec_cl_enqueue_ndrange(kernel, 1, NULL, &global, NULL) != 0;
  respec_cl_release_kernel(kernel);
  for (int k = 0; k < N; ++k)
    bad |= data[k] != (k * 2.0f + 0.5f) * 2.0f;
  // The called kernels are kernels of their own too.
  kernel = respec_cl_create_kernel("offset", NULL);
  set_arg(kernel, 0, data);
  respec_cl_set_kernel_arg(kernel, 1, sizeof delta, &delta);
  bad |= respec_cl_enqueue_ndrange(kernel, 1, NULL, &global, NULL) != 0;
  respec_cl_release_kernel(kernel);
  for (int k = 0; k < N; ++k)
    bad |= data[k] != (k * 2.0f + 0.5f) * 2.0f + 0.5f;
  return report("kernel calls kernel", bad);
}

// The host's view of the kernel's argument types (same layout).
typedef struct {
  float a;
  int b;
} Params;
typedef struct {
  float w[3];
  int n;
  double bias;
} Coeffs;

static int by_value(void) {
  enum { N = 12 };
  float out[8 * N];
  Params p = {1.5f, -7};
  float v[4] = {1, 2, 3, 4};
  float t[4] = {0.5f, 0.25f, 0.125f, 99.0f}; // float3 takes 16 bytes
  int iv[2] = {3, 11};
  Coeffs c = {{2.0f, 3.0f, 5.0f}, 4, 0.125};
  double dv[2] = {10.25, 0.125};
  char flag = 1;
  memset(out, 0, sizeof out);
  respec_cl_kernel *kernel = respec_cl_create_kernel("by_value", NULL);
  set_arg(kernel, 0, out);
  int bad = 0;
  bad |= respec_cl_set_kernel_arg(kernel, 1, sizeof p, &p) != 0;
  bad |= respec_cl_set_kernel_arg(kernel, 2, sizeof v, v) != 0;
  bad |= respec_cl_set_kernel_arg(kernel, 3, sizeof t, t) != 0;
  bad |= respec_cl_set_kernel_arg(kernel, 4, sizeof iv, iv) != 0;
  bad |= respec_cl_set_kernel_arg(kernel, 5, sizeof c, &c) != 0;
  bad |= respec_cl_set_kernel_arg(kernel, 6, sizeof dv, dv) != 0;
  bad |= respec_cl_set_kernel_arg(kernel, 7, sizeof flag, &flag) != 0;
  size_t global = N;
  bad |= respec_cl_enqueue_ndrange(kernel, 1, NULL, &global, NULL) != 0;
  respec_cl_release_kernel(kernel);
  for (int i = 0; i < N; ++i) {
    float expected[8] = {1.5f * i - 7.0f,
                         1 + 2 * 2 + 3 * 4 + 4 * 8,
                         0.5f + 2.5f + 12.5f,
                         (float)(3 * i - 11),
                         c.w[i % 3] * 4,
                         (float)(0.125 * i),
                         10.125f,
                         1.0f};
    for (int k = 0; k < 8; ++k)
      if (out[8 * i + k] != expected[k]) {
        if (!bad)
          printf("  item %d value %d: got %g, expected %g\n", i, k,
                 out[8 * i + k], expected[k]);
        bad = 1;
      }
  }
  return report("arguments by value", bad);
}

int main(void) {
  int bad = 0;
  bad |= transpose();
  bad |= rounds();
  bad |= until_done();
  bad |= stencil();
  bad |= kernel_calls_kernel();
  bad |= by_value();
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}
