import Hummingbird

/// The query of one request, checked against the parameters an endpoint takes.
///
/// Unknown and repeated parameters are refused (400), so a misspelt `versoin=2` is an error
/// rather than a silent default.
struct QueryParameters {
    private var values: [String: String] = [:]

    /// Reads the query of `request`, refusing parameters outside `allowed` and repeated ones.
    init(_ request: Request, allowed: Set<String>) throws(APIError) {
        for (key, value) in request.uri.queryParameters {
            let name = String(key)
            guard allowed.contains(name) else {
                let list = allowed.sorted().joined(separator: ", ")
                throw .badQuery("unknown query parameter '\(name)'; this endpoint takes \(list.isEmpty ? "none" : list)")
            }
            guard values[name] == nil else { throw .badQuery("query parameter '\(name)' is given more than once") }
            values[name] = String(value)
        }
    }

    /// The raw value, if given.
    func string(_ name: String) -> String? {
        values[name]
    }

    /// A non-negative integer, if given.
    func integer(_ name: String) throws(APIError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let number = Int(text), number >= 0 else {
            throw .badQuery("\(name) must be a non-negative integer, not '\(text)'")
        }
        return number
    }

    /// A finite number, if given.
    func number(_ name: String) throws(APIError) -> Double? {
        guard let text = values[name] else { return nil }
        guard let number = Double(text), number.isFinite else {
            throw .badQuery("\(name) must be a number, not '\(text)'")
        }
        return number
    }

    /// A flag: `true`, `1` or an empty value are true; `false` or `0` false; absent is `defaultValue`.
    func flag(_ name: String, default defaultValue: Bool = false) throws(APIError) -> Bool {
        guard let text = values[name] else { return defaultValue }
        switch text {
        case "", "true", "1": return true
        case "false", "0": return false
        default: throw .badQuery("\(name) must be true or false, not '\(text)'")
        }
    }

    /// One of a fixed set of words, if given.
    func choice<T: RawRepresentable<String> & CaseIterable>(_ name: String, as type: T.Type) throws(APIError) -> T? {
        guard let text = values[name] else { return nil }
        guard let value = T(rawValue: text) else {
            let words = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw .badQuery("\(name) must be one of \(words), not '\(text)'")
        }
        return value
    }
}
