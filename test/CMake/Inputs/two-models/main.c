/* Four compiled models in one program: affine.onnxtext twice (ENTRY
 * affine_a and affine_b), square.onnxtext (default ENTRY), and a copy of
 * affine.onnxtext made by the build (generated.onnxtext). */
#include "affine_a.h"
#include "affine_b.h"
#include "generated.h"
#include "square.h"
#include <stdio.h>

static int run_affine(const char *name,
                      int (*run)(const void *const *, void *const *, void *)) {
  float x[4] = {0.0f, 1.0f, 2.0f, -3.0f}, y[4];
  const void *in[] = {x};
  void *out[] = {y};
  if (run(in, out, NULL) != 0)
    return 1;
  printf("%s: %g %g %g %g\n", name, y[0], y[1], y[2], y[3]);
  return 0;
}

int main(void) {
  float a[4] = {1.0f, 2.0f, 3.0f, 4.0f}, b[4];
  const void *in[] = {a};
  void *out[] = {b};
  if (run_affine("affine_a", affine_a_run) || run_affine("affine_b", affine_b_run) ||
      run_affine("generated", generated_run))
    return 1;
  if (square_run(in, out, NULL) != 0)
    return 1;
  printf("square: %g %g %g %g\n", b[0], b[1], b[2], b[3]);
  return 0;
}
