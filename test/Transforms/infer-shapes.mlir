// RUN: onnx-quant-opt %s --onnx-infer-shapes --split-input-file | FileCheck %s
// Each op's shape rule refines dynamic dimensions and unknown ranks, shape
// computations on known shapes fold, and the function's results follow.

// The flatten idiom: Shape -> Gather -> Unsqueeze -> Concat -> Reshape.
// CHECK-LABEL: func @shape_chain
// CHECK-SAME: -> tensor<2x48xf32>
// CHECK-NOT: onnx.Shape
// CHECK: %[[T:.*]] = onnx.Constant dense<[2, -1]> : tensor<2xi64>
// CHECK: onnx.Reshape(%arg0, %[[T]]) : (tensor<2x3x4x4xf32>, tensor<2xi64>) -> tensor<2x48xf32>
func.func @shape_chain(%x: tensor<2x3x4x4xf32>) -> tensor<?x?xf32> {
  %zero = onnx.Constant dense<0> : tensor<1xi64>
  %minus1 = onnx.Constant dense<-1> : tensor<1xi64>
  %s = onnx.Shape(%x) : (tensor<2x3x4x4xf32>) -> tensor<?xi64>
  %n = onnx.Gather(%s, %zero) : (tensor<?xi64>, tensor<1xi64>) -> tensor<*xi64>
  %t = onnx.Concat(%n, %minus1) {axis = 0 : i64} : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %r = onnx.Reshape(%x, %t) : (tensor<2x3x4x4xf32>, tensor<*xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Slicing a shape, arithmetic on it, Cast, Squeeze and Unsqueeze fold too:
// the target is [1, 3 * 2, 4 * 2] = [1, 6, 8].
// CHECK-LABEL: func @shape_arithmetic
// CHECK-SAME: -> tensor<1x6x8xf32>
// CHECK-NOT: onnx.Slice
// CHECK: %[[T:.*]] = onnx.Constant dense<[1, 6, 8]> : tensor<3xi64>
// CHECK: onnx.Reshape(%arg0, %[[T]])
func.func @shape_arithmetic(%x: tensor<1x3x4x4xf32>) -> tensor<*xf32> {
  %start = onnx.Constant dense<2> : tensor<1xi64>
  %end = onnx.Constant dense<3> : tensor<1xi64>
  %two = onnx.Constant dense<2> : tensor<i64>
  %axis = onnx.Constant dense<0> : tensor<1xi64>
  %s = onnx.Shape(%x) : (tensor<1x3x4x4xf32>) -> tensor<?xi64>
  %h = onnx.Slice(%s, %start, %end) : (tensor<?xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xi64>
  %h2 = onnx.Mul(%h, %two) : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %c = onnx.Shape(%x) {start = 1 : i64, end = 2 : i64} : (tensor<1x3x4x4xf32>) -> tensor<?xi64>
  %c1 = onnx.Squeeze(%c, %axis) : (tensor<?xi64>, tensor<1xi64>) -> tensor<*xi64>
  %c2 = onnx.Mul(%c1, %two) : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %c3 = onnx.Unsqueeze(%c2, %axis) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %one = onnx.Constant dense<1> : tensor<1xi32>
  %n = onnx.Cast(%one) {to = 7 : i64} : (tensor<1xi32>) -> tensor<*xi64>
  %target = onnx.Concat(%n, %c3, %h2) {axis = 0 : i64} : (tensor<*xi64>, tensor<*xi64>, tensor<*xi64>) -> tensor<*xi64>
  %y = onnx.Reshape(%x, %target) : (tensor<1x3x4x4xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// Element-wise broadcasting, comparisons (bool), Where, variadic ops.
// CHECK-LABEL: func @elementwise
// CHECK: onnx.Add{{.*}} -> tensor<2x3x4xf32>
// CHECK: onnx.Less{{.*}} -> tensor<2x3x4xi1>
// CHECK: onnx.Where{{.*}} -> tensor<2x3x4xf32>
// CHECK: onnx.Max{{.*}} -> tensor<5x2x3x4xf32>
// CHECK: onnx.Relu{{.*}} -> tensor<5x2x3x4xf32>
// CHECK: onnx.Cast{{.*}} -> tensor<5x2x3x4xf16>
func.func @elementwise(%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>, %c: tensor<5x1x1x1xf32>) -> tensor<*xf16> {
  %s = onnx.Add(%a, %b) : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<*xf32>
  %l = onnx.Less(%s, %b) : (tensor<*xf32>, tensor<3x1xf32>) -> tensor<*xi1>
  %w = onnx.Where(%l, %s, %a) : (tensor<*xi1>, tensor<*xf32>, tensor<2x1x4xf32>) -> tensor<*xf32>
  %m = onnx.Max(%w, %c, %a) : (tensor<*xf32>, tensor<5x1x1x1xf32>, tensor<2x1x4xf32>) -> tensor<*xf32>
  %r = onnx.Relu(%m) : (tensor<*xf32>) -> tensor<*xf32>
  %h = onnx.Cast(%r) {to = 10 : i64} : (tensor<*xf32>) -> tensor<*xf16>
  return %h : tensor<*xf16>
}

// -----

// Convolution, pooling (ceil mode, SAME padding), global pooling, Gemm.
// CHECK-LABEL: func @cnn
// CHECK: onnx.Conv{{.*}} -> tensor<1x8x16x16xf32>
// CHECK: onnx.MaxPool{{.*}} -> tensor<1x8x8x8xf32>
// CHECK: onnx.AveragePool{{.*}} -> tensor<1x8x3x3xf32>
// CHECK: onnx.ConvTranspose{{.*}} -> tensor<1x4x7x7xf32>
// CHECK: onnx.GlobalAveragePool{{.*}} -> tensor<1x4x1x1xf32>
// CHECK: onnx.Flatten{{.*}} -> tensor<1x4xf32>
// CHECK: onnx.Gemm{{.*}} -> tensor<1x10xf32>
// CHECK: onnx.ArgMax{{.*}} -> tensor<1xi64>
func.func @cnn(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>, %wt: tensor<8x4x3x3xf32>, %fc: tensor<10x4xf32>) -> tensor<*xi64> {
  %c = onnx.Conv(%x, %w) {pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<*xf32>
  %p = onnx.MaxPool(%c) {auto_pad = "SAME_UPPER", kernel_shape = [3, 3], strides = [2, 2]} : (tensor<*xf32>) -> tensor<*xf32>
  %a = onnx.AveragePool(%p) {ceil_mode = 1 : i64, kernel_shape = [3, 3], strides = [3, 3]} : (tensor<*xf32>) -> tensor<*xf32>
  %t = onnx.ConvTranspose(%a, %wt) {strides = [2, 2]} : (tensor<*xf32>, tensor<8x4x3x3xf32>) -> tensor<*xf32>
  %g = onnx.GlobalAveragePool(%t) : (tensor<*xf32>) -> tensor<*xf32>
  %f = onnx.Flatten(%g) : (tensor<*xf32>) -> tensor<*xf32>
  %y = onnx.Gemm(%f, %fc) {transB = 1 : i64} : (tensor<*xf32>, tensor<10x4xf32>) -> tensor<*xf32>
  %i = onnx.ArgMax(%y) {axis = 1 : i64, keepdims = 0 : i64} : (tensor<*xf32>) -> tensor<*xi64>
  return %i : tensor<*xi64>
}

// -----

// MatMul batches broadcast; Transpose, Split, Pad, Resize by scales, ReduceMean.
// CHECK-LABEL: func @tensors
// CHECK: onnx.MatMul{{.*}} -> tensor<2x3x4x6xf32>
// CHECK: onnx.Transpose{{.*}} -> tensor<2x6x4x3xf32>
// CHECK: onnx.Split{{.*}} -> (tensor<2x2x4x3xf32>, tensor<2x4x4x3xf32>)
// CHECK: onnx.Pad{{.*}} -> tensor<2x4x6x5xf32>
// CHECK: onnx.Resize{{.*}} -> tensor<2x4x12x10xf32>
// CHECK: onnx.ReduceMean{{.*}} -> tensor<2x1x1x10xf32>
func.func @tensors(%a: tensor<2x3x4x5xf32>, %b: tensor<5x6xf32>) -> tensor<*xf32> {
  %m = onnx.MatMul(%a, %b) : (tensor<2x3x4x5xf32>, tensor<5x6xf32>) -> tensor<*xf32>
  %t = onnx.Transpose(%m) {perm = [0, 3, 2, 1]} : (tensor<*xf32>) -> tensor<*xf32>
  %sizes = onnx.Constant dense<[2, 4]> : tensor<2xi64>
  %s:2 = onnx.Split(%t, %sizes) {axis = 1 : i64} : (tensor<*xf32>, tensor<2xi64>) -> (tensor<*xf32>, tensor<*xf32>)
  %pads = onnx.Constant dense<[0, 0, 1, 1, 0, 0, 1, 1]> : tensor<8xi64>
  %p = onnx.Pad(%s#1, %pads) : (tensor<*xf32>, tensor<8xi64>) -> tensor<*xf32>
  %scales = onnx.Constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  %r = onnx.Resize(%p) scales(%scales) : (tensor<*xf32>, tensor<4xf32>) -> tensor<*xf32>
  %mean = onnx.ReduceMean(%r) {axes = [1, 2]} : (tensor<*xf32>) -> tensor<*xf32>
  return %mean : tensor<*xf32>
}

// -----

// A dimension that depends on a run-time value stays dynamic.
// CHECK-LABEL: func @runtime_shape
// CHECK: onnx.Reshape{{.*}} -> tensor<?x?xf32>
// CHECK: onnx.Relu{{.*}} -> tensor<?x?xf32>
func.func @runtime_shape(%x: tensor<2x6xf32>, %shape: tensor<2xi64>) -> tensor<*xf32> {
  %r = onnx.Reshape(%x, %shape) : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<*xf32>
  %y = onnx.Relu(%r) : (tensor<*xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// Quantized ops: QDQ types from the zero points, QOperator shapes.
// CHECK-LABEL: func @quantized
// CHECK: onnx.QuantizeLinear{{.*}} -> tensor<1x3x8x8xi8>
// CHECK: onnx.QLinearConv{{.*}} -> tensor<1x4x8x8xui8>
// CHECK: onnx.QLinearGlobalAveragePool{{.*}} -> tensor<1x4x1x1xui8>
// CHECK: onnx.DequantizeLinear{{.*}} -> tensor<1x4x1x1xf32>
func.func @quantized(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xi8>) -> tensor<*xf32> {
  %s = onnx.Constant dense<0.5> : tensor<f32>
  %z8 = onnx.Constant dense<0> : tensor<i8>
  %zu = onnx.Constant dense<128> : tensor<ui8>
  %q = onnx.QuantizeLinear(%x, %s, %z8) : (tensor<1x3x8x8xf32>, tensor<f32>, tensor<i8>) -> tensor<*xi8>
  %c = onnx.QLinearConv(%q, %s, %z8, %w, %s, %z8, %s, %zu) {pads = [1, 1, 1, 1]} : (tensor<*xi8>, tensor<f32>, tensor<i8>, tensor<4x3x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<*xui8>
  %g = onnx.QLinearGlobalAveragePool(%c, %s, %zu, %s, %zu) : (tensor<*xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<*xui8>
  %d = onnx.DequantizeLinear(%g, %s, %zu) : (tensor<*xui8>, tensor<f32>, tensor<ui8>) -> tensor<*xf32>
  return %d : tensor<*xf32>
}

// -----

// Tensors generated from shapes: ConstantOfShape and Range take their
// shapes from constants (Range's length max(ceil((limit - start) / delta),
// 0)), Expand broadcasts with the shape it is given; small results fold
// (Size of a static shape, a short integer Range).
// CHECK-LABEL: func @generators
// CHECK-SAME: -> (tensor<2x3xf32>, tensor<4xf32>, tensor<5x3xf32>, tensor<i64>, tensor<3xi64>, tensor<0xi64>)
// CHECK: onnx.ConstantOfShape(%{{.*}}) {value = dense<2.500000e+00> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<2x3xf32>
// CHECK: onnx.Range(%{{.*}}) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
// CHECK: onnx.Expand(%arg0, %{{.*}}) : (tensor<3xf32>, tensor<2xi64>) -> tensor<5x3xf32>
// CHECK-DAG: onnx.Constant dense<6> : tensor<i64>
// CHECK-DAG: onnx.Constant dense<[10, 7, 4]> : tensor<3xi64>
func.func @generators(%v: tensor<3xf32>, %m: tensor<2x3xf32>) -> (tensor<*xf32>, tensor<?xf32>, tensor<*xf32>, tensor<*xi64>, tensor<?xi64>, tensor<?xi64>) {
  %shape = onnx.Constant dense<[2, 3]> : tensor<2xi64>
  %c = onnx.ConstantOfShape(%shape) {value = dense<2.5> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<*xf32>
  %lo = onnx.Constant dense<0.0> : tensor<f32>
  %hi = onnx.Constant dense<1.9> : tensor<f32>
  %step = onnx.Constant dense<0.5> : tensor<f32>
  %r = onnx.Range(%lo, %hi, %step) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  %target = onnx.Constant dense<[5, 1]> : tensor<2xi64>
  %e = onnx.Expand(%v, %target) : (tensor<3xf32>, tensor<2xi64>) -> tensor<*xf32>
  %n = onnx.Size(%m) : (tensor<2x3xf32>) -> tensor<*xi64>
  %ten = onnx.Constant dense<10> : tensor<i64>
  %one = onnx.Constant dense<1> : tensor<i64>
  %minus3 = onnx.Constant dense<-3> : tensor<i64>
  %down = onnx.Range(%ten, %one, %minus3) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %empty = onnx.Range(%one, %ten, %minus3) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return %c, %r, %e, %n, %down, %empty : tensor<*xf32>, tensor<?xf32>, tensor<*xf32>, tensor<*xi64>, tensor<?xi64>, tensor<?xi64>
}

// -----

// CenterCropPad's expanded form pads by max(shape, target) - shape: Max and
// Min of constant shapes fold, so the Pad's result is static.
// CHECK-LABEL: func @crop_pad_amounts
// CHECK-NOT: onnx.Max
// CHECK-NOT: onnx.Min
// CHECK: onnx.Pad(%{{.*}}) {{.*}} -> tensor<10x11x3xf32>
func.func @crop_pad_amounts(%x: tensor<8x10x3xf32>) -> tensor<*xf32> {
  %shape = onnx.Shape(%x) : (tensor<8x10x3xf32>) -> tensor<3xi64>
  %target = onnx.Constant dense<[10, 9, 3]> : tensor<3xi64>
  %big = onnx.Max(%shape, %target) : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %small = onnx.Min(%shape, %target) : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %grow = onnx.Sub(%big, %small) : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %zero = onnx.Constant dense<0> : tensor<3xi64>
  %pads = onnx.Concat(%zero, %grow) {axis = 0 : i64} : (tensor<3xi64>, tensor<3xi64>) -> tensor<6xi64>
  %y = onnx.Pad(%x, %pads) : (tensor<8x10x3xf32>, tensor<6xi64>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// Float scalars count as shape data: a window function's Range length comes
// from a size cast to float, less one, so the Range folds to a static length.
// CHECK-LABEL: func @float_range_bounds
// CHECK-NOT: onnx.Cast
// CHECK-NOT: onnx.Sub
// CHECK: onnx.Range({{.*}}) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<9xf32>
func.func @float_range_bounds() -> tensor<*xf32> {
  %size = onnx.Constant dense<10> : tensor<i32>
  %one = onnx.Constant dense<1.0> : tensor<f32>
  %zero = onnx.Constant dense<0.0> : tensor<f32>
  %n = onnx.Cast(%size) {to = 1 : i64} : (tensor<i32>) -> tensor<f32>
  %limit = onnx.Sub(%n, %one) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %r = onnx.Range(%zero, %limit, %one) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// Tile multiplies each dim by its constant repeat; GatherElements takes the
// indices' shape.
// CHECK-LABEL: func @tile_and_gather_elements
// CHECK: onnx.Tile({{.*}}) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x3xf32>
// CHECK: onnx.GatherElements({{.*}}) {{.*}} -> tensor<1x3xf32>
func.func @tile_and_gather_elements(%x: tensor<2x3xf32>, %i: tensor<1x3xi64>) -> (tensor<*xf32>, tensor<*xf32>) {
  %r = onnx.Constant dense<[2, 1]> : tensor<2xi64>
  %t = onnx.Tile(%x, %r) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  %g = onnx.GatherElements(%x, %i) : (tensor<2x3xf32>, tensor<1x3xi64>) -> tensor<*xf32>
  return %t, %g : tensor<*xf32>, tensor<*xf32>
}

// -----

// TopK's results take K (a constant) along the axis; ScatterND and
// ScatterElements the data's type.
// CHECK-LABEL: func @topk_and_scatter
// CHECK: onnx.TopK({{.*}}) {{.*}} -> (tensor<2x2xf32>, tensor<2x2xi64>)
// CHECK: onnx.ScatterND({{.*}}) {{.*}} -> tensor<2x3xf32>
// CHECK: onnx.ScatterElements({{.*}}) {{.*}} -> tensor<2x3xf32>
func.func @topk_and_scatter(%x: tensor<2x3xf32>, %i: tensor<1x1xi64>, %u: tensor<1x3xf32>, %j: tensor<1x3xi64>) -> (tensor<*xf32>, tensor<*xi64>, tensor<*xf32>, tensor<*xf32>) {
  %k = onnx.Constant dense<2> : tensor<1xi64>
  %v, %idx = onnx.TopK(%x, %k) : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<*xf32>, tensor<*xi64>)
  %s = onnx.ScatterND(%x, %i, %u) : (tensor<2x3xf32>, tensor<1x1xi64>, tensor<1x3xf32>) -> tensor<*xf32>
  %e = onnx.ScatterElements(%x, %j, %u) : (tensor<2x3xf32>, tensor<1x3xi64>, tensor<1x3xf32>) -> tensor<*xf32>
  return %v, %idx, %s, %e : tensor<*xf32>, tensor<*xi64>, tensor<*xf32>, tensor<*xf32>
}

// -----

// Einsum's result takes its labels' sizes: explicit, or (implicit) the
// labels used once in alphabetical order.
// CHECK-LABEL: func @einsum_shapes
// CHECK: onnx.Einsum({{.*}}) {equation = "bhqd,bhkd->bhqk"} {{.*}} -> tensor<1x4x6x7xf32>
// CHECK: onnx.Einsum({{.*}}) {equation = "kj,ji"} {{.*}} -> tensor<3x2xf32>
func.func @einsum_shapes(%q: tensor<1x4x6x8xf32>, %k: tensor<1x4x7x8xf32>, %a: tensor<2x5xf32>, %b: tensor<5x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %s = onnx.Einsum(%q, %k) {equation = "bhqd,bhkd->bhqk"} : (tensor<1x4x6x8xf32>, tensor<1x4x7x8xf32>) -> tensor<*xf32>
  %t = onnx.Einsum(%a, %b) {equation = "kj,ji"} : (tensor<2x5xf32>, tensor<5x3xf32>) -> tensor<*xf32>
  return %s, %t : tensor<*xf32>, tensor<*xf32>
}
