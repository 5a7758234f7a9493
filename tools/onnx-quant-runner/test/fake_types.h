/* Hand-written stand-in for a generated header: model "types" (see
   fake_types.c). */
#ifndef FAKE_TYPES_H
#define FAKE_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ONNXQ_TENSOR_INFO_DEFINED
#define ONNXQ_TENSOR_INFO_DEFINED
typedef struct onnxq_tensor_info {
  const char *name;     /* ONNX tensor name */
  int dtype;            /* ONNX TensorProto.DataType */
  int rank;
  const int64_t *shape; /* rank dims, all static */
  size_t num_elements;
} onnxq_tensor_info;
#endif

#ifndef ONNXQ_PARALLEL_FOR_DEFINED
#define ONNXQ_PARALLEL_FOR_DEFINED
typedef void (*onnxq_task_fn)(void *ctx, int64_t begin, int64_t end);
typedef void (*onnxq_parallel_for_fn)(void *pool, int64_t n,
                                      onnxq_task_fn fn, void *ctx);
#endif

int types_num_inputs(void);
int types_num_outputs(void);
size_t types_input_size(int i);
size_t types_output_size(int i);
size_t types_workspace_size(void);
const onnxq_tensor_info *types_input_info(int i);
const onnxq_tensor_info *types_output_info(int i);
int types_run(const void *const *inputs, void *const *outputs, void *workspace);
size_t types_workspace_size_parallel(int threads);
int types_run_parallel(const void *const *inputs, void *const *outputs,
    void *workspace, onnxq_parallel_for_fn parallel_for, void *pool, int threads);

#ifdef __cplusplus
}
#endif

#endif /* FAKE_TYPES_H */
