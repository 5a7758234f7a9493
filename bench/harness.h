/* harness.h: what the benchmark harnesses (ab_pair.c, loops.c) share. */
#ifndef ONNXQ_BENCH_HARNESS_H
#define ONNXQ_BENCH_HARNESS_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/* Bytes of an element of ONNX element type `dtype`. */
static size_t element_bytes(int dtype) {
  switch (dtype) {
  case 2: case 3: case 9: return 1;   /* uint8, int8, bool */
  case 10: return 2;                  /* float16 */
  case 7: case 11: return 8;          /* int64, double */
  default: return 4;                  /* float, int32 */
  }
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

/* An input of `n` elements of type `dtype`: floats a fixed pattern in
   [-1, 1), other types 0. NULL when out of memory. */
static void *make_input(int dtype, size_t n) {
  size_t bytes = n * element_bytes(dtype);
  void *p = calloc(1, bytes ? bytes : 1);
  if (p && dtype == 1)
    for (size_t e = 0; e < n; ++e)
      ((float *)p)[e] = (float)((e * 2654435761u) % 1000) / 500.0f - 1.0f;
  return p;
}

#endif /* ONNXQ_BENCH_HARNESS_H */
