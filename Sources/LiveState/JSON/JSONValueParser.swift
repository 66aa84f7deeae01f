import Foundation

/// Reads any JSON value into an untyped `Value`: integers that fit `Int` as `.int`, other
/// numbers as `.double`, objects with their members in input order (duplicates kept).
///
/// Recursion is bounded by the reader's nesting limit.
enum JSONValueParser {
    static func parse(_ reader: inout JSONReader) throws(JSONError) -> Value {
        switch try reader.peek() {
        case .null:
            try reader.readNull()
            return .null
        case .true, .false:
            return .bool(try reader.readBool())
        case .string:
            return .string(reader.string(try reader.readString()))
        case .number:
            let number = try reader.readNumber()
            if number.isInteger, let int = reader.integer(number) { return .int(int) }
            if number.isInteger, let uint = reader.integer(number, as: UInt64.self) { return .uint(uint) }
            return .double(reader.double(number))
        case .arrayStart:
            try reader.beginArray()
            var elements: [Value] = []
            while try reader.nextElement() {
                elements.append(try parse(&reader))
            }
            return .array(elements)
        case .objectStart:
            try reader.beginObject()
            var members: [Value.Member] = []
            while let key = try reader.nextKey() {
                members.append(.init(reader.string(key), try parse(&reader)))
            }
            return .object(members)
        }
    }
}

extension Value {
    /// Parses a whole JSON text into an untyped value.
    /// - Parameters:
    ///   - bytes: The JSON text, in an array, `Data` or any other contiguous bytes.
    ///   - options: Scanner limits.
    /// - Returns: The value.
    /// - Throws: `JSONError` for invalid JSON or a limit breach.
    public static func parse(json bytes: some ContiguousBytes, options: JSONScanOptions = .init()) throws(JSONError) -> Value {
        // `withUnsafeBytes` rethrows untyped errors: the typed one goes through a `Result`.
        try bytes.withUnsafeBytes { buffer in Result { () throws(JSONError) in try parse(json: buffer, options: options) } }.get()
    }

    /// `parse(json:options:)` of bytes already lent as a buffer.
    package static func parse(json bytes: UnsafeRawBufferPointer, options: JSONScanOptions = .init()) throws(JSONError) -> Value {
        var reader = try JSONReader(bytes: bytes, options: options)
        let value = try JSONValueParser.parse(&reader)
        try reader.finish()
        return value
    }
}
