//===- MicrosoftSchemas.cpp - com.microsoft op schemas for libonnx --------===//

#include "MicrosoftSchemas.h"

#include "onnx/defs/schema.h"
#include "onnx/defs/shape_inference.h"

#include <mutex>

using namespace ONNX_NAMESPACE;

static constexpr const char *kDomain = "com.microsoft";

static void inferQLinearAdd(InferenceContext &ctx) {
  propagateElemTypeFromInputToOutput(ctx, 0, 0);
  if (hasInputShape(ctx, 0) && hasInputShape(ctx, 3))
    bidirectionalBroadcastShapeInference(
        ctx.getInputType(0)->tensor_type().shape(),
        ctx.getInputType(3)->tensor_type().shape(), *getOutputShape(ctx, 0));
}

static void inferQLinearGlobalAveragePool(InferenceContext &ctx) {
  propagateElemTypeFromInputToOutput(ctx, 0, 0);
  if (!hasInputShape(ctx, 0))
    return;
  const TensorShapeProto &in = ctx.getInputType(0)->tensor_type().shape();
  if (in.dim_size() < 3)
    fail_shape_inference("QLinearGlobalAveragePool expects rank >= 3");
  const AttributeProto *attr = ctx.getAttribute("channels_last");
  bool channelsLast = attr && attr->i() != 0;
  int channelDim = channelsLast ? in.dim_size() - 1 : 1;
  TensorShapeProto *out = getOutputShape(ctx, 0);
  for (int i = 0; i < in.dim_size(); ++i) {
    if (i == 0 || i == channelDim)
      *out->add_dim() = in.dim(i);
    else
      out->add_dim()->set_dim_value(1);
  }
}

static void inferQGemm(InferenceContext &ctx) {
  // Y is 8-bit like y_zero_point when y_scale is given, else float.
  if (ctx.getNumInputs() > 8 && ctx.getInputType(8))
    propagateElemTypeFromInputToOutput(ctx, 8, 0);
  else if (ctx.getNumInputs() > 7 && ctx.getInputType(7))
    updateOutputElemType(ctx, 0, TensorProto::UINT8);
  else
    updateOutputElemType(ctx, 0, TensorProto::FLOAT);
  if (!hasInputShape(ctx, 0) || !hasInputShape(ctx, 3))
    return;
  const TensorShapeProto &a = ctx.getInputType(0)->tensor_type().shape();
  const TensorShapeProto &b = ctx.getInputType(3)->tensor_type().shape();
  if (a.dim_size() != 2 || b.dim_size() != 2)
    fail_shape_inference("QGemm expects 2-D A and B");
  const AttributeProto *transA = ctx.getAttribute("transA");
  const AttributeProto *transB = ctx.getAttribute("transB");
  TensorShapeProto *out = getOutputShape(ctx, 0);
  *out->add_dim() = a.dim(transA && transA->i() ? 1 : 0);
  *out->add_dim() = b.dim(transB && transB->i() ? 0 : 1);
}

static void inferQLinearConcat(InferenceContext &ctx) {
  // Inputs 2, 5, 8, ... are the tensors; Y has Y_zero_point's type.
  propagateElemTypeFromInputToOutput(ctx, 1, 0);
  const AttributeProto *axisAttr = ctx.getAttribute("axis");
  if (!axisAttr || ctx.getNumInputs() < 5 || (ctx.getNumInputs() - 2) % 3 != 0)
    fail_shape_inference("QLinearConcat expects an axis and (tensor, scale, "
                         "zero point) triples after Y_scale and Y_zero_point");
  TensorShapeProto shape;
  for (size_t i = 2; i < ctx.getNumInputs(); i += 3) {
    if (!hasInputShape(ctx, i))
      return;
    const TensorShapeProto &in = ctx.getInputType(i)->tensor_type().shape();
    int rank = in.dim_size();
    int64_t axis = axisAttr->i() < 0 ? axisAttr->i() + rank : axisAttr->i();
    if (axis < 0 || axis >= rank ||
        (i > 2 && shape.dim_size() != rank))
      fail_shape_inference("QLinearConcat: inputs of different ranks or an "
                           "axis out of range");
    if (i == 2) {
      shape = in;
      continue;
    }
    auto *dim = shape.mutable_dim(int(axis));
    if (dim->has_dim_value() && in.dim(int(axis)).has_dim_value())
      dim->set_dim_value(dim->dim_value() + in.dim(int(axis)).dim_value());
    else
      dim->clear_dim_value();
  }
  *getOutputShape(ctx, 0) = shape;
}

static OpSchema quantizedTriple(OpSchema schema, int first, const char *name) {
  std::string n(name);
  return schema.Input(first, n, "", "T")
      .Input(first + 1, n + "_scale", "", "tensor(float)")
      .Input(first + 2, n + "_zero_point", "", "T", OpSchema::Optional);
}

void mlir::onnxq::registerMicrosoftSchemas() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto &ranges = OpSchemaRegistry::DomainToVersionRange::Instance();
    if (!ranges.Map().count(kDomain))
      ranges.AddDomainToVersion(kDomain, 1, 1);
    const std::vector<std::string> int8Types = {"tensor(uint8)", "tensor(int8)"};

    OpSchema add("QLinearAdd", __FILE__, __LINE__);
    add.SetDomain(kDomain).SinceVersion(1);
    add = quantizedTriple(quantizedTriple(std::move(add), 0, "A"), 3, "B");
    add.Input(6, "C_scale", "", "tensor(float)")
        .Input(7, "C_zero_point", "", "T", OpSchema::Optional)
        .Output(0, "C", "", "T")
        .TypeConstraint("T", int8Types, "8-bit integers")
        .TypeAndShapeInferenceFunction(inferQLinearAdd);
    OpSchemaRegistry::OpSchemaRegisterOnce registerAdd(add);

    OpSchema pool("QLinearGlobalAveragePool", __FILE__, __LINE__);
    pool.SetDomain(kDomain)
        .SinceVersion(1)
        .Attr("channels_last", "", AttributeProto::INT, static_cast<int64_t>(0))
        .Input(0, "X", "", "T")
        .Input(1, "x_scale", "", "tensor(float)")
        .Input(2, "x_zero_point", "", "T")
        .Input(3, "y_scale", "", "tensor(float)")
        .Input(4, "y_zero_point", "", "T")
        .Output(0, "Y", "", "T")
        .TypeConstraint("T", int8Types, "8-bit integers")
        .TypeAndShapeInferenceFunction(inferQLinearGlobalAveragePool);
    OpSchemaRegistry::OpSchemaRegisterOnce registerPool(pool);

    OpSchema concat("QLinearConcat", __FILE__, __LINE__);
    concat.SetDomain(kDomain)
        .SinceVersion(1)
        .Attr("axis", "", AttributeProto::INT)
        .Input(0, "Y_scale", "", "TF")
        .Input(1, "Y_zero_point", "", "T8")
        .Input(2, "inputs", "", "TV", OpSchema::Variadic,
               /*is_homogeneous=*/false)
        .Output(0, "Y", "", "T8")
        .TypeConstraint("TF", {"tensor(float)"}, "scales")
        .TypeConstraint("T8", int8Types, "8-bit integers")
        .TypeConstraint("TV", {"tensor(uint8)", "tensor(int8)", "tensor(float)"},
                        "tensors, their scales and zero points")
        .TypeAndShapeInferenceFunction(inferQLinearConcat);
    OpSchemaRegistry::OpSchemaRegisterOnce registerConcat(concat);

    OpSchema gemm("QGemm", __FILE__, __LINE__);
    gemm.SetDomain(kDomain)
        .SinceVersion(1)
        .Attr("alpha", "", AttributeProto::FLOAT, 1.0f)
        .Attr("transA", "", AttributeProto::INT, static_cast<int64_t>(0))
        .Attr("transB", "", AttributeProto::INT, static_cast<int64_t>(0))
        .Input(0, "A", "", "TA")
        .Input(1, "a_scale", "", "tensor(float)")
        .Input(2, "a_zero_point", "", "TA")
        .Input(3, "B", "", "TB")
        .Input(4, "b_scale", "", "tensor(float)")
        .Input(5, "b_zero_point", "", "TB")
        .Input(6, "C", "", "tensor(int32)", OpSchema::Optional)
        .Input(7, "y_scale", "", "tensor(float)", OpSchema::Optional)
        .Input(8, "y_zero_point", "", "TYZ", OpSchema::Optional)
        .Output(0, "Y", "", "TY")
        .TypeConstraint("TA", int8Types, "8-bit integers")
        .TypeConstraint("TB", int8Types, "8-bit integers")
        .TypeConstraint("TYZ", int8Types, "8-bit integers")
        .TypeConstraint("TY", {"tensor(float)", "tensor(uint8)", "tensor(int8)"},
                        "float, or the zero point's type")
        .TypeAndShapeInferenceFunction(inferQGemm);
    OpSchemaRegistry::OpSchemaRegisterOnce registerGemm(gemm);
  });
}
