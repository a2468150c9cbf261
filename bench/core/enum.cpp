// ENUM: exhaustive search of a batch of small 0-1 integer programs:
// maximize c.x subject to A x <= b, x in {0,1}^VARS, CONS constraints, as a
// CPU programmer writes it: every candidate in turn, keeping the first best.
#include "common.h"

#define VARS 10
#define CONS 4

int main() {
  const int record = VARS + CONS * VARS + CONS;
  std::vector<Real> problems = makeKnapsacks<Real>(VARS, CONS),
                    best(BATCH);
  std::vector<int> arg(BATCH);
  timeIt([&] {
#pragma omp parallel for
    for (long p = 0; p < BATCH; ++p) {
      const Real *c = &problems[p * record], *a = c + VARS,
                 *b = a + CONS * VARS;
      Real bestValue = -1;
      int bestX = 0;
      for (int x = 0; x < 1 << VARS; ++x) {
        Real value = 0, lhs[CONS] = {};
        for (int j = 0; j < VARS; ++j)
          if (x >> j & 1) {
            value += c[j];
            for (int i = 0; i < CONS; ++i)
              lhs[i] += a[i * VARS + j];
          }
        bool feasible = true;
        for (int i = 0; i < CONS; ++i)
          feasible = feasible && lhs[i] <= b[i];
        if (feasible && value > bestValue) {
          bestValue = value;
          bestX = x;
        }
      }
      best[p] = bestValue;
      arg[p] = bestX;
    }
  });
  printChecksum(checksum(best) + checksum(arg));
  return 0;
}
