// RUN: onnx-quant-opt %s --onnx-prune="mode=foo" -verify-diagnostics
// RUN: not onnx-quant-opt %s --onnx-prune="threshold=-1" 2>&1 | FileCheck %s --check-prefix=THRESHOLD
// RUN: not onnx-quant-opt %s --onnx-prune="mode=sparsity sparsity=1" 2>&1 | FileCheck %s --check-prefix=SPARSITY
// RUN: not onnx-quant-opt %s --onnx-prune="mode=sparsity sparsity=-0.5" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not onnx-quant-opt %s --onnx-prune="scope=model" 2>&1 | FileCheck %s --check-prefix=SCOPE
// RUN: not onnx-quant-opt %s --onnx-prune="structured=rows" 2>&1 | FileCheck %s --check-prefix=STRUCTURED
// RUN: not onnx-quant-opt %s --onnx-prune="structured=channels criterion=l3" 2>&1 | FileCheck %s --check-prefix=CRITERION
// RUN: not onnx-quant-opt %s --onnx-prune="min-elements=-1" 2>&1 | FileCheck %s --check-prefix=MIN
// RUN: not onnx-quant-opt %s --onnx-prune="report=/nonexistent/dir/r.txt" 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: onnx-quant-opt %s --onnx-prune 2>&1 | FileCheck %s --check-prefix=NOTHING
// Bad options are errors naming the option; nothing is pruned. The same with
// -verify-diagnostics: the error is on the module and it is the only
// diagnostic (the expected-error below matches each option's message).
// RUN: onnx-quant-opt %s --onnx-prune="threshold=-1" -verify-diagnostics
// RUN: onnx-quant-opt %s --onnx-prune="mode=sparsity sparsity=1" -verify-diagnostics
// RUN: onnx-quant-opt %s --onnx-prune="mode=sparsity sparsity=-0.5" -verify-diagnostics
// RUN: onnx-quant-opt %s --onnx-prune="scope=model" -verify-diagnostics
// RUN: onnx-quant-opt %s --onnx-prune="structured=rows" -verify-diagnostics
// RUN: onnx-quant-opt %s --onnx-prune="structured=channels criterion=l3" -verify-diagnostics
// RUN: onnx-quant-opt %s --onnx-prune="min-elements=-1" -verify-diagnostics
// RUN: onnx-quant-opt %s --onnx-prune="report=/nonexistent/dir/r.txt" -verify-diagnostics

// THRESHOLD: error: onnx-prune: threshold=-1 must be >= 0
// SPARSITY: error: onnx-prune: sparsity=1 is outside [0, 1)
// NEGATIVE: error: onnx-prune: sparsity=-0.5 is outside [0, 1)
// SCOPE: error: onnx-prune: scope='model' is not one of layer, global
// STRUCTURED: error: onnx-prune: structured='rows' is not one of none, channels
// CRITERION: error: onnx-prune: criterion='l3' is not one of l1, l2
// MIN: error: onnx-prune: min-elements=-1 must be >= 0
// REPORT: error: onnx-prune: cannot write report=/nonexistent/dir/r.txt
// NOTHING: warning: onnx-prune: mode=relative threshold=0 min-elements=1024 removes nothing; give threshold= (or mode=sparsity sparsity=)

// expected-error-re @+1 {{onnx-prune: {{(mode='foo' is not one of absolute, relative, sparsity|threshold=-1 must be >= 0|sparsity=1 is outside \[0, 1\)|sparsity=-0\.5 is outside \[0, 1\)|scope='model' is not one of layer, global|structured='rows' is not one of none, channels|criterion='l3' is not one of l1, l2|min-elements=-1 must be >= 0|cannot write report=/nonexistent/dir/r\.txt: .*)$}}}}
module {
  func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
    return %x : tensor<2xf32>
  }
}
