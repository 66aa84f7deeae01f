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

    /// `value` in whole UNIX seconds when, read in this unit, it is a date a sender means (from
    /// 10^9 seconds, September 2001, to 2100), or `nil`: `Int.max`, a "never" sentinel, read as nanoseconds is 2262, and
    /// "send 9223372036" would be a guess.
    package func plausibleSeconds(_ value: Int) -> Int? {
        let seconds = seconds(value)
        return (1_000_000_000 ..< 4_102_444_800).contains(seconds) ? seconds : nil
    }

    /// What a sender is told of `value`, `name`'s date, in words that end before a consequence:
    /// `timestamp 1795000000000 is in milliseconds`, or, for no date a sender means in any unit,
    /// `timestamp 9223372036854775807 is no date in UNIX seconds or a finer unit`.
    package static func said(_ name: String, _ value: Int) -> (text: String, seconds: Int?) {
        guard let unit = SubsecondUnit(of: value), let seconds = unit.plausibleSeconds(value) else {
            return ("\(name) \(value) is no date in UNIX seconds or a finer unit", nil)
        }
        return ("\(name) \(value) is in \(unit.name)", seconds)
    }
}
