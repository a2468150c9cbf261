// Host of clz.cl.
#include <respec/opencl.h>
#include <stdint.h>
#include <stdio.h>

static int clz(uint64_t x, int bits) {
  int n = 0;
  for (int b = bits - 1; b >= 0 && !(x >> b & 1); --b)
    ++n;
  return n;
}

int main(void) {
  enum { N = 8 };
  uint64_t bits[N] = {0, 1, 0x80, 0x8000, 0x80000000u, 0x8000000000000000ull,
                      0x0000000100010301ull, 0x00000000ffffffffull};
  int out[10 * N];
  uint64_t *pb = bits;
  int *po = out;
  respec_cl_kernel *kernel = respec_cl_create_kernel("count", NULL);
  respec_cl_set_kernel_arg(kernel, 0, sizeof pb, &pb);
  respec_cl_set_kernel_arg(kernel, 1, sizeof po, &po);
  size_t items = N;
  int bad = respec_cl_enqueue_ndrange(kernel, 1, NULL, &items, NULL) != 0;
  respec_cl_release_kernel(kernel);
  static const int widths[10] = {8, 8, 16, 16, 32, 32, 64, 64, 32, 64};
  for (int i = 0; i < N; ++i)
    for (int k = 0; k < 10; ++k) {
      uint64_t mask = widths[k] == 64 ? ~0ull : (1ull << widths[k]) - 1;
      int expected = clz(bits[i] & mask, widths[k]);
      if (out[10 * i + k] != expected) {
        printf("  clz of %#llx in %d bits: got %d, expected %d\n",
               (unsigned long long)(bits[i] & mask), widths[k],
               out[10 * i + k], expected);
        bad = 1;
      }
    }
  printf("clz: %s\n", bad ? "FAILED" : "ok");
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}
