import LiveState

/// One node of a parsed YAML document, with the position of its first character.
///
/// The reader builds these from libyaml's events. An alias becomes a copy of the node its
/// anchor names (arrays share storage, so the copy is cheap) with the alias's own position.
/// Mappings keep their pairs in document order, duplicate keys included: the schema builder
/// reports duplicates and reads the first.
struct YAMLNode: Sendable {
    /// What a node holds.
    enum Content: Sendable {
        /// A scalar's text, as written after unquoting and unescaping.
        case scalar(YAMLScalar)
        /// A sequence's elements.
        case sequence([YAMLNode])
        /// A mapping's pairs, in document order.
        case mapping([YAMLPair])
    }

    /// The node's content.
    var content: Content
    /// Where the node starts: the first character of a scalar, the `[`/`{` of a flow
    /// collection, the first `-` or key of a block collection, the `*` of an alias.
    var position: SourcePosition
    /// The node's resolved tag (`tag:yaml.org,2002:str`), when the document gives one.
    var tag: String?
    /// The number of nodes this node stands for, aliases expanded: 1 plus its children's sizes.
    var size: Int

    /// The scalar, when this node is one.
    var scalar: YAMLScalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    /// The scalar's value under the YAML 1.2 core schema, when this node is a scalar.
    var scalarValue: YAMLScalarValue? {
        guard let scalar else { return nil }
        return YAMLScalarValue(resolving: scalar, tag: tag)
    }

    /// Whether this node is nothing at all: an empty plain scalar without a tag (a key with
    /// no value, a document with no content).
    var isEmptyScalar: Bool {
        guard case .scalar(let scalar) = content else { return false }
        return scalar.text.isEmpty && scalar.isPlain && tag == nil
    }

    /// The words for a tag schema files do not take (`!custom`, `!!binary`).
    static func unsupportedTag(_ tag: String) -> String {
        let core = "tag:yaml.org,2002:"
        return "unsupported tag \(tag.hasPrefix(core) ? "!!" + tag.dropFirst(core.count) : tag); schema files use untagged YAML"
    }

    /// Whether this node, as a mapping's key, is YAML's merge key: a plain `<<`, or one tagged
    /// `!!merge`. A quoted `"<<"` is a key like any other.
    var isMergeKey: Bool {
        guard let scalar, scalar.text == "<<" else { return false }
        return tag == nil ? scalar.isPlain : tag == "tag:yaml.org,2002:merge"
    }

    /// Whether this node is a plain scalar written as a decimal integer with `_` among its digits
    /// (`1_000`): a number to YAML 1.1 and to many a reader, a string to YAML 1.2.
    var hasDigitSeparators: Bool {
        guard let scalar, scalar.isPlain, tag == nil, case .string(let text) = scalarValue, text.contains("_") else { return false }
        let unsigned = text.first == "-" || text.first == "+" ? text.utf8.dropFirst() : text.utf8[...]
        return unsigned.first.map(YAMLScalarValue.isDigit) == true && unsigned.allSatisfy { $0 == UInt8(ascii: "_") || YAMLScalarValue.isDigit($0) }
    }

    /// What a message about this node adds when `hasDigitSeparators` is true of it, or "".
    var digitSeparatorHint: String {
        hasDigitSeparators ? " (YAML 1.2 has no digit separators: write the digits alone, as in 1000)" : ""
    }

    /// How messages name this node: `the string 'abc'`, `a mapping`, `null`.
    var described: String {
        switch content {
        case .sequence: "a sequence"
        case .mapping: "a mapping"
        case .scalar(let scalar):
            switch scalarValue {
            // `1e400`, which only a `Double` past its range makes infinite: named as written.
            case .float(let double)? where double.isInfinite && !scalar.text.lowercased().hasSuffix("inf"):
                "the number \(ValueText.clipped(scalar.text)), past a Double's range"
            case let value?: value.described
            case nil: "a scalar"
            }
        }
    }

    /// The position of the node a JSON Pointer into this document names.
    ///
    /// A mapping member resolves to its value when that is a scalar and to its key otherwise,
    /// so a message about `max-length: abc` points at `abc` and one about a field points at
    /// the field's name.
    /// When the document lacks the node (a member an object default takes from its field),
    /// the deepest node on the way to it stands in.
    /// - Parameter pointer: A JSON Pointer such as `/versions/0/content-state/eta/default`.
    /// - Returns: The position, or `nil` when the pointer is not a JSON Pointer.
    func position(at pointer: String) -> SourcePosition? {
        guard let tokens = JSONPointer.tokens(of: pointer) else { return nil }
        var node = self
        var found = position
        for token in tokens {
            switch node.content {
            case .mapping(let pairs):
                guard let pair = pairs.first(where: { $0.key.scalar?.text == token }) else { return found }
                found = pair.value.scalar != nil ? pair.value.position : pair.key.position
                node = pair.value
            case .sequence(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return found }
                found = elements[index].position
                node = elements[index]
            case .scalar:
                return found
            }
        }
        return found
    }
}

/// One key-value pair of a mapping.
struct YAMLPair: Sendable {
    /// The key node.
    var key: YAMLNode
    /// The value node.
    var value: YAMLNode
}

/// A scalar's text and whether it was written plain (unquoted, not a block scalar).
struct YAMLScalar: Sendable, Hashable {
    /// The scalar's text after unquoting and unescaping.
    var text: String
    /// Whether the scalar was plain: only plain scalars resolve to null, booleans and numbers.
    var isPlain: Bool
}

/// A scalar's value under the YAML 1.2 core schema.
enum YAMLScalarValue: Sendable, Hashable {
    /// `null`, `Null`, `NULL`, `~` or nothing at all.
    case null
    /// `true`/`false` in lower, title or upper case.
    case bool(Bool)
    /// A decimal, `0o` octal or `0x` hexadecimal integer that fits `Int`.
    case int(Int)
    /// A floating-point number, `.inf` and `.nan` included.
    case float(Double)
    /// An integer too large for `Int`, kept as written.
    case largeInteger(String)
    /// Anything else, and every quoted or block scalar.
    case string(String)

    /// A `largeInteger`'s text as a `UInt64`, when it is one: decimal, `0o` octal or `0x`
    /// hexadecimal, as `resolveInteger` reads it (`0xFFFFFFFFFFFFFFFF` is `UInt64.max`).
    static func unsignedValue(ofLargeInteger text: String) -> UInt64? {
        if text.hasPrefix("0o") { return UInt64(text.dropFirst(2), radix: 8) }
        if text.hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) }
        return UInt64(text.hasPrefix("+") ? String(text.dropFirst()) : text)
    }

    /// A `largeInteger`'s value as a `Double`, rounded, whatever its base.
    static func doubleValue(ofLargeInteger text: String) -> Double {
        if let unsigned = unsignedValue(ofLargeInteger: text) { return Double(unsigned) }
        let radix: Double = text.hasPrefix("0o") ? 8 : text.hasPrefix("0x") ? 16 : 10
        guard radix != 10 else { return Double(text) ?? .infinity }
        return text.utf8.dropFirst(2).reduce(0) { $0 * radix + Double(JSONByte.hexValue($1) ?? 0) }
    }

    static let stringTag = "tag:yaml.org,2002:str"
    static let coreScalarTags: Set<String> = [
        stringTag, "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
        "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null",
    ]

    /// Resolves a scalar: quoted, block and `!!str` scalars are strings; plain ones (and those
    /// tagged `!!int`, `!!float`, `!!bool`, `!!null`) follow the core schema's patterns.
    /// - Parameters:
    ///   - scalar: The scalar.
    ///   - tag: Its tag, if any.
    init(resolving scalar: YAMLScalar, tag: String?) {
        if let tag {
            if tag == "!" || tag == Self.stringTag || !Self.coreScalarTags.contains(tag) {
                self = .string(scalar.text)
                return
            }
        } else if !scalar.isPlain {
            self = .string(scalar.text)
            return
        }
        let value = Self.resolvePlain(scalar.text)
        // `!!float 1` is the number 1.0, which an `int` field refuses, not the integer 1.
        switch (tag, value) {
        case ("tag:yaml.org,2002:float", .int(let int)): self = .float(Double(int))
        case ("tag:yaml.org,2002:float", .largeInteger(let text)): self = .float(Self.doubleValue(ofLargeInteger: text))
        default: self = value
        }
    }

    /// How messages name the value: `the string 'abc'`, `the integer 3`, `null`.
    var described: String {
        switch self {
        case .null: "null"
        case .bool(let bool): "the boolean \(bool)"
        case .int(let int): "the integer \(int)"
        case .float(let double) where double.isNaN: "the number .nan"
        case .float(let double) where double.isInfinite: "the number \(double < 0 ? "-" : "").inf"
        case .float(let double): "the number \(double)"
        case .largeInteger(let text): "the integer \(text)"
        case .string(let text): "the string '\(ValueText.clipped(text))'"
        }
    }

    private static func resolvePlain(_ text: String) -> YAMLScalarValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .float(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .float(-.infinity)
        case ".nan", ".NaN", ".NAN": return .float(.nan)
        default: break
        }
        let bytes = Array(text.utf8)
        if let integer = resolveInteger(bytes, text: text) { return integer }
        if isFloat(bytes), let double = Double(text) { return .float(double) }
        return .string(text)
    }

    private static func resolveInteger(_ bytes: [UInt8], text: String) -> YAMLScalarValue? {
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0") {
            let digits = String(decoding: bytes[2...], as: UTF8.self)
            if bytes[1] == UInt8(ascii: "o"), bytes[2...].allSatisfy({ $0 >= 0x30 && $0 <= 0x37 }) {
                return Int(digits, radix: 8).map(YAMLScalarValue.int) ?? .largeInteger(text)
            }
            if bytes[1] == UInt8(ascii: "x"), bytes[2...].allSatisfy(JSONByte.isHexDigit) {
                return Int(digits, radix: 16).map(YAMLScalarValue.int) ?? .largeInteger(text)
            }
        }
        var digits = bytes[...]
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.allSatisfy(isDigit) else { return nil }
        return Int(text).map(YAMLScalarValue.int) ?? .largeInteger(text)
    }

    /// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
    private static func isFloat(_ bytes: [UInt8]) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        let whole = digits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fraction = digits()
            if whole == 0, fraction == 0 { return false }
        } else if whole == 0 {
            return false
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            if digits() == 0 { return false }
        }
        return index == bytes.count
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
