import Foundation
import Hummingbird

/// The query of one request, checked against the parameters an endpoint takes.
///
/// Unknown and repeated parameters are refused (400), so a misspelt `versoin=2` is an error
/// rather than a silent default.
///
/// An endpoint takes a handful of parameters and a request names one or two, so the values
/// are a short list searched in order: no hashing, no dictionary per request. A query without
/// `%` is split here exactly as `URI.queryParameters` splits it (its values would decode to
/// themselves); any other goes through `URI.queryParameters`, which decodes the values, and
/// its names are decoded here.
struct QueryParameters {
    private var values: [(name: Substring, value: Substring)] = []

    /// Reads the query of `request`, refusing parameters outside `allowed` and repeated ones.
    init(_ request: Request, allowed: [String]) throws(APIError) {
        guard let query = request.uri.query, !query.isEmpty else { return }
        if let pairs = Self.split(query) {
            for pair in pairs { try add(pair.name, pair.value, allowed: allowed) }
        } else {
            // `queryParameters` decodes the values only: `%6Dode=full` names `mode`.
            for (key, value) in request.uri.queryParameters {
                try add(key.removingPercentEncoding.map { Substring($0) } ?? key, value, allowed: allowed)
            }
        }
    }

    private mutating func add(_ name: Substring, _ value: Substring, allowed: [String]) throws(APIError) {
        guard allowed.contains(where: { $0 == name }) else {
            let list = allowed.sorted().joined(separator: ", ")
            throw .badQuery("unknown query parameter '\(name)'; this endpoint takes \(list.isEmpty ? "none" : list)")
        }
        guard !values.contains(where: { $0.name == name }) else {
            throw .badQuery("query parameter '\(name)' is given more than once")
        }
        values.append((name, value))
    }

    /// Splits a query without `%` the way `URI.queryParameters` does: at every `&` (an empty
    /// part between two is kept, one after the last `&` is not), each part at its first `=`
    /// (no `=`: the whole part is the name and the value is empty). `nil` when the query has
    /// a `%`, whose values need decoding.
    static func split(_ query: String) -> [(name: Substring, value: Substring)]? {
        var pairs: [(name: Substring, value: Substring)] = []
        let utf8 = query.utf8
        var partStart = utf8.startIndex
        var equals: String.Index?
        var index = partStart
        while true {
            let atEnd = index == utf8.endIndex
            let byte = atEnd ? UInt8(ascii: "&") : utf8[index]
            switch byte {
            case UInt8(ascii: "%"):
                return nil
            case UInt8(ascii: "="):
                if equals == nil { equals = index }
            case UInt8(ascii: "&"):
                if !(atEnd && partStart == index) {
                    if let equals {
                        pairs.append((query[partStart..<equals], query[utf8.index(after: equals)..<index]))
                    } else {
                        pairs.append((query[partStart..<index], ""))
                    }
                }
                if atEnd { return pairs }
                partStart = utf8.index(after: index)
                equals = nil
            default:
                break
            }
            index = utf8.index(after: index)
        }
    }

    private func value(_ name: String) -> Substring? {
        for pair in values where pair.name == name { return pair.value }
        return nil
    }

    /// The raw value, if given.
    func string(_ name: String) -> String? {
        value(name).map(String.init)
    }

    /// Whether the parameter is given with exactly this value.
    func has(_ name: String, equalTo text: String) -> Bool {
        value(name).map { $0 == text } ?? false
    }

    /// A non-negative integer, if given.
    func integer(_ name: String) throws(APIError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), number >= 0 else {
            throw .badQuery("\(name) must be a non-negative integer, not '\(text)'")
        }
        return number
    }

    /// A positive integer, if given: a version number. `alternative`: the word the caller also
    /// takes in its place (`all`), named in the refusal.
    func positiveInteger(_ name: String, or alternative: String? = nil) throws(APIError) -> Int? {
        guard let text = value(name) else { return nil }
        // Digits only: `Int` also reads `+1`, which no integer in the document is written as.
        guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let number = Int(text), number > 0 else {
            throw .badQuery("\(name) must be a positive integer\(alternative.map { " or \($0)" } ?? ""), not '\(text)'")
        }
        return number
    }

    /// A finite number, if given.
    func number(_ name: String) throws(APIError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite else {
            throw .badQuery("\(name) must be a number, not '\(text)'")
        }
        return number
    }

    /// A flag: `true`, `1` or an empty value are true; `false` or `0` false; absent is `defaultValue`.
    func flag(_ name: String, default defaultValue: Bool = false) throws(APIError) -> Bool {
        guard let text = value(name) else { return defaultValue }
        switch text {
        case "", "true", "1": return true
        case "false", "0": return false
        default: throw .badQuery("\(name) must be true or false, not '\(text)'")
        }
    }

    /// One of a fixed set of words, if given.
    func choice<T: RawRepresentable<String> & CaseIterable>(_ name: String, as type: T.Type) throws(APIError) -> T? {
        guard let text = value(name) else { return nil }
        guard let value = T(rawValue: String(text)) else {
            let words = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw .badQuery("\(name) must be one of \(words), not '\(text)'")
        }
        return value
    }
}
