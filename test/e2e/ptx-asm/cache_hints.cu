// Loads and stores with cache hints, which CUDA's headers write as inline
// PTX: __ldcg/__ldcs/__ldcv/__stwt of scalars and vectors (ld.global.cg.v4.f32,
// st.global.wt.v2.s64, ...) and, for half types, __ldca/__ldlu/__ldg and
// __stcs/__stcg/__stwb (ld.global.ca.b16, st.global.wb.b32, ...). On the CPU
// they are ordinary (for .cv volatile) accesses.
// REQUIRES: cuda-toolkit
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

constexpr int N = 256;

struct Data {
  float f[N], fo[N];
  float4 f4[N], f4o[N];
  int2 i2[N], i2o[N];
  double d[N], dout[N];
  long long ll[N], llo[N];
  unsigned char uc[N], uco[N];
  short4 s4[N], s4o[N];
  __half h[N], ho[4][N];
  __half2 h2[N], h2o[3][N];
  __nv_bfloat16 bf[N], bfo[3][N];
};

__global__ void copies(Data *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p->fo[i] = __ldcg(&p->f[i]) + __ldcs(&p->f[i]) + __ldcv(&p->f[i]);
  float4 v = __ldcs(&p->f4[i]);
  __stwt(&p->f4o[i], make_float4(v.w, v.z, v.y, v.x));
  int2 w = __ldcg(&p->i2[i]);
  __stwt(&p->i2o[i], make_int2(w.y, w.x));
  __stwt(&p->dout[i], __ldcv(&p->d[i]) * 2);
  __stwt(&p->llo[i], __ldcs(&p->ll[i]) - 1);
  __stwt(&p->uco[i], (unsigned char)(__ldcg(&p->uc[i]) + 1));
  short4 s = __ldcv(&p->s4[i]);
  __stwt(&p->s4o[i], make_short4(s.w, s.z, s.y, s.x));
  __half h = __ldca(&p->h[i]);
  __stcs(&p->ho[0][i], h);
  __stcg(&p->ho[1][i], __ldlu(&p->h[i]));
  __stwb(&p->ho[2][i], __ldg(&p->h[i]));
  __stwt(&p->ho[3][i], __ldcs(&p->h[i]));
  __stcs(&p->h2o[0][i], __ldca(&p->h2[i]));
  __stwb(&p->h2o[1][i], __ldcg(&p->h2[i]));
  __stcg(&p->h2o[2][i], __ldlu(&p->h2[i]));
  __stcs(&p->bfo[0][i], __ldca(&p->bf[i]));
  __stwb(&p->bfo[1][i], __ldcv(&p->bf[i]));
  __stcg(&p->bfo[2][i], __ldg(&p->bf[i]));
}

int main() {
  Data *p;
  cudaMallocManaged(&p, sizeof(Data));
  for (int i = 0; i < N; ++i) {
    p->f[i] = i * 0.5f;
    p->f4[i] = make_float4(i, i + 1, i + 2, i + 3);
    p->i2[i] = make_int2(-i, i * 7);
    p->d[i] = i * 0.25;
    p->ll[i] = (long long)i << 40;
    p->uc[i] = (unsigned char)(i * 3);
    p->s4[i] = make_short4(i, -i, 2 * i, -2 * i);
    p->h[i] = __float2half(i * 0.125f);
    p->h2[i] = __floats2half2_rn(i, -i);
    p->bf[i] = __float2bfloat16(i * 4.0f);
  }
  copies<<<N / 64, 64>>>(p);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAILED (launch)\n");
    return 1;
  }
  int failures = 0;
  auto expect = [&](const char *what, int i, bool ok) {
    if (!ok && ++failures <= 10)
      printf("%s[%d] wrong\n", what, i);
  };
  for (int i = 0; i < N; ++i) {
    expect("ldcg+ldcs+ldcv float", i, p->fo[i] == 1.5f * i);
    expect("ldcs/stwt float4", i, p->f4o[i].x == i + 3 && p->f4o[i].w == i);
    expect("ldcg/stwt int2", i, p->i2o[i].x == i * 7 && p->i2o[i].y == -i);
    expect("ldcv/stwt double", i, p->dout[i] == i * 0.5);
    expect("ldcs/stwt long long", i, p->llo[i] == ((long long)i << 40) - 1);
    expect("ldcg/stwt uchar", i, p->uco[i] == (unsigned char)(i * 3 + 1));
    expect("ldcv/stwt short4", i, p->s4o[i].x == -2 * i && p->s4o[i].w == i);
    for (int k = 0; k < 4; ++k)
      expect("half", i, __half2float(p->ho[k][i]) == i * 0.125f);
    for (int k = 0; k < 3; ++k) {
      float2 v = __half22float2(p->h2o[k][i]);
      expect("half2", i, v.x == i && v.y == -i);
      expect("bfloat16", i, __bfloat162float(p->bfo[k][i]) == i * 4.0f);
    }
  }
  printf(failures ? "FAILED (%d mismatches)\n" : "PASSED\n", failures);
  return failures != 0;
}
