// Warp-level primitives with CUDA's (PTX's) results for every lane, in a
// block of 80 threads (a partial last warp of 16 lanes): shuffles of all
// four kinds with widths 32, 16, 8 and 4, ballot/any/all votes,
// __match_any_sync, __reduce_add/max_sync, a masked shuffle reduction in
// divergent code (half of each warp), a double shuffle and a float one.
// The host computes every lane's expected value. A shuffle that reads a
// lane past the end of the block gets 0: CUDA leaves it undefined (the mask
// names threads that do not exist), NVIDIA GPUs give 0 (measured on an H200
// with nvcc's and respec's builds), and so does respec since 0.10.1.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(const int *in, int *out, float *fo) {
  int t = threadIdx.x;
  int v = in[blockIdx.x * blockDim.x + t];
  int o = blockIdx.x * blockDim.x + t;
  out[o * 12 + 0] = __shfl_down_sync(0xffffffff, v, 3);
  out[o * 12 + 1] = __shfl_up_sync(0xffffffff, v, 2, 8);
  out[o * 12 + 2] = __shfl_xor_sync(0xffffffff, v, 5, 16);
  out[o * 12 + 3] = __shfl_sync(0xffffffff, v, 7, 4);
  out[o * 12 + 4] = __ballot_sync(0xffffffff, v > 50);
  out[o * 12 + 5] = __any_sync(0xffffffff, v > 95);
  out[o * 12 + 6] = __all_sync(0xffffffff, v >= 0);
  out[o * 12 + 7] = __match_any_sync(0xffffffff, v % 4);
  out[o * 12 + 8] = __reduce_add_sync(0xffffffff, v);
  out[o * 12 + 9] = __reduce_max_sync(0xffffffff, v);
  int s = v;
  if (t % 32 < 16) {
    for (int d = 8; d > 0; d >>= 1) s += __shfl_down_sync(0x0000ffff, s, d, 16);
  }
  out[o * 12 + 10] = s;
  double dv = v * 0.5;
  out[o * 12 + 11] = (int)(2 * __shfl_sync(0xffffffff, dv, 31));
  fo[o] = __shfl_xor_sync(0xffffffff, v * 0.25f, 1);
}
int main() {
  const int B = 2, T = 80, N = B * T;
  int h[N], o[N * 12]; float fo[N]; int *d, *dout; float *dfo;
  for (int i = 0; i < N; ++i) h[i] = (i * 37 + 11) % 101;
  cudaMalloc(&d, sizeof h); cudaMalloc(&dout, sizeof o); cudaMalloc(&dfo, sizeof fo);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<B, T>>>(d, dout, dfo);
  cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
  cudaMemcpy(fo, dfo, sizeof fo, cudaMemcpyDeviceToHost);
  int errors = 0;
  for (int b = 0; b < B; ++b) for (int t = 0; t < T; ++t) {
    const int *v = h + b * T; int lane = t % 32, base = t - lane, n = T - base < 32 ? T - base : 32;
    auto val = [&](int l) { return v[base + l]; };
    auto seg = [&](int l, int j, int w, int kind) { // kind 0 idx 1 up 2 down 3 xor
      int segStart = l & ~(w - 1); int src;
      if (kind == 0) src = segStart + (j % w);
      else if (kind == 1) src = (l - j >= segStart) ? l - j : l;
      else if (kind == 2) src = (l + j < segStart + w) ? l + j : l;
      else src = ((l ^ j) < segStart + w) ? (l ^ j) : l;
      return src < n ? val(src) : 0; };
    int want[12];
    want[0] = seg(lane, 3, 32, 2); want[1] = seg(lane, 2, 8, 1); want[2] = seg(lane, 5, 16, 3); want[3] = seg(lane, 7, 4, 0);
    unsigned bal = 0; int any = 0, all = 1, sum = 0, mx = -1; unsigned m = 0;
    for (int l = 0; l < n; ++l) { if (val(l) > 50) bal |= 1u << l; any |= val(l) > 95; all &= val(l) >= 0; sum += val(l); mx = val(l) > mx ? val(l) : mx; if (val(l) % 4 == val(lane) % 4) m |= 1u << l; }
    want[4] = bal; want[5] = any; want[6] = all; want[7] = m; want[8] = sum; want[9] = mx;
    int s = val(lane);
    if (lane < 16) { int cur[32]; for (int l = 0; l < n; ++l) cur[l] = val(l);
      for (int d = 8; d > 0; d >>= 1) { int nx[32]; for (int l = 0; l < n && l < 16; ++l) nx[l] = cur[l] + ((l + d < 16 && l + d < n) ? cur[l + d] : cur[l]); for (int l = 0; l < n && l < 16; ++l) cur[l] = nx[l]; }
      s = cur[lane]; }
    want[10] = s; want[11] = n == 32 ? val(31) : 0;
    for (int i = 0; i < 12; ++i) if (o[(b * T + t) * 12 + i] != want[i] && ++errors < 10) printf("b%d t%d item %d: %d != %d\n", b, t, i, o[(b*T+t)*12+i], want[i]);
    float wf = ((lane ^ 1) < n ? val(lane ^ 1) : 0) * 0.25f;
    if (fo[b * T + t] != wf && ++errors < 10) printf("f t%d %f %f\n", t, fo[b*T+t], wf);
  }
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}
