import Foundation
import TesseraSimulation
import TesseraUtilities

/// The scroll benchmark as a picture: one panel per key figure, in each a bar per strategy
/// for the grid and for the list, the value written on the bar. Deterministic text: the same
/// results draw the same bytes. O(figures × results).
enum ScrollChart {
  struct Panel: Sendable {
    let title: String
    let value: @Sendable (SimulationResult) -> Double
    let format: @Sendable (Double) -> String
  }

  static let colours: [StrategyKind: String] = [
    .naive: "#d1495b", .seed: "#edae49", .tessera: "#00798c",
  ]

  static let panels: [Panel] = [
    Panel(title: "Frames with a wrong image", value: { Double($0.wrongFrames) }, format: integer),
    Panel(title: "Flashes", value: { Double($0.flashes) }, format: integer),
    Panel(
      title: "Placeholder p95 (virtual ms)", value: { $0.placeholderP95Milliseconds },
      format: integer),
    Panel(
      title: "Cell time without own image", value: { $0.waitingShare }, format: percent),
    Panel(title: "Downloads started", value: { Double($0.downloadsStarted) }, format: integer),
    Panel(
      title: "MB downloaded", value: { Double($0.bytesDownloaded) / 1_000_000 },
      format: oneDecimal),
    Panel(title: "Duplicate downloads", value: { Double($0.duplicateDownloads) }, format: integer),
    Panel(title: "Memory-cache hit rate", value: { $0.memoryHitRate }, format: percent),
    Panel(
      title: "Peak decoded MiB", value: { Double($0.peakDecodedBytes) / 1_048_576 },
      format: oneDecimal),
    Panel(
      title: "Main-thread decode (ms)", value: { $0.mainThreadDecodeMilliseconds },
      format: integer),
  ]

  static func integer(_ value: Double) -> String {
    value.isFinite ? String(Int(clamping: value, to: Int.min...Int.max)) : "–"
  }
  static func percent(_ value: Double) -> String { String(format: "%.0f%%", value * 100) }
  static func oneDecimal(_ value: Double) -> String { String(format: "%.1f", value) }

  static func svg(_ results: [SimulationResult], items: Int, seed: UInt64) -> String {
    let columns = 5
    let panelWidth = 210
    let panelHeight = 210
    let top = 70
    let rows = (panels.count + columns - 1) / columns
    let width = columns * panelWidth
    let height = top + rows * panelHeight + 10
    var svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
      viewBox="0 0 \(width) \(height)" font-family="Helvetica, Arial, sans-serif">
      <rect width="\(width)" height="\(height)" fill="#ffffff"/>
      <text x="16" y="28" font-size="18" font-weight="bold">tessera bench scroll — \
      \(items) items, seed \(seed) (lower is better, except hit rate)</text>

      """
    var legendX = 16
    for strategy in StrategyKind.allCases {
      svg += """
        <rect x="\(legendX)" y="42" width="14" height="14" fill="\(colours[strategy] ?? "#888")"/>
        <text x="\(legendX + 20)" y="54" font-size="13">\(strategy.rawValue)</text>

        """
      legendX += 100
    }
    for (index, panel) in panels.enumerated() {
      let x = (index % columns) * panelWidth
      let y = top + (index / columns) * panelHeight
      svg += draw(panel, results, x: x, y: y, width: panelWidth, height: panelHeight)
    }
    return svg + "</svg>\n"
  }

  private static func draw(
    _ panel: Panel, _ results: [SimulationResult], x: Int, y: Int, width: Int, height: Int
  ) -> String {
    let maximum = max(results.map(panel.value).max() ?? 0, 1e-9)
    let plotTop = y + 44
    let plotHeight = height - 80
    let baseline = plotTop + plotHeight
    var out = """
      <text x="\(x + 12)" y="\(y + 18)" font-size="13" font-weight="bold">\(panel.title)</text>
      <line x1="\(x + 12)" y1="\(baseline)" x2="\(x + width - 12)" y2="\(baseline)" stroke="#999"/>

      """
    let bar = 20
    var cursor = x + 16
    for layout in LayoutKind.allCases {
      let group = results.filter { $0.layout == layout }
      let groupStart = cursor
      for result in group {
        let value = panel.value(result)
        let barHeight = max(
          value > 0 ? 1 : 0, Int(clamping: value / maximum * Double(plotHeight), to: 0...plotHeight)
        )
        let colour = colours[result.strategy] ?? "#888"
        out += """
          <rect x="\(cursor)" y="\(baseline - barHeight)" width="\(bar)" height="\(barHeight)" fill="\(colour)"/>
          <text x="\(cursor + bar / 2)" y="\(baseline - barHeight - 4)" font-size="10" \
          text-anchor="middle">\(panel.format(value))</text>

          """
        cursor += bar + 6
      }
      out += """
        <text x="\((groupStart + cursor - 6) / 2)" y="\(baseline + 16)" font-size="12" \
        text-anchor="middle">\(layout.rawValue)</text>

        """
      cursor += 14
    }
    return out
  }
}
