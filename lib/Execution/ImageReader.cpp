//===- ImageReader.cpp - images to model inputs ---------------------------===//
//
// JPEG (libjpeg-turbo) and PNG (libpng) decode to 8-bit RGB; resizing uses a
// triangle (bilinear) filter widened by the scale factor when shrinking, as
// PIL's Image.resize(BILINEAR) does, so Python preprocessing with PIL gives
// the same tensors.
//
//===----------------------------------------------------------------------===//

#include "SampleSource.h"

#include "onnx-quant/Dialect/ONNX/IR/ElementsUtils.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <csetjmp>
#include <cstring>

#include <jpeglib.h>
#include <png.h>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

struct RGBImage {
  int64_t width = 0, height = 0;
  std::vector<float> pixels; // HWC, RGB, 0..255
};

struct JpegErrorManager {
  jpeg_error_mgr base;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

void onJpegError(j_common_ptr cinfo) {
  auto *manager = reinterpret_cast<JpegErrorManager *>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, manager->message);
  longjmp(manager->jump, 1);
}

/// libjpeg only warns about damaged data ("Premature end of JPEG file",
/// "Corrupt JPEG data: ...") and fills what is missing with gray: a sample
/// like that would skew the ranges, so a warning is an error here too.
void onJpegMessage(j_common_ptr cinfo, int level) {
  if (level < 0)
    onJpegError(cinfo);
}

/// The largest image read (8192 x 8192). A few hundred bytes of JPEG or PNG
/// can declare 45,000 x 47,000 pixels: 6 GB once decoded (found by
/// tools/fuzz). Calibration images are downscaled to a model's input.
constexpr uint64_t kMaxImagePixels = uint64_t(1) << 26;

LogicalResult checkImageSize(uint64_t width, uint64_t height,
                             std::string &error) {
  if (width * height <= kMaxImagePixels)
    return success();
  error = "the image is " + std::to_string(width) + "x" +
          std::to_string(height) + " pixels, more than the " +
          std::to_string(kMaxImagePixels) +
          " onnx-quant reads; downscale it";
  return failure();
}

LogicalResult decodeJpeg(StringRef path, RGBImage &image, std::string &error) {
  FILE *file = std::fopen(path.str().c_str(), "rb");
  if (!file) {
    error = "cannot open: " + std::string(std::strerror(errno));
    return failure();
  }
  jpeg_decompress_struct cinfo;
  JpegErrorManager manager;
  cinfo.err = jpeg_std_error(&manager.base);
  manager.base.error_exit = onJpegError;
  manager.base.emit_message = onJpegMessage;
  std::vector<unsigned char> row;
  if (setjmp(manager.jump)) {
    jpeg_destroy_decompress(&cinfo);
    std::fclose(file);
    error = std::string("corrupt or unsupported JPEG: ") + manager.message;
    return failure();
  }
  jpeg_create_decompress(&cinfo);
  jpeg_stdio_src(&cinfo, file);
  jpeg_read_header(&cinfo, TRUE);
  if (failed(checkImageSize(cinfo.image_width, cinfo.image_height, error))) {
    jpeg_destroy_decompress(&cinfo);
    std::fclose(file);
    return failure();
  }
  cinfo.out_color_space = JCS_RGB;
  jpeg_start_decompress(&cinfo);
  image.width = cinfo.output_width;
  image.height = cinfo.output_height;
  image.pixels.resize(size_t(image.width) * image.height * 3);
  row.resize(size_t(image.width) * 3);
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW rows[] = {row.data()};
    size_t y = cinfo.output_scanline;
    jpeg_read_scanlines(&cinfo, rows, 1);
    for (size_t i = 0; i < row.size(); ++i)
      image.pixels[y * row.size() + i] = row[i];
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  std::fclose(file);
  return success();
}

LogicalResult decodePng(StringRef path, RGBImage &image, std::string &error) {
  png_image png;
  std::memset(&png, 0, sizeof(png));
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.str().c_str())) {
    error = std::string("corrupt or unsupported PNG: ") + png.message;
    return failure();
  }
  if (failed(checkImageSize(png.width, png.height, error))) {
    png_image_free(&png);
    return failure();
  }
  png.format = PNG_FORMAT_RGB;
  std::vector<unsigned char> buffer(PNG_IMAGE_SIZE(png));
  if (!png_image_finish_read(&png, nullptr, buffer.data(), 0, nullptr)) {
    error = std::string("corrupt PNG: ") + png.message;
    png_image_free(&png);
    return failure();
  }
  image.width = png.width;
  image.height = png.height;
  image.pixels.assign(buffer.begin(), buffer.end());
  return success();
}

/// Resizes the width of an HWC RGB image with PIL's bilinear filter: a
/// triangle of support max(scale, 1) input pixels around each output
/// pixel's center, normalized.
RGBImage resizeWidth(const RGBImage &image, int64_t outW) {
  RGBImage out;
  out.width = outW;
  out.height = image.height;
  out.pixels.resize(size_t(outW) * image.height * 3);
  double scale = double(image.width) / double(outW);
  double support = std::max(scale, 1.0);
  std::vector<double> weights;
  for (int64_t o = 0; o < outW; ++o) {
    double center = (o + 0.5) * scale;
    int64_t lo = std::max<int64_t>(0, int64_t(std::floor(center - support + 0.5)));
    int64_t hi =
        std::min<int64_t>(image.width, int64_t(std::floor(center + support + 0.5)));
    weights.assign(hi - lo, 0.0);
    double total = 0;
    for (int64_t i = lo; i < hi; ++i) {
      weights[i - lo] = std::max(0.0, 1.0 - std::fabs((i + 0.5 - center) / support));
      total += weights[i - lo];
    }
    for (int64_t y = 0; y < image.height; ++y)
      for (int64_t c = 0; c < 3; ++c) {
        double sum = 0;
        for (int64_t i = lo; i < hi; ++i)
          sum += weights[i - lo] * image.pixels[(y * image.width + i) * 3 + c];
        // PIL keeps 8-bit pixels between the passes.
        out.pixels[(y * outW + o) * 3 + c] =
            std::clamp(std::round(float(sum / total)), 0.0f, 255.0f);
      }
  }
  return out;
}

RGBImage transpose(const RGBImage &image) {
  RGBImage out;
  out.width = image.height;
  out.height = image.width;
  out.pixels.resize(image.pixels.size());
  for (int64_t y = 0; y < image.height; ++y)
    for (int64_t x = 0; x < image.width; ++x)
      for (int64_t c = 0; c < 3; ++c)
        out.pixels[(x * image.height + y) * 3 + c] =
            image.pixels[(y * image.width + x) * 3 + c];
  return out;
}

/// Resizes width then height, as PIL does.
RGBImage resize(RGBImage image, int64_t width, int64_t height) {
  if (width != image.width)
    image = resizeWidth(image, width);
  if (height != image.height)
    image = transpose(resizeWidth(transpose(image), height));
  return image;
}

} // namespace

FailureOr<ImagePreprocess>
mlir::onnxq::parseImagePreprocess(StringRef spec, std::string &error) {
  ImagePreprocess result;
  result.spec = spec.str();
  SmallVector<StringRef> items;
  spec.split(items, ' ', -1, /*KeepEmpty=*/false);
  auto parseList = [&](StringRef key, StringRef value,
                       SmallVectorImpl<double> &out) -> LogicalResult {
    SmallVector<StringRef> parts;
    value.split(parts, ',');
    if (parts.size() != 3) {
      error = (key + " expects three comma-separated values (one per channel, in the tensor's order), got '" +
               value + "'").str();
      return failure();
    }
    out.clear();
    for (StringRef part : parts) {
      double v;
      if (part.getAsDouble(v)) {
        error = (key + ": '" + part + "' is not a number").str();
        return failure();
      }
      out.push_back(v);
    }
    return success();
  };
  for (StringRef item : items) {
    auto [key, value] = item.split('=');
    if (key == "resize") {
      if (value.getAsInteger(10, result.resize) || result.resize <= 0) {
        error = ("resize expects a positive integer, got '" + value + "'").str();
        return failure();
      }
    } else if (key == "crop") {
      auto [h, w] = value.split('x');
      if (h.getAsInteger(10, result.cropH) ||
          (w.empty() ? (result.cropW = result.cropH, false)
                     : w.getAsInteger(10, result.cropW)) ||
          result.cropH <= 0 || result.cropW <= 0) {
        error = ("crop expects N or HxW, got '" + value + "'").str();
        return failure();
      }
    } else if (key == "channels") {
      if (value != "rgb" && value != "bgr") {
        error = ("channels expects rgb or bgr, got '" + value + "'").str();
        return failure();
      }
      result.bgr = value == "bgr";
    } else if (key == "scale") {
      auto [num, den] = value.split('/');
      double n, d = 1;
      if (num.getAsDouble(n) || (!den.empty() && den.getAsDouble(d)) || d == 0) {
        error = ("scale expects a number or a fraction like 1/255, got '" +
                 value + "'").str();
        return failure();
      }
      result.scale = n / d;
    } else if (key == "mean") {
      if (failed(parseList("mean", value, result.mean)))
        return failure();
    } else if (key == "std") {
      if (failed(parseList("std", value, result.std)))
        return failure();
      if (llvm::is_contained(result.std, 0.0)) {
        error = "std must not be zero";
        return failure();
      }
    } else if (key == "layout") {
      if (value != "nchw" && value != "nhwc") {
        error = ("layout expects nchw or nhwc, got '" + value + "'").str();
        return failure();
      }
      result.nhwc = value == "nhwc";
    } else {
      error = ("unknown preprocessing key '" + key +
               "' (known: resize, crop, channels, scale, mean, std, layout)")
                  .str();
      return failure();
    }
  }
  return result;
}

LogicalResult mlir::onnxq::readImage(StringRef path, const TensorABI &input,
                                     const ImagePreprocess &pre,
                                     std::vector<char> &bytes,
                                     std::string &error) {
  // The input must be one 3-channel image: (1, 3, H, W) or (1, H, W, 3).
  ArrayRef<int64_t> shape = input.shape;
  bool rank4 = shape.size() == 4 && shape[0] == 1;
  if (!rank4 || (pre.nhwc ? shape[3] : shape[1]) != 3) {
    error = "input '" + input.name + "' of shape " + formatShape(shape) +
            " is not one " + (pre.nhwc ? "1xHxWx3" : "1x3xHxW") +
            " image (set layout=nhwc or nchw in preprocess=)";
    return failure();
  }
  if (input.dtype != 1 && input.dtype != 10) {
    error = "input '" + input.name + "' is not float or float16";
    return failure();
  }
  int64_t height = pre.nhwc ? shape[1] : shape[2];
  int64_t width = pre.nhwc ? shape[2] : shape[3];

  RGBImage image;
  std::string ext = llvm::sys::path::extension(path).lower();
  if (failed(ext == ".png" ? decodePng(path, image, error)
                           : decodeJpeg(path, image, error)))
    return failure();
  if (pre.resize) {
    double s = double(pre.resize) / std::min(image.width, image.height);
    image = resize(image, std::max<int64_t>(1, std::lround(image.width * s)),
                   std::max<int64_t>(1, std::lround(image.height * s)));
  } else if (!pre.cropH) {
    image = resize(image, width, height);
  }
  int64_t cropH = pre.cropH ? pre.cropH : height;
  int64_t cropW = pre.cropW ? pre.cropW : width;
  if (cropH != height || cropW != width) {
    error = "the preprocessed image is " + std::to_string(cropH) + "x" +
            std::to_string(cropW) + " but input '" + input.name + "' expects " +
            std::to_string(height) + "x" + std::to_string(width);
    return failure();
  }
  if (image.height < cropH || image.width < cropW) {
    error = "the image is " + std::to_string(image.height) + "x" +
            std::to_string(image.width) + " after resizing, smaller than the " +
            std::to_string(cropH) + "x" + std::to_string(cropW) + " crop";
    return failure();
  }
  int64_t top = (image.height - cropH) / 2, left = (image.width - cropW) / 2;
  std::vector<float> tensor(size_t(3) * height * width);
  for (int64_t y = 0; y < height; ++y)
    for (int64_t x = 0; x < width; ++x)
      for (int64_t c = 0; c < 3; ++c) {
        int64_t source = pre.bgr ? 2 - c : c;
        float v = image.pixels[((y + top) * image.width + (x + left)) * 3 + source];
        v = float((v * pre.scale - pre.mean[c]) / pre.std[c]);
        size_t at = pre.nhwc ? (y * width + x) * 3 + c
                             : (c * height + y) * width + x;
        tensor[at] = v;
      }
  if (input.dtype == 1) {
    bytes.resize(tensor.size() * sizeof(float));
    std::memcpy(bytes.data(), tensor.data(), bytes.size());
    return success();
  }
  bytes.resize(tensor.size() * 2);
  for (size_t i = 0; i < tensor.size(); ++i) {
    llvm::APFloat f(tensor[i]);
    bool lost;
    f.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven, &lost);
    uint16_t bits = uint16_t(f.bitcastToAPInt().getZExtValue());
    std::memcpy(bytes.data() + 2 * i, &bits, 2);
  }
  return success();
}
