// PADE: backward pass of a batch of Pade activation units
// (y = P(x) / (1 + |S(x)|), P of degree 5, S of degree 4 without constant
// term), each unit with its own coefficients and GROUP * PER_LANE inputs, as
// a CPU programmer writes it: dx per input, coefficient gradients summed
// over the unit's inputs.
#ifndef GROUP
#define GROUP 32
#endif
#include "common.h"

#define NUM 6      // numerator coefficients a_0 .. a_5
#define DEN 4      // denominator coefficients b_1 .. b_4
#define PER_LANE 4 // inputs per GPU thread (sets the inputs per unit)

int main() {
  const int elems = GROUP * PER_LANE;
  std::vector<Real> X, DY, A, B;
  makePade(elems, NUM, DEN, X, DY, A, B);
  std::vector<Real> DX(X.size()), DA(A.size()), DB(B.size());
  timeIt([&] {
#pragma omp parallel for
    for (long p = 0; p < BATCH; ++p) {
      const Real *a = &A[p * NUM], *b = &B[p * DEN];
      Real da[NUM] = {}, db[DEN] = {};
      for (long e = p * elems; e < (p + 1) * elems; ++e) {
        Real x = X[e], dy = DY[e];
        Real xp[NUM]; // powers of x
        xp[0] = 1;
        for (int j = 1; j < NUM; ++j)
          xp[j] = xp[j - 1] * x;
        Real P = a[0], dP = 0, S = 0, dS = 0;
        for (int j = 1; j < NUM; ++j) {
          P += a[j] * xp[j];
          dP += j * a[j] * xp[j - 1];
        }
        for (int k = 0; k < DEN; ++k) {
          S += b[k] * xp[k + 1];
          dS += (k + 1) * b[k] * xp[k];
        }
        Real sign = S > 0 ? 1 : S < 0 ? -1 : 0;
        Real Q = 1 + std::fabs(S), y = P / Q;
        DX[e] = dy * (dP - y * sign * dS) / Q;
        for (int j = 0; j < NUM; ++j)
          da[j] += dy * xp[j] / Q;
        for (int k = 0; k < DEN; ++k)
          db[k] -= dy * y / Q * sign * xp[k + 1];
      }
      for (int j = 0; j < NUM; ++j)
        DA[p * NUM + j] = da[j];
      for (int k = 0; k < DEN; ++k)
        DB[p * DEN + k] = db[k];
    }
  });
  printChecksum(checksum(DX) + checksum(DA) + checksum(DB));
  return 0;
}
