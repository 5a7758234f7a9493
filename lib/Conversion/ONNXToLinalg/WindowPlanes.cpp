//===- WindowPlanes.cpp - a convolution's window over planes of its input -===//
//
// An AMX tile multiplies 16 positions by 16 filters over up to 16 channel
// words, in the same time however few words it is given, and each of its
// rows is 16 consecutive positions, so the positions' input words must be
// consecutive too. Two kinds of convolution miss that:
// - A window of stride s reads every s-th input word. Split by phases
//   (space-to-depth), it reads them with stride 1: phase plane o holds
//   x[s*y + o], and tap k = s*a + o reads plane o at y + a. The window
//   becomes ceil(K / s) taps over the phase planes, whose weights are 0
//   where s*a + o is past the window (a 3x3 window of stride 2: 16 taps for
//   9 real ones); planes no tap reads (o >= K: a 1x1 window of stride 2
//   reads plane 0) are left out.
// - A window over few channel words (the 3 channels of an image) fills a
//   fraction of each tile step. Its columns' taps fold into the channel
//   words: plane k holds x[s*x + k] for every tap k, and the window is one
//   tap wide (the 7x7 stem of ResNet-18: 2 phase planes of rows x 7 column
//   planes = 14 words in one step, 4 steps for its 49 taps instead of 16).
// Both are the same packing: plane (oh, ow) at (y, x) is the padded input
// at (sh * y + oh, sw * x + ow), its channels packed as packInputChannels
// packs them, one plane's words after another's.
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"
#include "PackedBytes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxq;

std::pair<int64_t, int64_t> WindowPlanes::locate(int64_t dim, int64_t k) const {
  if (folded[dim])
    return {k, 0};
  return {k % strides[dim], k / strides[dim]};
}

std::optional<WindowPlanes> mlir::onnxq::getWindowPlanes(const WindowGeometry &g,
                                                         int64_t channelWords) {
  if (g.kernel.size() != 2 ||
      llvm::any_of(g.dilations, [](int64_t d) { return d != 1; }))
    return std::nullopt;
  WindowPlanes planes;
  planes.strides.assign(g.strides.begin(), g.strides.end());
  for (int64_t d = 0; d < 2; ++d) {
    int64_t s = g.strides[d], k = g.kernel[d];
    planes.offsets.push_back(std::min(s, k));
    planes.folded.push_back(false);
    planes.geometry.kernel.push_back(llvm::divideCeil(k, s));
  }
  // Fold the columns' taps, then the rows', while one step holds them.
  for (int64_t d : {1, 0}) {
    int64_t k = g.kernel[d];
    if (k == 1 || channelWords * planes.offsets[1 - d] * k > kAMXStepWords)
      break;
    planes.offsets[d] = k;
    planes.folded[d] = true;
    planes.geometry.kernel[d] = 1;
  }
  if (llvm::all_of(g.strides, [](int64_t s) { return s == 1; }) &&
      !planes.folded[1])
    return std::nullopt;
  planes.geometry.strides.assign(2, 1);
  planes.geometry.dilations.assign(2, 1);
  planes.geometry.padBegin.assign(2, 0);
  planes.geometry.padEnd.assign(2, 0);
  planes.geometry.output = g.output;
  for (int64_t d = 0; d < 2; ++d)
    planes.extents.push_back(g.output[d] + planes.geometry.kernel[d] - 1);
  return planes;
}

Value mlir::onnxq::packInputPlanes(OpBuilder &b, Location loc, Value x,
                                   const WindowPlanes &planes, int64_t channels,
                                   int64_t planeWords, int64_t words, int8_t fill,
                                   bool toSigned) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t n = type.getDimSize(0);
  Type i8 = b.getI8Type(), i32 = b.getI32Type();
  MLIRContext *ctx = b.getContext();
  // Every plane in bounds: rows past the padded input are only read by
  // taps past the window, of weight 0, so they may hold anything; the fill
  // is as good as any.
  SmallVector<int64_t> low = {0, 0}, high = {0, 0};
  for (int64_t d = 0; d < 2; ++d) {
    int64_t needed = planes.strides[d] * (planes.extents[d] - 1) + planes.offsets[d];
    high[d] = std::max<int64_t>(0, needed - type.getDimSize(2 + d));
  }
  if (high[0] || high[1])
    x = padSpatial(b, loc, x, low, high, b.getIntegerAttr(i8, fill));

  auto resultType =
      RankedTensorType::get({n, 1, words, planes.extents[0], planes.extents[1]}, i32);
  Value result = createPackedBuffer(b, loc, resultType, planes.getCount() * planeWords,
                                    fill, toSigned);
  auto planeType =
      RankedTensorType::get({n, channels, planes.extents[0], planes.extents[1]}, i8);
  SmallVector<OpFoldResult> unitStrides(5, b.getIndexAttr(1));
  for (int64_t oh = 0; oh < planes.offsets[0]; ++oh)
    for (int64_t ow = 0; ow < planes.offsets[1]; ++ow) {
      Value plane = tensor::ExtractSliceOp::create(
          b, loc, planeType, x,
          getAsIndexOpFoldResult(ctx, ArrayRef<int64_t>{0, 0, oh, ow}),
          getAsIndexOpFoldResult(ctx, planeType.getShape()),
          getAsIndexOpFoldResult(
              ctx, ArrayRef<int64_t>{1, 1, planes.strides[0], planes.strides[1]}));
      Value packed = packInputChannels(b, loc, plane, /*group=*/1, channels,
                                       planeWords, fill, toSigned);
      int64_t first = (oh * planes.offsets[1] + ow) * planeWords;
      result = tensor::InsertSliceOp::create(
          b, loc, packed, result,
          getAsIndexOpFoldResult(ctx, ArrayRef<int64_t>{0, 0, first, 0, 0}),
          getAsIndexOpFoldResult(ctx,
                                 cast<RankedTensorType>(packed.getType()).getShape()),
          unitStrides);
    }
  return result;
}

SmallVector<int64_t> mlir::onnxq::packWeightPlanes(ArrayRef<int64_t> weights,
                                                   const WindowGeometry &g,
                                                   const WindowPlanes &planes,
                                                   int64_t filters, int64_t channels,
                                                   int64_t planeWords, int64_t words) {
  // The weights as a stride-1 window over the planes' channels, each
  // plane's channels padded to its words (weight 0, as past the window),
  // then packed four channels to a word as any convolution's.
  ArrayRef<int64_t> taps = planes.geometry.kernel;
  int64_t kh = g.kernel[0], kw = g.kernel[1];
  int64_t planeChannels = 4 * planeWords;
  int64_t allChannels = planes.getCount() * planeChannels, window = taps[0] * taps[1];
  SmallVector<int64_t> planar(filters * allChannels * window, 0);
  for (int64_t f = 0; f < filters; ++f)
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t h = 0; h < kh; ++h)
        for (int64_t w = 0; w < kw; ++w) {
          // Tap (h, w) is tap (ah, aw) of plane (oh, ow).
          auto [oh, ah] = planes.locate(0, h);
          auto [ow, aw] = planes.locate(1, w);
          int64_t channel = (oh * planes.offsets[1] + ow) * planeChannels + c;
          int64_t tap = ah * taps[1] + aw;
          planar[(f * allChannels + channel) * window + tap] =
              weights[((f * channels + c) * kh + h) * kw + w];
        }
  return packWeightChannels(planar, filters, allChannels, words, window);
}
