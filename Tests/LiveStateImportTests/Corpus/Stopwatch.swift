import Foundation

/// A focus timer's shape: a required `ClosedRange<Date>`, a lowercase typealias of the
/// `ContentState`, and attributes with an optional enum declared after its use.
struct StopwatchAttributes: ActivityAttributes {
    typealias stopwatchState = ContentState

    struct ContentState: Codable, Hashable {
        var period: ClosedRange<Date>
        var subject: String
        var isPaused: Bool
        var laps: [Double]?
    }

    var mode: Mode?
    var goalMinutes: Int

    enum Mode: String, Codable, Hashable {
        case countdown, stopwatch
    }
}
