import Glibc

/// What one benchmark scenario prints: a table of measurements, then one line per goal,
/// `PASS goal NAME: measured X (limit Y)` or `FAIL goal …`, which run.sh collects into the final summary.
///
/// Every number a goal checks is also in the table, so a failing run shows the context around it.
@MainActor
final class Report {
    private enum Line {
        case section(String)
        case row(name: String, value: String, note: String)
    }

    private struct Goal {
        let name: String
        let passed: Bool
        let measured: String
        let limit: String
    }

    let scenario: String
    private var lines: [Line] = []
    private var goals: [Goal] = []

    init(scenario: String) { self.scenario = scenario }

    var failed: Bool { goals.contains { !$0.passed } }

    func section(_ title: String) { lines.append(.section(title)) }

    func row(_ name: String, _ value: String, _ note: String = "") {
        lines.append(.row(name: name, value: value, note: note))
    }

    /// A goal on a value that must stay at or below `limit` (times, memory, gaps, counts).
    func goal(_ name: String, measured: Double, atMost limit: Double, unit: String, digits: Int = 1) {
        goals.append(Goal(name: "\(scenario).\(name)", passed: measured <= limit,
                          measured: Format.number(measured, digits: digits) + " " + unit,
                          limit: "≤ " + Format.number(limit, digits: digits) + " " + unit))
    }

    /// A goal on a value that must reach at least `limit` (a rate, a ratio).
    func goal(_ name: String, measured: Double, atLeast limit: Double, unit: String, digits: Int = 1) {
        goals.append(Goal(name: "\(scenario).\(name)", passed: measured >= limit,
                          measured: Format.number(measured, digits: digits) + " " + unit,
                          limit: "≥ " + Format.number(limit, digits: digits) + " " + unit))
    }

    /// A goal on an exact count (requests made twice, requests for rows never shown).
    func goal(_ name: String, count: Int, equals expected: Int, what: String) {
        goals.append(Goal(name: "\(scenario).\(name)", passed: count == expected,
                          measured: "\(count) \(what)", limit: "= \(expected)"))
    }

    func goal(_ name: String, count: Int, atMost limit: Int, what: String) {
        goals.append(Goal(name: "\(scenario).\(name)", passed: count <= limit,
                          measured: "\(count) \(what)", limit: "≤ \(limit)"))
    }

    /// A goal that could not be measured (the scenario broke off): always a failure, with the reason.
    func failure(_ name: String, _ reason: String) {
        goals.append(Goal(name: "\(scenario).\(name)", passed: false, measured: reason, limit: "completes"))
    }

    func print() {
        let nameWidth = lines.reduce(0) { width, line in
            if case .row(let name, _, _) = line { return max(width, name.count) }
            return width
        }
        // Values are left-aligned in a column; a very long value just pushes its note along.
        let valueWidth = min(44, lines.reduce(0) { width, line in
            if case .row(_, let value, _) = line { return max(width, value.count) }
            return width
        })
        Swift.print("\n== \(scenario)")
        for line in lines {
            switch line {
            case .section(let title):
                Swift.print("-- \(title)")
            case .row(let name, let value, let note):
                let padded = name + String(repeating: " ", count: max(0, nameWidth - name.count))
                let spaces = String(repeating: " ", count: max(0, valueWidth - value.count))
                Swift.print("   \(padded)  \(value)" + (note.isEmpty ? "" : "\(spaces)   \(note)"))
            }
        }
        for goal in goals {
            Swift.print("\(goal.passed ? "PASS" : "FAIL") goal \(goal.name): measured \(goal.measured) (limit \(goal.limit))")
        }
        fflush(nil)
    }
}

enum Format {
    /// Fixed-point text without Foundation: `number(3.14159, digits: 2)` is "3.14".
    static func number(_ value: Double, digits: Int = 1) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((abs(value) * Double(scale)).rounded())
        let sign = value < 0 && scaled != 0 ? "-" : ""
        let whole = String(scaled / scale)
        guard digits > 0 else { return sign + whole }
        let fraction = String(scaled % scale)
        return sign + whole + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    static func milliseconds(_ value: Double) -> String { number(value) + " ms" }
    static func megabytes(_ value: Double) -> String { number(value) + " MiB" }

    /// "median 312.4 ms (min 301.0, max 350.2, n=5)"
    static func spread(_ values: [Double], unit: String = "ms") -> String {
        let stats = Stats(values)
        return "median \(number(stats.median)) \(unit)  (min \(number(stats.min)), max \(number(stats.max)), n=\(values.count))"
    }
}

/// Order statistics of a handful of runs.
struct Stats {
    let median: Double
    let min: Double
    let max: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        min = sorted.first ?? .nan
        max = sorted.last ?? .nan
        if sorted.isEmpty {
            median = .nan
        } else if sorted.count % 2 == 1 {
            median = sorted[sorted.count / 2]
        } else {
            median = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
    }
}
