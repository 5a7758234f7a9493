//===- ReportHTML.cpp - the quantization report as one HTML page ----------===//
//
// `report=FILE.html`: the report's figures as charts a browser shows without
// anything else: inline SVG drawn here, one style sheet, no script, no
// external resource (font, image, link), so the page opens the same from a
// CI artifact, an email or an air-gapped machine.
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::onnxq;

namespace {

/// `text` with the characters HTML gives a meaning escaped.
std::string escape(StringRef text) {
  std::string result;
  for (char c : text) {
    switch (c) {
    case '&': result += "&amp;"; break;
    case '<': result += "&lt;"; break;
    case '>': result += "&gt;"; break;
    case '"': result += "&quot;"; break;
    default: result += c;
    }
  }
  return result;
}

/// Four significant digits, without trailing zeros (an axis tick at 10 is
/// "10", not "10.00").
std::string formatNumber(double value) {
  std::string text = llvm::formatv("{0:G4}", value).str();
  if (StringRef(text).contains('.') && !StringRef(text).contains('e')) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.')
      text.pop_back();
  }
  return text;
}

/// "0 %", else three significant digits: a few clipped values in a million
/// still show.
std::string formatPercent(double fraction) {
  if (fraction == 0)
    return "0 %";
  return llvm::formatv("{0} %", formatNumber(100.0 * fraction)).str();
}

/// A chart's drawing area: data coordinates mapped onto a rectangle of the
/// SVG, y up.
struct Plot {
  double left, top, width, height;
  double xMin, xMax, yMin, yMax;

  double x(double v) const {
    double t = xMax > xMin ? (v - xMin) / (xMax - xMin) : 0.5;
    return left + std::clamp(t, 0.0, 1.0) * width;
  }
  double y(double v) const {
    double t = yMax > yMin ? (v - yMin) / (yMax - yMin) : 0.5;
    return top + height - std::clamp(t, 0.0, 1.0) * height;
  }
};

class SVGWriter {
public:
  SVGWriter(raw_ostream &os, int width, int height, StringRef label)
      : os(os) {
    // Inline SVG in HTML needs no namespace (and the page names no URL).
    os << llvm::formatv("<svg width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
                        "role=\"img\" aria-label=\"{2}\">\n",
                        width, height, escape(label));
  }
  ~SVGWriter() { os << "</svg>\n"; }

  void rect(double x, double y, double w, double h, StringRef cls,
            StringRef title = "") {
    os << llvm::formatv("<rect x=\"{0:F1}\" y=\"{1:F1}\" width=\"{2:F1}\" "
                        "height=\"{3:F1}\" class=\"{4}\">",
                        x, y, std::max(w, 0.0), std::max(h, 0.0), cls);
    if (!title.empty())
      os << "<title>" << escape(title) << "</title>";
    os << "</rect>\n";
  }
  void line(double x1, double y1, double x2, double y2, StringRef cls) {
    os << llvm::formatv("<line x1=\"{0:F1}\" y1=\"{1:F1}\" x2=\"{2:F1}\" "
                        "y2=\"{3:F1}\" class=\"{4}\"/>\n",
                        x1, y1, x2, y2, cls);
  }
  void text(double x, double y, StringRef content, StringRef anchor = "start",
            StringRef cls = "") {
    os << llvm::formatv("<text x=\"{0:F1}\" y=\"{1:F1}\" text-anchor=\"{2}\"",
                        x, y, anchor);
    if (!cls.empty())
      os << " class=\"" << cls << "\"";
    os << ">" << escape(content) << "</text>\n";
  }
  void polyline(ArrayRef<std::pair<double, double>> points, StringRef cls) {
    os << "<polyline class=\"" << cls << "\" points=\"";
    for (auto [x, y] : points)
      os << llvm::formatv("{0:F1},{1:F1} ", x, y);
    os << "\"/>\n";
  }

private:
  raw_ostream &os;
};

constexpr StringLiteral kStyle = R"(
body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1400px; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; }
table { border-collapse: collapse; font-size: 13px; }
td, th { border: 1px solid #ccc; padding: 3px 8px; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.grid { display: flex; flex-wrap: wrap; gap: 12px; }
.card { border: 1px solid #ddd; padding: 6px; }
.card h3 { font-size: 13px; margin: 0 0 4px 0; font-weight: normal; }
svg text { font-size: 11px; fill: #333; }
.axis { stroke: #888; stroke-width: 1; }
.grid-line { stroke: #e4e4e4; stroke-width: 1; }
.activation { fill: #3b6fb6; } .local { fill: #8fb3e0; } .weight { fill: #e39a3b; }
.bin { fill: #3b6fb6; } .range { fill: #2e9b4a; fill-opacity: 0.12; }
.range-edge { stroke: #2e9b4a; stroke-width: 1.5; }
.outside { fill: #c23b3b; }
.channel { stroke: #3b6fb6; stroke-width: 1; }
.step { fill: none; stroke: #3b6fb6; stroke-width: 2; } .floor { stroke: #c23b3b; stroke-dasharray: 4 3; }
.dot { fill: #3b6fb6; }
.legend { font-size: 12px; margin: 4px 0 8px 0; }
.swatch { display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 12px; }
.swatch.activation { background: #3b6fb6; } .swatch.local { background: #8fb3e0; }
.swatch.weight { background: #e39a3b; }
.limit-band { fill: #e39a3b; fill-opacity: 0.35; }
)";

std::string layerTitle(const LayerReport &layer) {
  return formatLayer(layer.node, layer.folded);
}

/// Horizontal bars, one group per layer: activation, local and weight SQNR.
void printSQNRChart(const QuantizationReport &report, raw_ostream &os) {
  const double kRow = 30, kLeft = 260, kWidth = 1000, kTop = 24;
  double maxDB = 10;
  for (const LayerReport &layer : report.layers)
    for (std::optional<double> db :
         {layer.activationSQNR, layer.localSQNR, layer.weightSQNR})
      if (db && std::isfinite(*db))
        maxDB = std::max(maxDB, *db);
  maxDB = 10 * std::ceil(maxDB / 10);
  double minDB = 0;
  for (const LayerReport &layer : report.layers)
    for (std::optional<double> db :
         {layer.activationSQNR, layer.localSQNR, layer.weightSQNR})
      if (db && std::isfinite(*db))
        minDB = std::min(minDB, 10 * std::floor(*db / 10));
  double height = kTop + kRow * report.layers.size() + 24;
  SVGWriter svg(os, int(kLeft + kWidth + 60), int(height),
                "SQNR per layer, worst first");
  Plot plot{kLeft, kTop, kWidth, kRow * report.layers.size(), minDB, maxDB,
            0, 1};
  for (double db = minDB; db <= maxDB; db += 10) {
    svg.line(plot.x(db), kTop - 4, plot.x(db), plot.top + plot.height,
             "grid-line");
    svg.text(plot.x(db), kTop - 8,
             formatNumber(db) + (db + 10 > maxDB ? " dB" : ""), "middle");
  }
  for (auto [i, layer] : llvm::enumerate(report.layers)) {
    double rowTop = kTop + kRow * i;
    svg.text(kLeft - 8, rowTop + kRow / 2 + 4, layerTitle(layer), "end");
    int k = 0;
    for (auto [db, cls] : {std::pair{layer.activationSQNR, "activation"},
                          std::pair{layer.localSQNR, "local"},
                          std::pair{layer.weightSQNR, "weight"}}) {
      double barTop = rowTop + 3 + 8 * k++;
      if (!db)
        continue;
      double end = std::isfinite(*db) ? plot.x(*db) : plot.x(maxDB);
      std::string title = layerTitle(layer) + ": " + cls + " SQNR " +
                          formatDecibels(*db) + " dB";
      svg.rect(std::min(plot.x(0), end), barTop, std::abs(end - plot.x(0)), 7,
               cls, title);
      if (std::isinf(*db))
        svg.text(end + 4, barTop + 7, "inf");
    }
  }
  svg.line(plot.x(0), kTop, plot.x(0), plot.top + plot.height, "axis");
}

/// The float output's values and the range its Q/DQ represents.
void printHistogram(const LayerReport &layer, raw_ostream &os) {
  const RangeHistogram &histogram = *layer.histogram;
  os << "<div class=\"card\"><h3>" << escape(layerTitle(layer))
     << ": clipped " << formatPercent(histogram.getClippedFraction()) << " ("
     << histogram.getClipped() << " of " << histogram.getTotal()
     << " values)</h3>\n";
  SVGWriter svg(os, 340, 150,
                "histogram of " + layerTitle(layer) + " and its range");
  ArrayRef<uint64_t> bins = histogram.getBins();
  uint64_t top = std::max<uint64_t>(
      {*std::max_element(bins.begin(), bins.end()),
       histogram.getBelowWindow(), histogram.getAboveWindow(), 1});
  // Counts on a log scale: a Relu's spike at 0 would flatten the rest.
  Plot plot{24, 8, 300, 110, histogram.getWindowLo(), histogram.getWindowHi(),
            0, std::log1p(double(top))};
  svg.rect(plot.x(histogram.getRangeLo()), plot.top,
           plot.x(histogram.getRangeHi()) - plot.x(histogram.getRangeLo()),
           plot.height, "range");
  double binWidth = plot.width / bins.size();
  for (auto [i, count] : llvm::enumerate(bins)) {
    if (!count)
      continue;
    double h = plot.y(0) - plot.y(std::log1p(double(count)));
    svg.rect(plot.left + binWidth * i, plot.y(0) - h, binWidth - 0.5, h, "bin",
             std::to_string(count) + " values");
  }
  // What lies beyond the window: a bar on each side.
  for (auto [count, x] :
       {std::pair{histogram.getBelowWindow(), plot.left - 14},
        std::pair{histogram.getAboveWindow(), plot.left + plot.width + 4}}) {
    if (!count)
      continue;
    double h = plot.y(0) - plot.y(std::log1p(double(count)));
    svg.rect(x, plot.y(0) - h, 10, h, "outside",
             std::to_string(count) + " values beyond the chart");
  }
  for (float edge : {histogram.getRangeLo(), histogram.getRangeHi()})
    svg.line(plot.x(edge), plot.top, plot.x(edge), plot.y(0), "range-edge");
  svg.line(plot.left, plot.y(0), plot.left + plot.width, plot.y(0), "axis");
  svg.text(plot.x(histogram.getRangeLo()), 134,
           formatNumber(histogram.getRangeLo()), "middle");
  svg.text(plot.x(histogram.getRangeHi()), 134,
           formatNumber(histogram.getRangeHi()), "middle");
  svg.text(plot.left, 148, "count (log scale) over the range, +-50 %");
  os << "</div>\n";
}

/// Per channel, the float weights' extremes against the range the integers
/// represent there.
void printWeightRanges(const LayerReport &layer, raw_ostream &os) {
  const WeightRanges &ranges = *layer.weightRanges;
  size_t channels = ranges.min.size();
  os << "<div class=\"card\"><h3>" << escape(layer.node) << ": " << channels
     << (channels == 1 ? " tensor" : " channels") << ", "
     << escape(layer.weightGranularity) << ", SQNR "
     << formatDecibels(layer.weightSQNR) << " dB</h3>\n";
  SVGWriter svg(os, 340, 140, "weight ranges per channel of " + layer.node);
  double lo = 0, hi = 0;
  for (size_t c = 0; c < channels; ++c) {
    lo = std::min({lo, double(ranges.min[c]), double(ranges.rangeLo[c])});
    hi = std::max({hi, double(ranges.max[c]), double(ranges.rangeHi[c])});
  }
  Plot plot{40, 8, 290, 110, 0, double(channels), lo, hi};
  double step = plot.width / channels;
  for (size_t c = 0; c < channels; ++c) {
    double x = plot.left + step * (c + 0.5);
    svg.rect(plot.left + step * c, plot.y(ranges.rangeHi[c]),
             std::max(step - 0.5, 0.5),
             plot.y(ranges.rangeLo[c]) - plot.y(ranges.rangeHi[c]),
             "limit-band");
    svg.line(x, plot.y(ranges.min[c]), x, plot.y(ranges.max[c]), "channel");
  }
  svg.line(plot.left, plot.y(0), plot.left + plot.width, plot.y(0), "axis");
  svg.text(plot.left - 4, plot.y(hi) + 8, formatNumber(hi), "end");
  svg.text(plot.left - 4, plot.y(lo), formatNumber(lo), "end");
  svg.text(plot.left, 136, "per channel: the weights (blue) and the range "
                           "of the integers (orange)");
  os << "</div>\n";
}

/// The model's output SQNR as the fallback kept layers, against the floor.
void printFallbackChart(const FallbackResult &result, raw_ostream &os) {
  std::vector<std::pair<std::string, double>> steps{
      {"all quantized", result.baseSQNR}};
  for (const FallbackStep &step : result.kept)
    steps.push_back({"+ " + step.node, step.sqnr});
  double lo = 0, hi = 10;
  for (auto &[name, db] : steps)
    if (std::isfinite(db)) {
      lo = std::min(lo, db);
      hi = std::max(hi, db);
    }
  if (result.sqnrFloor)
    hi = std::max(hi, *result.sqnrFloor);
  hi = 5 * std::ceil(hi / 5 + 0.2);
  const double kStep = 120;
  SVGWriter svg(os, int(80 + kStep * steps.size()), 220,
                "model output SQNR as layers are kept in float");
  Plot plot{50, 10, kStep * (steps.size() - 0.5), 160, -0.25,
            double(steps.size()) - 0.75, lo, hi};
  for (double db = lo; db <= hi; db += 5) {
    svg.line(plot.left, plot.y(db), plot.left + plot.width, plot.y(db),
             "grid-line");
    svg.text(plot.left - 6, plot.y(db) + 4, formatNumber(db), "end");
  }
  if (result.sqnrFloor)
    svg.line(plot.left, plot.y(*result.sqnrFloor), plot.left + plot.width,
             plot.y(*result.sqnrFloor), "floor");
  std::vector<std::pair<double, double>> points;
  for (auto [i, step] : llvm::enumerate(steps)) {
    double x = plot.x(double(i));
    double y = plot.y(std::isfinite(step.second) ? step.second : hi);
    points.push_back({x, y});
    svg.text(x, 190, step.first, "middle");
    svg.text(x, y - 8, formatDecibels(step.second) + " dB", "middle");
  }
  svg.polyline(points, "step");
  svg.text(plot.left, 214, "model output SQNR (dB)" +
                               std::string(result.sqnrFloor
                                               ? ", floor dashed"
                                               : ""));
}

void printTableRow(raw_ostream &os, ArrayRef<std::string> cells,
                   ArrayRef<bool> numeric = {}) {
  os << "<tr>";
  for (auto [i, cell] : llvm::enumerate(cells))
    os << (i < numeric.size() && numeric[i] ? "<td class=\"num\">" : "<td>")
       << escape(cell) << "</td>";
  os << "</tr>\n";
}

} // namespace

void QuantizationReport::printHTML(raw_ostream &os) const {
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
     << "<title>onnx-quant quantization report</title>\n<style>" << kStyle
     << "</style>\n</head>\n<body>\n<h1>onnx-quant quantization report</h1>\n"
     << "<p>" << escape(settings) << "</p>\n";

  os << "<h2 id=\"summary\">Summary</h2>\n<table>\n";
  printTableRow(os, {"layers quantized", std::to_string(layers.size())});
  printTableRow(os, {"ops kept in float", std::to_string(floatOps.size())});
  if (activationsMeasured) {
    printTableRow(os, {"samples", std::to_string(samples) + " of '" + data +
                                      "' (" + dataFormat + ")"});
    for (const EndpointSQNR &input : inputs)
      printTableRow(os, {"input " + input.name + ": its own Q/DQ",
                         formatDecibels(input.sqnr) + " dB"});
    for (const EndpointSQNR &output : outputs)
      printTableRow(os, {"output " + output.name + ": against the float model",
                         formatDecibels(output.sqnr) + " dB"});
    if (top1Agreement)
      printTableRow(os, {"top-1 of the quantized model = the float model's",
                         std::to_string(*top1Agreement) + " of " +
                             std::to_string(samples) + " samples"});
    if (!labelsFile.empty() && labeledSamples) {
      printTableRow(os, {"float top-1 (labels: " + labelsFile + ")",
                         formatTop1(floatTop1, labeledSamples)});
      printTableRow(os, {"int8 top-1", formatTop1(quantizedTop1, labeledSamples)});
    } else if (!labelsFile.empty()) {
      printTableRow(os, {"top-1", "no sample run is labeled in " + labelsFile});
    }
  } else {
    printTableRow(os, {"activations", "not measured: " + activationNote});
  }
  os << "</table>\n";

  os << "<h2 id=\"sqnr\">SQNR per layer, worst first</h2>\n"
     << "<p>SQNR = 20 log10(|x| / |x - x_q|) dB, as ONNX Runtime's "
        "qdq_loss_debug. Activation: the layer's output in the quantized "
        "model against the float model (errors accumulate). Local: the "
        "error of the output's own Q/DQ. Weight: the float weights against "
        "their integers.</p>\n<div class=\"legend\">"
     << "<span class=\"swatch activation\"></span>activation"
     << "<span class=\"swatch local\"></span>local"
     << "<span class=\"swatch weight\"></span>weight</div>\n";
  printSQNRChart(*this, os);

  if (fallback) {
    os << "<h2 id=\"fallback\">Layers kept in float</h2>\n<p>"
       << fallback->candidates << " layers measured in float one at a time on "
       << fallback->samples << " samples of '" << escape(fallback->data)
       << "'; run time per sample: float model "
       << formatNumber(fallback->floatMs) << " ms.</p>\n";
    printFallbackChart(*fallback, os);
    os << "<table>\n<tr><th>kept in float</th><th>alone (dB)</th>"
          "<th>output (dB)</th><th>run (ms)</th></tr>\n";
    printTableRow(os, {"(none: all quantized)", "-",
                       formatDecibels(fallback->baseSQNR),
                       formatNumber(fallback->baseMs)},
                  {false, true, true, true});
    for (const FallbackStep &step : fallback->kept)
      printTableRow(os, {step.node, formatDecibels(step.aloneSQNR),
                         formatDecibels(step.sqnr), formatNumber(step.ms)},
                    {false, true, true, true});
    os << "</table>\n";
  }

  if (llvm::any_of(layers, [](const LayerReport &l) { return l.histogram; })) {
    os << "<h2 id=\"activations\">Activations and their ranges</h2>\n<p>Each "
          "layer's float output on the samples (log-scale counts); the "
          "shaded band is the range its integers represent, values outside "
          "it are clipped (red bars: beyond the chart).</p>\n"
          "<div class=\"grid\">\n";
    for (const LayerReport &layer : layers)
      if (layer.histogram)
        printHistogram(layer, os);
    os << "</div>\n";
  }
  if (llvm::any_of(layers, [](const LayerReport &l) { return l.weightRanges; })) {
    os << "<h2 id=\"weights\">Weight ranges per channel</h2>\n"
          "<div class=\"grid\">\n";
    for (const LayerReport &layer : layers)
      if (layer.weightRanges)
        printWeightRanges(layer, os);
    os << "</div>\n";
  }

  os << "<h2 id=\"float-ops\">Ops kept in float</h2>\n";
  if (floatOps.empty()) {
    os << "<p>None.</p>\n";
  } else {
    os << "<table>\n<tr><th>node</th><th>op</th><th>reason</th></tr>\n";
    for (const FloatOpReport &op : floatOps)
      printTableRow(os, {op.node, op.opType, op.reason});
    os << "</table>\n";
  }
  os << "</body>\n</html>\n";
}
