/* A hand-written model implementing the onnx-quant ABI, for testing the
   runner without the compiler:
     inputs:  x float32 [2,3], k int64 [3]
     outputs: y float32 [2,3] = x + k (k broadcast over rows), n uint8 [1] = 42
   It needs a 64-byte workspace and uses all of it (it is cleared and then
   holds the converted k and the sums), so a too-small caller buffer shows up
   under AddressSanitizer. With workspace == NULL it allocates its own.
   Built with -DFAKE_FORGET_N it never writes n, like a buggy model would. */
#include "fake_model.h"

#include <stdlib.h>
#include <string.h>

#define FAKE_WORKSPACE_BYTES 64

static const int64_t kShapeX[] = {2, 3};
static const int64_t kShapeK[] = {3};
static const int64_t kShapeN[] = {1};

static const onnxq_tensor_info kInputs[] = {
    {"x", 1, 2, kShapeX, 6},
    {"k", 7, 1, kShapeK, 3},
};
static const onnxq_tensor_info kOutputs[] = {
    {"y", 1, 2, kShapeX, 6},
    {"n", 2, 1, kShapeN, 1},
};

int fake_num_inputs(void) { return 2; }
int fake_num_outputs(void) { return 2; }

const onnxq_tensor_info *fake_input_info(int i)
{
  return i >= 0 && i < 2 ? &kInputs[i] : NULL;
}

const onnxq_tensor_info *fake_output_info(int i)
{
  return i >= 0 && i < 2 ? &kOutputs[i] : NULL;
}

size_t fake_input_size(int i) { return i >= 0 && i < 2 ? kInputs[i].num_elements : 0; }
size_t fake_output_size(int i) { return i >= 0 && i < 2 ? kOutputs[i].num_elements : 0; }
size_t fake_workspace_size(void) { return FAKE_WORKSPACE_BYTES; }

int fake_run(const void *const *inputs, void *const *outputs, void *workspace)
{
  const float *x;
  const int64_t *k;
  float *scratch; /* [0..2] k as float, [3..8] sums, rest unused but cleared */
  void *owned = NULL;
  int i, j;
  if (!inputs || !outputs || !inputs[0] || !inputs[1] || !outputs[0] ||
      !outputs[1])
    return 1;
  if (!workspace) {
    owned = malloc(FAKE_WORKSPACE_BYTES);
    if (!owned)
      return 2;
    workspace = owned;
  }
  memset(workspace, 0, FAKE_WORKSPACE_BYTES);
  scratch = (float *)workspace;
  x = (const float *)inputs[0];
  k = (const int64_t *)inputs[1];
  for (j = 0; j < 3; ++j)
    scratch[j] = (float)k[j];
  for (i = 0; i < 2; ++i)
    for (j = 0; j < 3; ++j)
      scratch[3 + i * 3 + j] = x[i * 3 + j] + scratch[j];
  memcpy(outputs[0], scratch + 3, 6 * sizeof(float));
#ifndef FAKE_FORGET_N
  ((unsigned char *)outputs[1])[0] = 42;
#endif
  free(owned);
  return 0;
}

size_t fake_workspace_size_parallel(int threads)
{
  (void)threads;
  return FAKE_WORKSPACE_BYTES;
}

/* The parallel entry point: y's two rows in two parts through the
   parallel-for (n sums ONNX's convention: 42), or fake_run without one. */
struct fake_rows {
  const float *x;
  const int64_t *k;
  float *y;
};

static void fake_row_task(void *ctx, int64_t begin, int64_t end)
{
  struct fake_rows *rows = (struct fake_rows *)ctx;
  int64_t i;
  int j;
  for (i = begin; i < end; ++i)
    for (j = 0; j < 3; ++j)
      rows->y[i * 3 + j] = rows->x[i * 3 + j] + (float)rows->k[j];
}

int fake_run_parallel(const void *const *inputs, void *const *outputs,
                      void *workspace, onnxq_parallel_for_fn parallel_for,
                      void *pool, int threads)
{
  struct fake_rows rows;
  if (!parallel_for || threads <= 1)
    return fake_run(inputs, outputs, workspace);
  if (!inputs || !outputs || !inputs[0] || !inputs[1] || !outputs[0] ||
      !outputs[1])
    return 1;
  rows.x = (const float *)inputs[0];
  rows.k = (const int64_t *)inputs[1];
  rows.y = (float *)outputs[0];
  parallel_for(pool, 2, fake_row_task, &rows);
#ifndef FAKE_FORGET_N
  ((unsigned char *)outputs[1])[0] = 42;
#endif
  return 0;
}
