import Foundation

/// A key that occurs more than once in one object.
///
/// Foundation keeps one of the values, so the app still decodes, but which one is not
/// specified; the payload should not rely on it.
@_spi(Scanner) public struct JSONDuplicateKey: Sendable, Hashable {
    /// The key, unescaped.
    public var key: String
    /// The JSON Pointer (RFC 6901) of the duplicated member: the object's pointer + `/` + key.
    public var pointer: String
    /// The position of the second occurrence's opening quote.
    public var position: SourcePosition

    /// Creates a duplicate-key finding.
    /// - Parameters:
    ///   - key: The key, unescaped.
    ///   - pointer: The JSON Pointer of the duplicated member.
    ///   - position: The position of the second occurrence.
    public init(key: String, pointer: String, position: SourcePosition) {
        self.key = key
        self.pointer = pointer
        self.position = position
    }
}

/// Checks a whole JSON document strictly, without building it.
@_spi(Scanner) public enum JSONValidator {
    /// Checks a whole document strictly and looks for duplicate keys.
    ///
    /// Keys are compared after unescaping, as Swift strings (so `"\u0061"` and `"a"` are the
    /// same key, as they are to `JSONDecoder`). Iterative: deep documents cannot overflow the
    /// stack, and `options.maxDepth` bounds the memory used.
    /// - Parameters:
    ///   - bytes: The whole document, UTF-8.
    ///   - options: Limits, and what to do with duplicate keys: `.report` returns them,
    ///     `.reject` throws at the first, `.ignore` does not look.
    /// - Returns: The duplicate keys in document order (always empty unless `.report`).
    /// - Throws: `JSONError` at the first syntax error or exceeded limit, or at the first
    ///   duplicate key under `.reject`.
    public static func validate(
        _ bytes: UnsafeRawBufferPointer, options: JSONScanOptions = .init()
    ) throws(JSONError) -> [JSONDuplicateKey] {
        var reader = try JSONReader(bytes: bytes, options: options)
        var walk = Walk(duplicateKeys: options.duplicateKeys)
        try walk.run(&reader)
        return walk.duplicates
    }

    /// `validate(_:options:)` of bytes in an array, `Data` or any other contiguous bytes.
    public static func validate(_ bytes: some ContiguousBytes, options: JSONScanOptions = .init()) throws(JSONError) -> [JSONDuplicateKey] {
        try bytes.withUnsafeBytes { buffer in Result { () throws(JSONError) in try validate(buffer, options: options) } }.get()
    }

    /// The first syntax error or exceeded limit in a whole document, and where it is: the JSON
    /// Pointer of the innermost member or element being read when it was found (`""` for the
    /// top-level value itself, as when a key or a comma is wrong in the top-level object).
    /// Duplicate keys are not looked for. `nil` for strict JSON.
    ///
    /// Where the bytes are wrong does not depend on any schema: every reader of a document
    /// words its syntax error with this.
    /// - Parameters:
    ///   - bytes: The whole document, UTF-8.
    ///   - options: Limits (`duplicateKeys` is ignored).
    static func firstError(in bytes: UnsafeRawBufferPointer, options: JSONScanOptions) -> (error: JSONError, pointer: String)? {
        var reader: JSONReader
        do {
            reader = try JSONReader(bytes: bytes, options: options)
        } catch {
            return (error, "")
        }
        var walk = Walk(duplicateKeys: .ignore)
        do {
            try walk.run(&reader)
            return nil
        } catch {
            return (error, pointer(walk.frames, reader))
        }
    }

    /// One strict read of a document: the open containers, and the duplicate keys found.
    private struct Walk {
        let duplicateKeys: JSONScanOptions.DuplicateKeyPolicy
        var frames: [Frame] = []
        var duplicates: [JSONDuplicateKey] = []

        init(duplicateKeys: JSONScanOptions.DuplicateKeyPolicy) {
            self.duplicateKeys = duplicateKeys
        }

        mutating func run(_ reader: inout JSONReader) throws(JSONError) {
            let checksKeys = duplicateKeys != .ignore
            var needValue = true
            while true {
                if needValue {
                    switch try reader.peek() {
                    case .objectStart:
                        try reader.beginObject()
                        frames.append(Frame(isObject: true))
                    case .arrayStart:
                        try reader.beginArray()
                        frames.append(Frame(isObject: false))
                    case .string:
                        _ = try reader.readString()
                    case .number:
                        _ = try reader.readNumber()
                    case .true, .false:
                        _ = try reader.readBool()
                    case .null:
                        try reader.readNull()
                    }
                }
                guard let last = frames.indices.last else { break }
                // Between members: an error now is the container's, not its last member's.
                frames[last].isInMember = false
                if frames[last].isObject {
                    guard let key = try reader.nextKey() else {
                        frames.removeLast()
                        needValue = false
                        continue
                    }
                    frames[last].key = key
                    frames[last].isInMember = true
                    if checksKeys {
                        let name = reader.string(key)
                        if !frames[last].keys.insert(name).inserted {
                            let quote = key.start - 1
                            if duplicateKeys == .reject {
                                throw reader.error(
                                    .jsonSyntax, "duplicate key '\(name)' at \(JSONValidator.pointer(frames, reader))", at: quote)
                            }
                            duplicates.append(JSONDuplicateKey(
                                key: name, pointer: JSONValidator.pointer(frames, reader), position: reader.position(of: quote)))
                        }
                    }
                } else {
                    guard try reader.nextElement() else {
                        frames.removeLast()
                        needValue = false
                        continue
                    }
                    frames[last].index += 1
                    frames[last].isInMember = true
                }
                needValue = true
            }
            try reader.finish()
        }
    }

    /// One open container: its kind, the member being read, and the keys seen so far.
    private struct Frame {
        var isObject: Bool
        var key = JSONString(start: 0, end: 0, hasEscapes: false)
        var index = -1
        /// Whether a member (or element) is being read, rather than the container's own syntax.
        var isInMember = false
        var keys: Set<String> = []

        init(isObject: Bool) {
            self.isObject = isObject
        }
    }

    /// The JSON Pointer of the member currently read in the innermost frame.
    private static func pointer(_ frames: [Frame], _ reader: JSONReader) -> String {
        var pointer = ""
        for frame in frames where frame.isInMember {
            pointer = frame.isObject
                ? JSONPointer.appending(reader.string(frame.key), to: pointer)
                : JSONPointer.appending(frame.index, to: pointer)
        }
        return pointer
    }
}
