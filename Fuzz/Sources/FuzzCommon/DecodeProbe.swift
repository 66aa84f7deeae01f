import Foundation

/// A `Decodable` type that reads whatever it is given through every kind of container, and
/// writes down what it read, where (each coding path), and each error it met on the way: the
/// fuzzers hold the tape's `Decoder` to `ValueDecoder` with it, on every schema.
///
/// An object is read key by key (`allKeys`), each value as a string, an integer, a double, a
/// bool, a date and an array of strings as well as a probe; an array element by element, with
/// `decodeNil`, a nested keyed container and a read past the end; anything else as a single
/// value of each type.
struct DecodeProbe: Decodable, CustomStringConvertible {
    var description: String

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        var text = "<" + Self.path(decoder.codingPath) + ">"
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            text += "{" + Self.path(object.codingPath)
            // In name order: `JSONDecoder`'s keys (a strict version's `decode(T)`) come in no
            // set order.
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                text += " \(key.stringValue):" + Self.attempt { try object.decode(DecodeProbe.self, forKey: key).description }
                text += Self.attempt { try object.decode(String.self, forKey: key) }
                text += Self.attempt { String(try object.decode(Int.self, forKey: key)) }
                text += Self.attempt { String(try object.decode(Double.self, forKey: key)) }
                text += Self.attempt { String(try object.decode(Bool.self, forKey: key)) }
                text += Self.attempt { String(describing: try object.decodeIfPresent(Date.self, forKey: key)) }
                text += Self.attempt { String(describing: try object.decodeIfPresent([String].self, forKey: key)) }
                text += Self.attempt { String(try object.decodeNil(forKey: key)) }
            }
            text += Self.attempt { try object.decode(String.self, forKey: AnyKey(stringValue: "no such key")) }
            description = text + "}"
        } else if var array = try? decoder.unkeyedContainer() {
            text += "[\(String(describing: array.count))"
            while !array.isAtEnd {
                text += Self.attempt {
                    if try array.decodeNil() { return "nil" }
                    return try array.decode(DecodeProbe.self).description
                }
            }
            text += Self.attempt { try array.decode(String.self) }
            if var again = try? decoder.unkeyedContainer(), !again.isAtEnd {
                text += Self.attempt { Self.path(try again.nestedContainer(keyedBy: AnyKey.self).codingPath) }
                text += Self.attempt { try again.decode(String.self) }
                text += Self.attempt { String(try again.decode(Int.self)) }
                text += Self.attempt { String(try again.decode(Double.self)) }
                text += Self.attempt { String(try again.decode(Bool.self)) }
            }
            description = text + "]"
        } else {
            let single = try decoder.singleValueContainer()
            text += single.decodeNil() ? "null" : ""
            text += Self.attempt { try single.decode(String.self) }
            text += Self.attempt { String(try single.decode(Int.self)) }
            text += Self.attempt { String(try single.decode(Double.self)) }
            text += Self.attempt { String(try single.decode(Bool.self)) }
            description = text
        }
    }

    /// What `read` returned, or the error it threw, in a word.
    private static func attempt(_ read: () throws -> String) -> String {
        do {
            return " =" + (try read())
        } catch {
            return " !" + String(describing: error)
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/")
    }
}
