// Inline PTX that respec cannot translate for the CPU (here a cubemap
// texture fetch and a branch to a label) is rejected at the user's line,
// naming the first untranslated instruction; the translatable asm around it
// compiles.
// RUN: not %respec -c %s -o %t.o 2>&1 | FileCheck %s

#include <cuda_runtime.h>

__global__ void fetch(unsigned long long texture, float *out, unsigned x) {
  unsigned shifted;
  asm("shf.l.wrap.b32 %0, %1, %1, 4;" : "=r"(shifted) : "r"(x));
  float r, g, b, a, c = shifted;
  // CHECK: {{.*}}diag-inline-ptx.cu:[[@LINE+1]]:3: error: kernel 'fetch(unsigned long long, float*, unsigned int)' uses inline PTX assembly ('tex.cube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %5, %5, %5}]') that respec cannot translate for the CPU
  asm("tex.cube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %5, %5, %5}];"
      : "=f"(r), "=f"(g), "=f"(b), "=f"(a)
      : "l"(texture), "f"(c));
  out[threadIdx.x] = r + g + b + a;
}

__global__ void branch(int *out) {
  int v = out[threadIdx.x];
  // CHECK: {{.*}}diag-inline-ptx.cu:[[@LINE+1]]:3: error: kernel 'branch(int*)' uses inline PTX assembly ('@p bra DONE') that respec cannot translate for the CPU
  asm volatile("{\n\t.reg .pred p;\n\tsetp.eq.s32 p, %0, 0;\n\t"
               "@p bra DONE;\n\tadd.s32 %0, %0, 1;\n\tDONE:\n\t}"
               : "+r"(v));
  out[threadIdx.x] = v;
}

int main() { return 0; }
