import Foundation

/// The time as a sender and the sidecar read it: the wall clock for what APNs and the device
/// compare with their own (a provider token's `iat`, a push's `timestamp`, a `retryAfter` to
/// show), and a clock that never steps for how long something has lasted (a token's age, a hold
/// after `TooManyRequests`, a pause in minting, the push history's windows: 5 s between updates,
/// 10 minutes between starts, the 8 hours an entry is kept).
///
/// Measured on the wall clock, an age moved with every step of it: a step back of an hour (a
/// virtual machine's clock set right after a resume) kept using a token APNs had expired and
/// reported `clock-behind`; a step forward re-minted at once and cut holds short.
package struct PushClock: Sendable {
    /// The wall clock.
    package let now: @Sendable () -> Date
    /// Seconds since a fixed start, on a clock that does not step.
    package let elapsed: @Sendable () -> TimeInterval

    package init(now: @escaping @Sendable () -> Date, elapsed: @escaping @Sendable () -> TimeInterval) {
        self.now = now
        self.elapsed = elapsed
    }

    /// The given wall clock for both (tests move it), or the system's clocks when `nil`.
    package init(_ now: (@Sendable () -> Date)?) {
        if let now {
            self.init(now: now, elapsed: { now().timeIntervalSinceReferenceDate })
        } else {
            self = .system
        }
    }

    /// `Date()`, and `ContinuousClock`, which counts time asleep as APNs's expiry does.
    package static let system: PushClock = {
        let clock = ContinuousClock()
        let start = clock.now
        return PushClock(now: Date.init, elapsed: { (clock.now - start).seconds })
    }()
}

extension Duration {
    /// The duration in seconds.
    package var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
