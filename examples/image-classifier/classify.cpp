// image-classifier: prints the top-5 ImageNet labels of each image given on
// the command line, with the time per image, for every compiled variant of
// the model (float, and int8 when the compiler can quantize).
//
//   image-classifier [--labels FILE] [--repeat N] [--threads N] IMAGE.jpg|png...
//
// The models are compiled from ONNX at build time (CMakeLists.txt); each
// comes as an object file and a header, <name>.o and <name>.h, with the C ABI
// of docs/user-guide.md: <name>_input_size(i), <name>_output_size(i),
// <name>_workspace_size_parallel(threads), <name>_run_parallel(inputs,
// outputs, workspace, parallel_for, pool, threads). With --threads N the
// parallel-for is onnx-quant's reference pool (onnxq_pool.h, OnnxQuant::pool
// in CMake); without, none: the call runs on this thread, as <name>_run.
//
// Preprocessing is the one SqueezeNet 1.1 (Caffe2) was trained with (see the
// zoo's MANIFEST.md): RGB image, bilinear resize of the shorter side to 256
// (PIL's filter, antialiased when shrinking), center crop 224x224, channels
// in BGR order minus the mean (104, 117, 123), no scaling, NCHW float.

#include "squeezenet_float.h"
#ifdef HAVE_INT8
#include "squeezenet_int8.h"
#endif
#include "onnxq_pool.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csetjmp>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

// After <cstdio>: jpeglib.h uses FILE without including it.
#include <jpeglib.h>
#ifdef HAVE_PNG
#include <png.h>
#endif

#ifndef IMAGE_CLASSIFIER_LABELS
#define IMAGE_CLASSIFIER_LABELS "synset_words.txt"
#endif

namespace {

constexpr int kCrop = 224;
constexpr int kResize = 256;
constexpr float kMeanBGR[3] = {104.0f, 117.0f, 123.0f};

struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb; // height x width x 3
};

// ---- decoding ------------------------------------------------------------

struct JpegError {
  jpeg_error_mgr mgr;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

void onJpegError(j_common_ptr cinfo) {
  JpegError *err = reinterpret_cast<JpegError *>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, err->message);
  longjmp(err->jump, 1);
}

bool readJpeg(FILE *file, Image &image, std::string &error) {
  jpeg_decompress_struct cinfo;
  JpegError err;
  cinfo.err = jpeg_std_error(&err.mgr);
  err.mgr.error_exit = onJpegError;
  if (setjmp(err.jump)) {
    error = err.message;
    jpeg_destroy_decompress(&cinfo);
    return false;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_stdio_src(&cinfo, file);
  jpeg_read_header(&cinfo, TRUE);
  cinfo.out_color_space = JCS_RGB; // grayscale is expanded; CMYK fails
  jpeg_start_decompress(&cinfo);
  image.width = cinfo.output_width;
  image.height = cinfo.output_height;
  image.rgb.resize(size_t(image.width) * image.height * 3);
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = &image.rgb[size_t(cinfo.output_scanline) * image.width * 3];
    jpeg_read_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  return true;
}

#ifdef HAVE_PNG
bool readPng(FILE *file, Image &image, std::string &error) {
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_stdio(&png, file)) {
    error = png.message;
    return false;
  }
  png.format = PNG_FORMAT_RGB; // drops alpha (composited on black)
  image.width = png.width;
  image.height = png.height;
  image.rgb.resize(PNG_IMAGE_SIZE(png));
  if (!png_image_finish_read(&png, nullptr, image.rgb.data(), 0, nullptr)) {
    error = png.message;
    png_image_free(&png);
    return false;
  }
  return true;
}
#endif

bool readImage(const char *path, Image &image, std::string &error) {
  std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path, "rb"), std::fclose);
  if (!file) {
    error = std::strerror(errno);
    return false;
  }
  unsigned char magic[8] = {0};
  size_t n = std::fread(magic, 1, sizeof magic, file.get());
  std::rewind(file.get());
  if (n >= 3 && magic[0] == 0xFF && magic[1] == 0xD8 && magic[2] == 0xFF)
    return readJpeg(file.get(), image, error);
  if (n == 8 && std::memcmp(magic, "\x89PNG\r\n\x1a\n", 8) == 0) {
#ifdef HAVE_PNG
    return readPng(file.get(), image, error);
#else
    error = "PNG image, but the program was built without libpng";
    return false;
#endif
  }
  error = "not a JPEG or PNG file";
  return false;
}

// ---- preprocessing -------------------------------------------------------

// One pass of PIL's separable resampling with the bilinear (triangle)
// filter along one axis: `in` is lines x inSize x 3 with stride `inStep`
// between samples, the result lines x outSize x 3.
struct Axis {
  std::vector<int> first, count;
  std::vector<float> weights; // count[i] weights per output i, padded to k
  int k = 0;
};

Axis makeAxis(int inSize, int outSize) {
  double scale = double(inSize) / outSize;
  double filterScale = std::max(scale, 1.0);
  double support = 1.0 * filterScale; // bilinear support is 1
  Axis axis;
  axis.k = int(std::ceil(support)) * 2 + 1;
  axis.first.resize(outSize);
  axis.count.resize(outSize);
  axis.weights.assign(size_t(outSize) * axis.k, 0.0f);
  for (int i = 0; i < outSize; ++i) {
    double center = (i + 0.5) * scale;
    int lo = std::max(int(center - support + 0.5), 0);
    int hi = std::min(int(center + support + 0.5), inSize);
    double total = 0;
    for (int j = lo; j < hi; ++j) {
      double w = std::max(0.0, 1.0 - std::fabs((j - center + 0.5) / filterScale));
      axis.weights[size_t(i) * axis.k + (j - lo)] = float(w);
      total += w;
    }
    for (int j = lo; j < hi && total > 0; ++j)
      axis.weights[size_t(i) * axis.k + (j - lo)] /= float(total);
    axis.first[i] = lo;
    axis.count[i] = hi - lo;
  }
  return axis;
}

// Resizes so the shorter side is kResize, then center-crops kCrop x kCrop,
// into a planar BGR float tensor minus the mean.
void preprocess(const Image &image, float *tensor) {
  int w = image.width, h = image.height;
  int newW, newH;
  if (w <= h) {
    newW = kResize;
    newH = std::max(kResize, int(std::nearbyint(double(kResize) * h / w)));
  } else {
    newH = kResize;
    newW = std::max(kResize, int(std::nearbyint(double(kResize) * w / h)));
  }
  Axis ax = makeAxis(w, newW), ay = makeAxis(h, newH);
  // Python-style round (half to even), as torchvision and the zoo notes.
  int left = int(std::nearbyint((newW - kCrop) / 2.0));
  int top = int(std::nearbyint((newH - kCrop) / 2.0));

  // Horizontal pass on every source row, for the crop's columns only.
  std::vector<float> rows(size_t(h) * kCrop * 3);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < kCrop; ++x) {
      int ox = x + left;
      float acc[3] = {0, 0, 0};
      const float *wts = &ax.weights[size_t(ox) * ax.k];
      for (int j = 0; j < ax.count[ox]; ++j) {
        const uint8_t *p = &image.rgb[(size_t(y) * w + ax.first[ox] + j) * 3];
        for (int c = 0; c < 3; ++c)
          acc[c] += wts[j] * p[c];
      }
      for (int c = 0; c < 3; ++c) // 8-bit intermediate, as PIL
        rows[(size_t(y) * kCrop + x) * 3 + c] =
            std::min(255.0f, std::max(0.0f, std::round(acc[c])));
    }
  // Vertical pass for the crop's rows, writing BGR planes minus the mean.
  const size_t plane = size_t(kCrop) * kCrop;
  for (int y = 0; y < kCrop; ++y) {
    int oy = y + top;
    const float *wts = &ay.weights[size_t(oy) * ay.k];
    for (int x = 0; x < kCrop; ++x) {
      float acc[3] = {0, 0, 0};
      for (int j = 0; j < ay.count[oy]; ++j) {
        const float *p = &rows[(size_t(ay.first[oy] + j) * kCrop + x) * 3];
        for (int c = 0; c < 3; ++c)
          acc[c] += wts[j] * p[c];
      }
      for (int c = 0; c < 3; ++c) {
        // PIL rounds and clamps to 8 bits after resampling.
        float v = std::min(255.0f, std::max(0.0f, std::round(acc[c])));
        int bgr = 2 - c; // R,G,B -> planes 2,1,0
        tensor[bgr * plane + size_t(y) * kCrop + x] = v - kMeanBGR[bgr];
      }
    }
  }
}

// ---- the compiled models -------------------------------------------------

struct Variant {
  const char *name;
  size_t (*inputSize)(int);
  size_t (*outputSize)(int);
  size_t (*workspaceSize)(int threads);
  int (*run)(const void *const *, void *const *, void *, onnxq_parallel_for_fn,
             void *, int);
};

// run_parallel with the pool's parallel-for (onnxq_pool.h), or with none
// (then it runs on the calling thread, as <name>_run).
#define ONNXQ_VARIANT(label, entry)                                            \
  Variant {                                                                    \
    label, entry##_input_size, entry##_output_size,                            \
        entry##_workspace_size_parallel, entry##_run_parallel                  \
  }

std::vector<Variant> variants() {
  std::vector<Variant> all = {ONNXQ_VARIANT("float", squeezenet_float)};
#ifdef HAVE_INT8
  all.push_back(ONNXQ_VARIANT("int8", squeezenet_int8));
#endif
  return all;
}

std::vector<std::string> readLabels(const char *path) {
  std::vector<std::string> labels;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    // synset_words.txt: "n01440764 tench, Tinca tinca"; keep the words.
    if (line.size() > 10 && line[0] == 'n' && line[9] == ' ')
      line = line.substr(10);
    labels.push_back(line);
  }
  return labels;
}

// The model's output as probabilities: SqueezeNet ends with a softmax; for a
// model that gives logits, apply one.
void toProbabilities(std::vector<float> &v) {
  double sum = 0;
  bool probs = true;
  for (float x : v) {
    probs = probs && x >= 0 && x <= 1;
    sum += x;
  }
  if (probs && std::fabs(sum - 1.0) < 1e-3)
    return;
  float mx = *std::max_element(v.begin(), v.end());
  double total = 0;
  for (float &x : v)
    total += (x = std::exp(x - mx));
  for (float &x : v)
    x = float(x / total);
}

} // namespace

int main(int argc, char **argv) {
  const char *labelsPath = IMAGE_CLASSIFIER_LABELS;
  int repeat = 3, threads = 1;
  std::vector<const char *> images;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--labels" && i + 1 < argc)
      labelsPath = argv[++i];
    else if (arg == "--repeat" && i + 1 < argc)
      repeat = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--threads" && i + 1 < argc)
      threads = std::max(1, std::atoi(argv[++i]));
    else if (arg == "-h" || arg == "--help" || arg[0] == '-') {
      std::fprintf(arg[0] == '-' && arg != "-h" && arg != "--help" ? stderr : stdout,
                   "usage: %s [--labels FILE] [--repeat N] [--threads N] IMAGE...\n"
                   "Top-5 ImageNet labels of each JPEG/PNG image, per variant\n"
                   "(--threads N: on N threads, onnxq_pool.h).\n",
                   argv[0]);
      return arg == "-h" || arg == "--help" ? 0 : 2;
    } else
      images.push_back(argv[i]);
  }
  if (images.empty()) {
    std::fprintf(stderr, "usage: %s [--labels FILE] [--repeat N] [--threads N] IMAGE...\n",
                 argv[0]);
    return 2;
  }
  std::vector<std::string> labels = readLabels(labelsPath);

  std::vector<Variant> models = variants();
  std::printf("variants: float");
#ifdef HAVE_INT8
  std::printf(", int8\n");
#else
  std::printf("\nint8: unavailable (%s)\n", INT8_UNAVAILABLE_REASON);
#endif
  const size_t inputSize = size_t(3) * kCrop * kCrop;
  std::vector<std::vector<unsigned char>> workspaces;
  for (const Variant &m : models) {
    if (m.inputSize(0) != inputSize) {
      std::fprintf(stderr, "error: %s model takes %zu input elements, expected "
                   "1x3x%dx%d\n", m.name, m.inputSize(0), kCrop, kCrop);
      return 1;
    }
    workspaces.emplace_back(m.workspaceSize(threads));
  }
  // The two lines of a threaded run: a pool, and its parallel-for and
  // thread count passed to <name>_run_parallel.
  onnxq_pool *pool = threads > 1 ? onnxq_pool_create(threads) : nullptr;
  onnxq_parallel_for_fn parallelFor = pool ? onnxq_pool_parallel_for : nullptr;

  int status = 0;
  std::vector<float> input(inputSize);
  for (const char *path : images) {
    Image image;
    std::string error;
    if (!readImage(path, image, error)) {
      std::fprintf(stderr, "error: %s: %s\n", path, error.c_str());
      status = 1;
      continue;
    }
    preprocess(image, input.data());
    std::printf("== %s (%dx%d)\n", path, image.width, image.height);
    for (size_t v = 0; v < models.size(); ++v) {
      const Variant &m = models[v];
      std::vector<float> output(m.outputSize(0));
      const void *inputs[] = {input.data()};
      void *outputs[] = {output.data()};
      void *workspace = workspaces[v].empty() ? nullptr : workspaces[v].data();
      if (m.run(inputs, outputs, workspace, parallelFor, pool, threads) != 0) { // warm-up
        std::fprintf(stderr, "error: %s: %s_run failed\n", path, m.name);
        status = 1;
        continue;
      }
      auto start = std::chrono::steady_clock::now();
      for (int r = 0; r < repeat; ++r)
        m.run(inputs, outputs, workspace, parallelFor, pool, threads);
      std::chrono::duration<double, std::milli> elapsed =
          std::chrono::steady_clock::now() - start;
      toProbabilities(output);
      std::vector<int> order(output.size());
      std::iota(order.begin(), order.end(), 0);
      int k = std::min<int>(5, int(order.size()));
      std::partial_sort(order.begin(), order.begin() + k, order.end(),
                        [&](int a, int b) { return output[a] > output[b]; });
      std::printf("%s: %.2f ms/image\n", m.name, elapsed.count() / repeat);
      for (int i = 0; i < k; ++i) {
        int c = order[i];
        const char *label = size_t(c) < labels.size() ? labels[c].c_str() : "?";
        std::printf("  %d. %6.2f%%  %s (class %d)\n", i + 1, 100.0 * output[c],
                    label, c);
      }
    }
  }
  onnxq_pool_destroy(pool);
  return status;
}
