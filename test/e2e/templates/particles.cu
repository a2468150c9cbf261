// Particle system update with an array of structs: each step applies
// gravity and drag, integrates position, and reflects particles off the
// walls of a box. The particle struct mixes float3, float and int fields.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=2 -O2 %s -o %t.c7x2 && %t.c7x2 | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=4 -O2 %s -o %t.c7x4 && %t.c7x4 | FileCheck %s
// CHECK: PASSED

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,    \
              cudaGetErrorString(err_));                                      \
      printf("FAILED\n");                                                     \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

struct Particle {
  float3 pos;
  float3 vel;
  float mass;
  int bounces;
};

struct SimParams {
  float dt;
  float drag;
  float3 gravity;
  float3 boxMin, boxMax;
};

__host__ __device__ inline void reflect(float &p, float &v, float lo, float hi,
                                        int &bounces) {
  if (p < lo) {
    p = lo + (lo - p);
    v = -v;
    ++bounces;
  } else if (p > hi) {
    p = hi - (p - hi);
    v = -v;
    ++bounces;
  }
}

__host__ __device__ void stepParticle(Particle &pt, const SimParams &sp) {
  float k = sp.drag / pt.mass;
  pt.vel.x += (sp.gravity.x - k * pt.vel.x) * sp.dt;
  pt.vel.y += (sp.gravity.y - k * pt.vel.y) * sp.dt;
  pt.vel.z += (sp.gravity.z - k * pt.vel.z) * sp.dt;
  pt.pos.x += pt.vel.x * sp.dt;
  pt.pos.y += pt.vel.y * sp.dt;
  pt.pos.z += pt.vel.z * sp.dt;
  reflect(pt.pos.x, pt.vel.x, sp.boxMin.x, sp.boxMax.x, pt.bounces);
  reflect(pt.pos.y, pt.vel.y, sp.boxMin.y, sp.boxMax.y, pt.bounces);
  reflect(pt.pos.z, pt.vel.z, sp.boxMin.z, sp.boxMax.z, pt.bounces);
}

__global__ void update(Particle *ps, int n, SimParams sp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Particle p = ps[i];
    stepParticle(p, sp);
    ps[i] = p;
  }
}

int main() {
  const int n = 20000, steps = 20;
  Particle *h = (Particle *)malloc(n * sizeof(Particle));
  for (int i = 0; i < n; ++i) {
    h[i].pos = make_float3((i % 100) * 0.1f, (i / 100 % 100) * 0.1f,
                           (i % 7) * 1.0f);
    h[i].vel = make_float3((i % 13) - 6.0f, (i % 5) * 2.0f, (i % 11) - 5.0f);
    h[i].mass = 1.0f + (i % 4);
    h[i].bounces = 0;
  }
  SimParams sp;
  sp.dt = 0.05f;
  sp.drag = 0.1f;
  sp.gravity = make_float3(0.0f, -9.81f, 0.0f);
  sp.boxMin = make_float3(0.0f, 0.0f, 0.0f);
  sp.boxMax = make_float3(10.0f, 10.0f, 7.0f);

  Particle *d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(Particle)));
  CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(Particle), cudaMemcpyHostToDevice));
  for (int s = 0; s < steps; ++s) {
    update<<<(n + 255) / 256, 256>>>(d, n, sp);
    CUDA_CHECK(cudaGetLastError());
  }
  Particle *res = (Particle *)malloc(n * sizeof(Particle));
  CUDA_CHECK(cudaMemcpy(res, d, n * sizeof(Particle), cudaMemcpyDeviceToHost));
  for (int s = 0; s < steps; ++s)
    for (int i = 0; i < n; ++i)
      stepParticle(h[i], sp);

  // Contraction differences may flip a bounce right at a wall, so compare
  // positions with a tolerance and require almost all bounce counts equal.
  int bounceDiffs = 0;
  long long totalBounces = 0;
  for (int i = 0; i < n; ++i) {
    totalBounces += h[i].bounces;
    if (res[i].bounces != h[i].bounces) {
      ++bounceDiffs;
      continue;
    }
    float dx = fabsf(res[i].pos.x - h[i].pos.x);
    float dy = fabsf(res[i].pos.y - h[i].pos.y);
    float dz = fabsf(res[i].pos.z - h[i].pos.z);
    if (dx > 1e-3f || dy > 1e-3f || dz > 1e-3f || res[i].mass != h[i].mass) {
      printf("particle %d: got (%f,%f,%f), expected (%f,%f,%f)\n", i,
             res[i].pos.x, res[i].pos.y, res[i].pos.z, h[i].pos.x, h[i].pos.y,
             h[i].pos.z);
      printf("FAILED\n");
      return 1;
    }
  }
  if (bounceDiffs > n / 1000 || totalBounces == 0) {
    printf("%d particles bounced differently (total bounces %lld)\n",
           bounceDiffs, totalBounces);
    printf("FAILED\n");
    return 1;
  }
  CUDA_CHECK(cudaFree(d));
  free(h);
  free(res);
  printf("PASSED\n");
  return 0;
}
