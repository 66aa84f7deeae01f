/// The value constraints a schema field can carry, each decided and worded once.
///
/// Every reader and writer asks these: `Field.violation(of:)` (defaults, the encoder, the
/// schema validator), `ContentStateDecoder`, the accept-only tape builder and the encoder's
/// quick check (through the `allows…` forms, which never pass a value the message forms
/// refuse), and `TolerantValue`, the runtime that generated Swift calls.
enum ConstraintRule {
    // MARK: max-length (UTF-8 bytes)

    @inline(__always)
    static func allowsLength(_ bytes: Int, maxLength: Int?) -> Bool {
        guard let maxLength else { return true }
        return bytes <= maxLength
    }

    static func lengthProblem(_ bytes: Int, maxLength: Int?) -> String? {
        guard let maxLength, bytes > maxLength else { return nil }
        return "\(bytes) bytes is longer than max-length \(maxLength)"
    }

    // MARK: max-items

    @inline(__always)
    static func allowsCount(_ count: Int, maxItems: Int?) -> Bool {
        guard let maxItems else { return true }
        return count <= maxItems
    }

    static func countProblem(_ count: Int, maxItems: Int?) -> String? {
        guard let maxItems, count > maxItems else { return nil }
        return "\(count) items is more than max-items \(maxItems)"
    }

    // MARK: minimum and maximum

    @inline(__always)
    static func allowsNumber(_ number: Double, minimum: Double?, maximum: Double?) -> Bool {
        if let minimum, number < minimum { return false }
        if let maximum, number > maximum { return false }
        return true
    }

    /// - Parameter shown: The number as the input wrote it, when that is not how
    ///   `ValueText.number` writes it (an `Int` beyond 2^53).
    static func rangeProblem(_ number: Double, shown: String? = nil, minimum: Double?, maximum: Double?) -> String? {
        if let minimum, number < minimum {
            return "\(shown ?? ValueText.number(number)) is less than minimum \(ValueText.number(minimum))"
        }
        if let maximum, number > maximum {
            return "\(shown ?? ValueText.number(number)) is greater than maximum \(ValueText.number(maximum))"
        }
        return nil
    }

    // MARK: numbers and date ranges

    static func finiteProblem(_ number: Double) -> String? {
        number.isFinite ? nil : "\(number) is not a finite number"
    }

    /// A date range's bounds: finite, and the lower not after the upper.
    static func orderProblem(lower: Double, upper: Double) -> String? {
        guard lower.isFinite, upper.isFinite else { return "a date-range needs finite bounds" }
        guard lower > upper else { return nil }
        return "the date-range's lower bound \(ValueText.number(lower)) is after its upper bound \(ValueText.number(upper))"
    }
}
