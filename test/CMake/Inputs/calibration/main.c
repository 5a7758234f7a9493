#include "affine.h"
#include <stdio.h>

int main(void) {
  float x[4] = {0.0f, 1.0f, 2.0f, -3.0f}, y[4];
  const void *in[] = {x};
  void *out[] = {y};
  if (affine_run(in, out, NULL) != 0)
    return 1;
  printf("affine: %g %g %g %g\n", y[0], y[1], y[2], y[3]);
  return 0;
}
