/* A hand-written model implementing the onnx-quant ABI, for testing the
   runner's handling of every supported dtype: input i is copied to output i.
   Inputs "in_<dtype>" and outputs "out_<dtype>" follow the order of the
   dtype table below; all have shape [8] except float64, a scalar (rank 0).
   It needs no workspace (NAME_workspace_size() == 0). */
#include "fake_types.h"

#include <string.h>

#define NUM_TENSORS 12

static const int64_t kShape8[] = {8};

#define T(name, dtype, rank, n) {name, dtype, rank, rank ? kShape8 : NULL, n}
static const onnxq_tensor_info kInputs[NUM_TENSORS] = {
    T("in_float32", 1, 1, 8), T("in_uint8", 2, 1, 8),   T("in_int8", 3, 1, 8),
    T("in_uint16", 4, 1, 8),  T("in_int16", 5, 1, 8),   T("in_int32", 6, 1, 8),
    T("in_int64", 7, 1, 8),   T("in_bool", 9, 1, 8),    T("in_float16", 10, 1, 8),
    T("in_float64", 11, 0, 1), T("in_uint32", 12, 1, 8), T("in_uint64", 13, 1, 8),
};
static const onnxq_tensor_info kOutputs[NUM_TENSORS] = {
    T("out_float32", 1, 1, 8), T("out_uint8", 2, 1, 8),   T("out_int8", 3, 1, 8),
    T("out_uint16", 4, 1, 8),  T("out_int16", 5, 1, 8),   T("out_int32", 6, 1, 8),
    T("out_int64", 7, 1, 8),   T("out_bool", 9, 1, 8),    T("out_float16", 10, 1, 8),
    T("out_float64", 11, 0, 1), T("out_uint32", 12, 1, 8), T("out_uint64", 13, 1, 8),
};
#undef T

static size_t elem_size(int dtype)
{
  switch (dtype) {
  case 2: case 3: case 9: return 1;
  case 4: case 5: case 10: return 2;
  case 1: case 6: case 12: return 4;
  default: return 8;
  }
}

int types_num_inputs(void) { return NUM_TENSORS; }
int types_num_outputs(void) { return NUM_TENSORS; }

const onnxq_tensor_info *types_input_info(int i)
{
  return i >= 0 && i < NUM_TENSORS ? &kInputs[i] : NULL;
}

const onnxq_tensor_info *types_output_info(int i)
{
  return i >= 0 && i < NUM_TENSORS ? &kOutputs[i] : NULL;
}

size_t types_input_size(int i) { return i >= 0 && i < NUM_TENSORS ? kInputs[i].num_elements : 0; }
size_t types_output_size(int i) { return i >= 0 && i < NUM_TENSORS ? kOutputs[i].num_elements : 0; }
size_t types_workspace_size(void) { return 0; }

int types_run(const void *const *inputs, void *const *outputs, void *workspace)
{
  int i;
  (void)workspace;
  for (i = 0; i < NUM_TENSORS; ++i)
    memcpy(outputs[i], inputs[i],
           kInputs[i].num_elements * elem_size(kInputs[i].dtype));
  return 0;
}

size_t types_workspace_size_parallel(int threads)
{
  (void)threads;
  return types_workspace_size();
}

int types_run_parallel(const void *const *inputs, void *const *outputs,
                       void *workspace, onnxq_parallel_for_fn parallel_for,
                       void *pool, int threads)
{
  (void)parallel_for;
  (void)pool;
  (void)threads;
  return types_run(inputs, outputs, workspace);
}
