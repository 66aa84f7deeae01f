/// The unit of a UNIX date written finer than in seconds, as senders write one by mistake:
/// milliseconds (JavaScript's `Date.now()`, Java's `currentTimeMillis()`), microseconds (Go's
/// `UnixMicro()`) or nanoseconds (Go's `UnixNano()`, Python's `time.time_ns()`).
///
/// Told by size: UNIX seconds stay below 1e11 until the year 5138, and each finer unit counts
/// this century's dates a thousand times larger than the one before (1.8e12 milliseconds,
/// 1.8e15 microseconds, 1.8e18 nanoseconds in 2026).
package enum SubsecondUnit: Int, Sendable {
    case milliseconds = 1_000
    case microseconds = 1_000_000
    case nanoseconds = 1_000_000_000

    /// The unit `value` is written in, or `nil` when it reads as UNIX seconds (below 1e11).
    /// - Parameter value: A UNIX date as sent.
    package init?(of value: Int) {
        switch value {
        case 100_000_000_000_000_000...: self = .nanoseconds
        case 100_000_000_000_000...: self = .microseconds
        case 100_000_000_000...: self = .milliseconds
        default: return nil
        }
    }

    /// The unit's name, plural: "milliseconds".
    package var name: String {
        switch self {
        case .milliseconds: "milliseconds"
        case .microseconds: "microseconds"
        case .nanoseconds: "nanoseconds"
        }
    }

    /// `value`, written in this unit, in whole UNIX seconds.
    package func seconds(_ value: Int) -> Int {
        value / rawValue
    }
}
