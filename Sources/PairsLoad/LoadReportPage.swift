#if canImport(Glibc)
import Glibc
#endif

/// A load run as one self-contained HTML page: inline CSS and SVG, no script, nothing fetched, so it opens
/// from disk anywhere and can be mailed or attached to an issue. Drawn from a `LoadRunSummary` (the run's
/// JSON read back), so the page made just after a run and the one made later from its JSON are the same.
///
/// Every number shown in the figures carries `data-key`, the path of its JSON key, and is written exactly
/// as the JSON writes it; every text that came from the server or a file is escaped.
public enum LoadReportPage {
    /// The charts' drawing size in SVG units; they scale to the width of their column.
    static let chartWidth = 400.0
    static let chartHeight = 210.0
    /// Room for the axes' labels, in SVG units.
    static let leftMargin = 42.0
    static let rightMargin = 10.0
    static let topMargin = 10.0
    static let bottomMargin = 24.0

    /// The page for `run`, with a comparison against `baseline` (the run before a change) when given.
    public static func html(_ run: LoadRunSummary, comparedWith baseline: LoadRunSummary? = nil) -> String {
        var page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <meta name="color-scheme" content="light dark"/>
        <title>pairs load: \(escape(run.target))</title>
        <style>\(style)</style>
        </head>
        <body>
        <main>
        <header><h1>pairs load report</h1>
        <p class="sub"><span data-key="target">\(escape(run.target))</span> · <span data-key="server">\(escape(run.server ?? "server version unknown"))</span></p></header>

        """
        page += parameters(run)
        page += figures(run)
        if let baseline { page += comparison(run, baseline) }
        page += charts(run, baseline)
        page += tables(run)
        page += "</main>\n</body>\n</html>\n"
        return page
    }

    // MARK: Sections

    private static func parameters(_ run: LoadRunSummary) -> String {
        var rows: [(String, String, String)] = [
            ("target", "target", escape(run.target)),
            ("server", "server", escape(run.server ?? "unknown")),
            ("transport", "transport", escape(run.transport)),
            ("games at once", "concurrency", "\(run.concurrency)"),
            ("strategy", "strategy", escape(run.strategy)),
            ("think, ms", "think_ms", "\(run.thinkMilliseconds)"),
            ("duration, s", "duration_s", number(run.durationSeconds)),
            ("connections", "connections.requested", "\(run.connectionsRequested)"),
        ]
        if let loops = run.loops { rows.insert(("event loops", "loops", "\(loops)"), at: 4) }
        if let series = run.series { rows.append(("seconds charted", "series.seconds", "\(series.count)")) }
        var html = "<section id=\"run\"><h2>Run</h2><dl class=\"params\">\n"
        for (label, key, value) in rows {
            html += "<div><dt>\(label)</dt><dd data-key=\"\(key)\">\(value)</dd></div>\n"
        }
        return html + "</dl></section>\n"
    }

    /// The headline numbers, each as its JSON key writes it.
    static func headline(_ run: LoadRunSummary) -> [(label: String, key: String, value: String)] {
        var items: [(label: String, key: String, value: String)] = [
            ("flips/s", "flips_per_s", number(run.flipsPerSecond)),
            ("flips", "flips", "\(run.flips)"),
            ("games/s", "games_per_s", number(run.gamesPerSecond)),
            ("games", "games", "\(run.games)"),
        ]
        for (name, milliseconds) in run.latency {
            items.append(("\(name), ms", "latency_ms.\(name)", number(milliseconds)))
        }
        items += [
            ("errors", "errors_total", "\(run.errorsTotal)"),
            ("dropped", "connections.dropped", "\(run.connectionsDropped)"),
            ("failed to connect", "connections.failed", "\(run.connectionsFailed)"),
            ("client CPU, s", "cpu_s.load", number(run.cpuSeconds)),
        ]
        if let server = run.serverCPUSeconds { items.append(("server CPU, s", "cpu_s.server", number(server))) }
        return items
    }

    private static func figures(_ run: LoadRunSummary) -> String {
        var html = "<section id=\"figures\"><h2>Figures</h2><dl class=\"figures\">\n"
        for item in headline(run) {
            html += "<div><dt>\(item.label)</dt><dd data-key=\"\(item.key)\">\(item.value)</dd></div>\n"
        }
        return html + "</dl></section>\n"
    }

    /// Before and after, side by side, with the change and whether it is for the better.
    private static func comparison(_ run: LoadRunSummary, _ baseline: LoadRunSummary) -> String {
        // Which way is better for each figure: more throughput, less of everything else.
        var rows: [(label: String, before: Double, after: Double, higherIsBetter: Bool)] = [
            ("flips/s", baseline.flipsPerSecond, run.flipsPerSecond, true),
            ("games/s", baseline.gamesPerSecond, run.gamesPerSecond, true),
        ]
        for (index, (name, milliseconds)) in run.latency.enumerated() where index < baseline.latency.count {
            rows.append(("\(name), ms", baseline.latency[index].milliseconds, milliseconds, false))
        }
        rows += [
            ("errors", Double(baseline.errorsTotal), Double(run.errorsTotal), false),
            ("dropped", Double(baseline.connectionsDropped), Double(run.connectionsDropped), false),
            ("client CPU per 1000 flips, s", perThousandFlips(baseline.cpuSeconds, baseline), perThousandFlips(run.cpuSeconds, run), false),
        ]
        if let before = baseline.serverCPUSeconds, let after = run.serverCPUSeconds {
            rows.append(("server CPU per 1000 flips, s", perThousandFlips(before, baseline), perThousandFlips(after, run), false))
        }
        var html = """
        <section id="compare"><h2>Compared with the run before</h2>
        <p class="sub">before: \(escape(baseline.target)), \(escape(baseline.server ?? "server version unknown")), \(baseline.concurrency) games at once, \(number(baseline.durationSeconds)) s ·
        after: this run</p>
        <div class="tablewrap"><table><thead><tr><th>figure</th><th>before</th><th>after</th><th>change</th></tr></thead><tbody>

        """
        for row in rows {
            var change = "–"
            var verdict = "same"
            if row.before != 0 {
                let ratio = (row.after - row.before) / row.before * 100
                change = (ratio > 0 ? "+" : "") + LoadReport.fixed(ratio, 1) + "%"
                // Within a percent is within the noise of any two runs.
                if abs(ratio) >= 1 { verdict = (ratio > 0) == row.higherIsBetter ? "better" : "worse" }
            } else if row.after != 0 {
                verdict = row.higherIsBetter ? "better" : "worse"
                change = "new"
            }
            html += "<tr class=\"\(verdict)\"><td>\(row.label)</td><td>\(plain(row.before))</td>"
                + "<td>\(plain(row.after))</td><td>\(change) \(verdict == "same" ? "" : verdict)</td></tr>\n"
        }
        return html + "</tbody></table></div></section>\n"
    }

    private static func perThousandFlips(_ seconds: Double, _ run: LoadRunSummary) -> Double {
        run.flips > 0 ? seconds / Double(run.flips) * 1000 : 0
    }

    /// The charts of a report, each of which can also be cut out alone as an SVG file
    /// (`pairs load report RUN.json --svg NAME`).
    public enum Chart: String, CaseIterable, Sendable {
        case throughput, games, latency, histogram, errors, cpu
    }

    /// Chart `chart` of `run` (against `baseline` when given) as a standalone SVG document, the very drawing
    /// the page shows; nil when the run has nothing to draw (a JSON without series, or no flip answered for
    /// the histogram).
    public static func svg(_ chart: Chart, of run: LoadRunSummary, comparedWith baseline: LoadRunSummary? = nil) -> String? {
        drawings(run, baseline)?.first { $0.chart == chart }?.svg
    }

    private static func charts(_ run: LoadRunSummary, _ baseline: LoadRunSummary?) -> String {
        guard let drawings = drawings(run, baseline) else {
            return "<section id=\"charts\"><h2>Over time</h2><p>This run's JSON has no series (written by an older pairs load).</p></section>\n"
        }
        var html = "<section id=\"charts\"><h2>Over time</h2><div class=\"charts\">\n"
        for drawing in drawings { html += figure(drawing) }
        return html + "</div></section>\n"
    }

    /// One chart: its SVG (nil for a histogram with nothing in it) and what its figure says about it.
    struct Drawing {
        var chart: Chart
        var title: String
        var svg: String?
        var legend: [(String, Int)]
    }

    /// Every chart of `run`, in the page's order; nil when its JSON has no series.
    private static func drawings(_ run: LoadRunSummary, _ baseline: LoadRunSummary?) -> [Drawing]? {
        guard let series = run.series, series.count > 0 else { return nil }
        let other = baseline?.series.flatMap { $0.count > 0 ? $0 : nil }
        let timeline = Timeline(count: series.count, duration: run.durationSeconds)
        let otherTimeline = other.map { Timeline(count: $0.count, duration: baseline!.durationSeconds) }
        let span = max(timeline.duration, otherTimeline?.duration ?? 0)
        var drawings: [Drawing] = []

        var throughput = [Line(name: "flips/s", style: 1, times: timeline, values: timeline.rates(series.flips))]
        if let other, let otherTimeline {
            throughput.append(Line(name: "flips/s before", style: 5, times: otherTimeline, values: otherTimeline.rates(other.flips)))
        }
        drawings.append(lineChart(.throughput, title: "Flips per second", lines: throughput, span: span))
        drawings.append(lineChart(.games, title: "Games finished per second",
                                  lines: [Line(name: "games/s", style: 1, times: timeline, values: timeline.rates(series.games))], span: span))

        let styles = ["p50": 1, "p90": 3, "p99": 2, "max": 4]
        var latency = series.latency.map { Line(name: $0.name, style: styles[$0.name] ?? 1, times: timeline, values: $0.values) }
        if let other, let otherTimeline, let p99 = other.latency.first(where: { $0.name == "p99" }) {
            latency.append(Line(name: "p99 before", style: 5, times: otherTimeline, values: p99.values))
        }
        drawings.append(lineChart(.latency, title: "Latency per second, ms (log scale)", lines: latency, span: span, logarithmic: true))
        drawings.append(histogramChart(run.histogram))
        drawings.append(lineChart(.errors, title: "Errors and lost connections per second", lines: [
            Line(name: "errors", style: 2, times: timeline, values: timeline.rates(series.errors)),
            Line(name: "dropped", style: 4, times: timeline, values: timeline.rates(series.dropped)),
            Line(name: "failed to connect", style: 3, times: timeline, values: timeline.rates(series.failed)),
        ], span: span))
        var cpu = [Line(name: "client", style: 1, times: timeline, values: timeline.percents(series.cpuSeconds))]
        if let server = series.serverCPUSeconds {
            cpu.append(Line(name: "server", style: 2, times: timeline, values: timeline.percents(server)))
        }
        drawings.append(lineChart(.cpu, title: "CPU, % of one core" + (series.serverCPUSeconds == nil ? " (server: pass --server-pid)" : ""),
                                  lines: cpu, span: span))
        return drawings
    }

    /// Errors by code and lost connections by reason: text from the server, escaped.
    private static func tables(_ run: LoadRunSummary) -> String {
        var html = "<section id=\"details\"><h2>Errors and connections</h2><div class=\"tablewrap\"><table>"
            + "<thead><tr><th>what</th><th>count</th></tr></thead><tbody>\n"
        let groups: [(String, [(name: String, count: Int)])] = [
            ("error", run.errors), ("failed to connect", run.connectionFailures), ("dropped", run.connectionDrops),
        ]
        var any = false
        for (kind, counts) in groups {
            for (name, count) in counts {
                any = true
                html += "<tr><td>\(kind): <code>\(escape(name))</code></td><td>\(count)</td></tr>\n"
            }
        }
        if !any { html += "<tr><td>no error, every connection kept</td><td>0</td></tr>\n" }
        html += "<tr><td>flips refused</td><td>\(run.flipsRefused)</td></tr>\n"
        html += "<tr><td>requests resent after rate_limited</td><td>\(run.resends)</td></tr>\n"
        html += "<tr><td>games forfeited</td><td>\(run.gamesForfeited)</td></tr>\n"
        html += "<tr><td>games abandoned</td><td>\(run.gamesAbandoned)</td></tr>\n"
        return html + "</tbody></table></div></section>\n"
    }

    // MARK: Charts

    /// Where each second of a run lies: every second is one long except the last, which ends with the run.
    struct Timeline {
        var count: Int
        var duration: Double

        init(count: Int, duration: Double) {
            self.count = count
            // A run's JSON rounds its duration to the millisecond; the series never ends before its seconds.
            self.duration = max(duration, Double(count - 1) + 0.001)
        }

        func start(_ index: Int) -> Double { Double(index) }
        func end(_ index: Int) -> Double { index == count - 1 ? duration : Double(index + 1) }
        func length(_ index: Int) -> Double { end(index) - start(index) }

        func rates(_ counts: [Int]) -> [Double?] {
            counts.indices.map { Double(counts[$0]) / length($0) }
        }

        func percents(_ seconds: [Double?]) -> [Double?] {
            seconds.indices.map { index in seconds[index].map { $0 / length(index) * 100 } }
        }
    }

    struct Line {
        var name: String
        /// 1 to 4: the palette's colours; 5: the run compared with, dashed.
        var style: Int
        var times: Timeline
        var values: [Double?]
    }

    /// Lines over time, each second a step (a second is one count, not a point between two).
    private static func lineChart(_ chart: Chart, title: String, lines: [Line], span: Double, logarithmic: Bool = false) -> Drawing {
        let id = chart.rawValue
        let values = lines.flatMap { $0.values.compactMap { $0 } }
        let scale: Scale
        if logarithmic {
            let positive = values.filter { $0 > 0 }
            scale = .logarithmic(low: positive.min() ?? 0.1, high: positive.max() ?? 1)
        } else {
            scale = .linear(high: values.max() ?? 0)
        }
        var svg = chartFrame(id: id, title: title, xSpan: span, scale: scale)
        for line in lines {
            var path = ""
            var drawing = false
            for index in line.values.indices {
                guard let value = line.values[index], !logarithmic || value > 0 else {
                    drawing = false
                    continue
                }
                let y = coordinate(scale.fraction(of: value), from: chartHeight - bottomMargin, to: topMargin)
                let x0 = coordinate(line.times.start(index) / span, from: leftMargin, to: chartWidth - rightMargin)
                let x1 = coordinate(line.times.end(index) / span, from: leftMargin, to: chartWidth - rightMargin)
                path += drawing ? "V\(y)H\(x1)" : "M\(x0) \(y)H\(x1)"
                drawing = true
            }
            let dashes = line.style == 5 ? " stroke-dasharray=\"5 3\"" : ""
            svg += "<path class=\"line s\(line.style)\" fill=\"none\" stroke=\"\(palette[line.style - 1])\" stroke-width=\"1.8\"\(dashes) d=\"\(path)\"><title>\(escape(line.name))</title></path>\n"
        }
        svg += "</svg>\n"
        return Drawing(chart: chart, title: title, svg: svg, legend: lines.map { ($0.name, $0.style) })
    }

    /// The whole run's latencies in log-scaled buckets: a bar each, its width the bucket's range.
    private static func histogramChart(_ buckets: [(low: Double, high: Double, count: Int)]) -> Drawing {
        let title = "Latency histogram, whole run (ms, log scale)"
        guard !buckets.isEmpty else { return Drawing(chart: .histogram, title: title, svg: nil, legend: []) }
        // The first bucket starts at 0, which a log scale cannot place: it is drawn as wide as the next.
        let lows = buckets.map { $0.low > 0 ? $0.low : $0.high / 2 }
        let low = lows.min()!
        let high = buckets.map(\.high).max()!
        let xScale = Scale.logarithmic(low: low, high: high)
        let total = Double(buckets.reduce(0) { $0 + $1.count })
        let tallest = Double(buckets.map(\.count).max()!) / total * 100
        let yScale = Scale.linear(high: tallest)
        var svg = chartFrame(id: "histogram", title: title, xScale: xScale, scale: yScale)
        let bottom = chartHeight - bottomMargin
        for (index, bucket) in buckets.enumerated() {
            let x0 = coordinate(xScale.fraction(of: lows[index]), from: leftMargin, to: chartWidth - rightMargin)
            let x1 = coordinate(xScale.fraction(of: bucket.high), from: leftMargin, to: chartWidth - rightMargin)
            let y = coordinate(yScale.fraction(of: Double(bucket.count) / total * 100), from: bottom, to: topMargin)
            svg += "<path class=\"bar\" fill=\"\(palette[0])\" d=\"M\(x0) \(bottom)V\(y)H\(x1)V\(bottom)Z\"><title>\(number(bucket.low))–\(number(bucket.high)) ms: \(bucket.count)</title></path>\n"
        }
        svg += "</svg>\n"
        return Drawing(chart: .histogram, title: title, svg: svg, legend: [("% of flips", 1)])
    }

    private static func figure(_ drawing: Drawing) -> String {
        let head = "<figure id=\"chart-\(drawing.chart.rawValue)\" class=\"chart\"><figcaption>\(escape(drawing.title))</figcaption>"
        guard let svg = drawing.svg else { return head + "<p>No flip was answered.</p></figure>\n" }
        var html = head + "\n" + svg
        html += "<p class=\"legend\">" + drawing.legend.map { "<span class=\"k\($0.1)\">\(escape($0.0))</span>" }.joined(separator: " ") + "</p>"
        return html + "</figure>\n"
    }

    /// The axes and grid of a chart over time (seconds along the bottom).
    private static func chartFrame(id: String, title: String, xSpan: Double, scale: Scale) -> String {
        chartFrame(id: id, title: title, xScale: .linear(high: xSpan, exact: true), scale: scale, xUnit: " s")
    }

    private static func chartFrame(id: String, title: String, xScale: Scale, scale: Scale, xUnit: String = "") -> String {
        let left = leftMargin, right = chartWidth - rightMargin, top = topMargin, bottom = chartHeight - bottomMargin
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(number(chartWidth)) \(number(chartHeight))\" role=\"img\" "
            + "aria-label=\"\(escape(title))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        for tick in scale.ticks {
            let y = coordinate(scale.fraction(of: tick), from: bottom, to: top)
            svg += "<line class=\"grid\" stroke=\"\(gridColour)\" x1=\"\(left)\" x2=\"\(right)\" y1=\"\(y)\" y2=\"\(y)\"/>"
            svg += "<text fill=\"\(textColour)\" x=\"\(left - 4)\" y=\"\(y + 3.5)\" text-anchor=\"end\">\(label(tick))</text>\n"
        }
        for tick in xScale.ticks {
            let x = coordinate(xScale.fraction(of: tick), from: left, to: right)
            svg += "<line class=\"grid\" stroke=\"\(gridColour)\" x1=\"\(x)\" x2=\"\(x)\" y1=\"\(top)\" y2=\"\(bottom)\"/>"
            svg += "<text fill=\"\(textColour)\" x=\"\(x)\" y=\"\(bottom + 15)\" text-anchor=\"middle\">\(label(tick))\(xUnit)</text>\n"
        }
        svg += "<path class=\"axis\" fill=\"none\" stroke=\"\(textColour)\" d=\"M\(left) \(top)V\(bottom)H\(right)\"/>\n"
        return svg
    }

    /// A position between two SVG coordinates, rounded to a tenth of a unit to keep the page small.
    private static func coordinate(_ fraction: Double, from start: Double, to end: Double) -> Double {
        let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        return ((start + (end - start) * clamped) * 10).rounded() / 10
    }

    /// How values map onto an axis, and where its grid lines go.
    enum Scale {
        case linear(high: Double, exact: Bool = false)
        case logarithmic(low: Double, high: Double)

        /// The top of a linear axis: `high` rounded up to a 1, 2 or 5 step, so the grid lines are round.
        private var linearTop: (top: Double, step: Double) {
            guard case .linear(let high, let exact) = self else { return (1, 1) }
            guard high > 0 else { return (1, 0.25) }
            let rough = high / 5
            var magnitude = 1.0
            while magnitude * 10 <= rough { magnitude *= 10 }
            while magnitude > rough { magnitude /= 10 }
            let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? magnitude * 10
            return (exact ? high : (high / step).rounded(.up) * step, step)
        }

        /// The decades a logarithmic axis spans, whole ones.
        private var decades: (low: Double, high: Double) {
            guard case .logarithmic(let low, let high) = self else { return (1, 10) }
            var bottom = 1.0
            while bottom > low { bottom /= 10 }
            while bottom * 10 <= low { bottom *= 10 }
            var top = bottom * 10
            while top < high { top *= 10 }
            return (bottom, top)
        }

        func fraction(of value: Double) -> Double {
            switch self {
            case .linear:
                return value / linearTop.top
            case .logarithmic:
                let (low, high) = decades
                guard value > 0 else { return 0 }
                return (log10(value) - log10(low)) / (log10(high) - log10(low))
            }
        }

        var ticks: [Double] {
            switch self {
            case .linear:
                let (top, step) = linearTop
                var ticks: [Double] = []
                var tick = 0.0
                while tick <= top * (1 + 1e-9), ticks.count < 12 {
                    ticks.append(tick)
                    tick += step
                }
                return ticks
            case .logarithmic:
                let (low, high) = decades
                var ticks: [Double] = []
                var decade = low
                let few = high / low <= 100
                while decade <= high * (1 + 1e-9) {
                    ticks.append(decade)
                    // Two decades or fewer: 2 and 5 too, or the axis has two labels.
                    if few, decade * 10 <= high * (1 + 1e-9) { ticks += [decade * 2, decade * 5] }
                    decade *= 10
                }
                return ticks.sorted()
            }
        }
    }

    /// An axis label: short, no trailing zeros.
    private static func label(_ value: Double) -> String {
        if value >= 1000, value.rounded() == value {
            return value.truncatingRemainder(dividingBy: 1000) == 0 ? "\(Int(value / 1000))k" : "\(Int(value))"
        }
        if value.rounded() == value { return "\(Int(value))" }
        var text = LoadReport.fixed(value, value < 0.01 ? 4 : value < 0.1 ? 3 : value < 1 ? 2 : 1)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// A figure of the comparison: whole numbers without a fraction, others to three decimals at most.
    private static func plain(_ value: Double) -> String {
        let rounded = LoadReport.rounded(value, 3)
        guard rounded.isFinite else { return "-" }
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? "\(Int(rounded))" : rounded.description
    }

    /// A number exactly as the run's JSON writes it.
    static func number(_ value: Double) -> String {
        value.isFinite ? value.description : "-"
    }

    /// `text` safe between tags and inside quoted attributes.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// The light scheme's colours, also written on the SVG elements themselves, so a chart copied out of the
    /// page (as BENCHMARKS.md's are) draws alone; in the page, its style sheet overrides them by scheme.
    static let palette = ["#0969da", "#cf222e", "#8250df", "#9a6700", "#6e7781"]
    static let gridColour = "#d8dee4"
    static let textColour = "#57606a"

    static let style = """
    :root{--bg:#fff;--fg:#1b1f24;--muted:#57606a;--grid:#d8dee4;--card:#f3f5f7;--c1:#0969da;--c2:#cf222e;--c3:#8250df;--c4:#9a6700;--c5:#6e7781;--good:#1a7f37;--bad:#cf222e}
    @media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--grid:#30363d;--card:#161b22;--c1:#4493f8;--c2:#ff7b72;--c3:#d2a8ff;--c4:#e3b341;--c5:#9198a1;--good:#3fb950;--bad:#f85149}}
    *{box-sizing:border-box}
    body{margin:0;padding:12px;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
    main{max-width:1240px;margin:0 auto}
    h1{font-size:22px;margin:4px 0}h2{font-size:17px;margin:20px 0 8px}
    .sub{color:var(--muted);margin:0;overflow-wrap:anywhere}
    dl{display:grid;gap:8px;margin:0}
    .params{grid-template-columns:repeat(auto-fill,minmax(150px,1fr))}
    .figures{grid-template-columns:repeat(auto-fill,minmax(110px,1fr))}
    dl div{background:var(--card);border-radius:8px;padding:6px 10px;min-width:0}
    dt{color:var(--muted);font-size:13px}
    dd{margin:0;font-variant-numeric:tabular-nums;overflow-wrap:anywhere}
    .figures dd{font-size:20px;font-weight:600}
    .charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,480px),1fr));gap:14px}
    figure{margin:0;background:var(--card);border-radius:8px;padding:8px 8px 4px;min-width:0}
    figcaption{font-weight:600;font-size:14px;margin:0 0 4px 4px}
    svg{display:block;width:100%;height:auto}
    svg text{fill:var(--muted);font-size:12px;font-family:inherit}
    .grid{stroke:var(--grid);stroke-width:1}
    .axis{fill:none;stroke:var(--muted);stroke-width:1}
    .line{fill:none;stroke-width:1.8;stroke-linejoin:round}
    .s1{stroke:var(--c1)}.s2{stroke:var(--c2)}.s3{stroke:var(--c3)}.s4{stroke:var(--c4)}.s5{stroke:var(--c5);stroke-dasharray:5 3}
    .bar{fill:var(--c1);stroke:var(--card);stroke-width:.5}
    .legend{margin:2px 4px 4px;font-size:13px;color:var(--muted)}
    .legend span{margin-right:12px;white-space:nowrap}
    .legend span::before{content:"";display:inline-block;width:16px;height:3px;margin-right:5px;vertical-align:middle;background:var(--c1)}
    .legend .k2::before{background:var(--c2)}.legend .k3::before{background:var(--c3)}.legend .k4::before{background:var(--c4)}
    .legend .k5::before{background:repeating-linear-gradient(90deg,var(--c5) 0 5px,transparent 5px 8px)}
    .tablewrap{overflow-x:auto}
    table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
    th,td{padding:5px 8px;border-bottom:1px solid var(--grid);text-align:right}
    th:first-child,td:first-child{text-align:left}
    tr.better td:last-child{color:var(--good);font-weight:600}tr.worse td:last-child{color:var(--bad);font-weight:600}
    code{overflow-wrap:anywhere}
    """
}
