import SwiftSyntax

/// What a raw-value enum's own `init(from:)` does, when it is the way teams make an enum take
/// values a later server sends:
///
/// ```swift
/// init(from decoder: Decoder) throws {
///     let raw = try decoder.singleValueContainer().decode(String.self)
///     self = Status(rawValue: raw) ?? .unknown
/// }
/// ```
///
/// (or in one line, `self = try Self(rawValue: decoder.singleValueContainer().decode(String.self))
/// ?? .unknown`, the container bound to a name first, `.init(rawValue:)`). Foundation's single
/// value container throws on a value of another type and on `null`; any other raw value is the
/// `??` case: the schema's `fallback`, with `on-invalid: reject`. A body that does anything else
/// (`try?`, a `switch`, `lowercased()`, another type read) is not read: `read` says why.
struct EnumInitializer {
    /// The case's name after `??`.
    var fallbackCase: String
    /// The type the body reads: `T` of `decode(T.self)`.
    var rawType: String

    /// Reads `initializer`'s body, or says why not.
    static func read(_ initializer: InitializerDeclSyntax, enumName: String) -> Result<EnumInitializer, DecodingInitializer.Unread> {
        guard let body = initializer.body, let parameter = initializer.signature.parameterClause.parameters.first else {
            return .failure(.init("it has no body", at: Syntax(initializer)))
        }
        var reader = EnumInitializer.Reader(reads: SingleValueReads(decoder: (parameter.secondName ?? parameter.firstName).text), enumName: enumName)
        for item in body.statements {
            if let result = reader.statement(item) { return result }
        }
        return .failure(.init("it assigns no self = Enum(rawValue: …) ?? .case", at: Syntax(body)))
    }

    /// Follows the statements: names bound to the single value container and to the raw value.
    private struct Reader {
        var reads: SingleValueReads
        let enumName: String
        var raws: [String: String] = [:]

        /// `nil` to go on; the result at `self = …`, or at a statement it does not follow.
        mutating func statement(_ item: CodeBlockItemSyntax) -> Result<EnumInitializer, DecodingInitializer.Unread>? {
            let unread = Result<EnumInitializer, DecodingInitializer.Unread>.failure(
                .init("it has the statement `\(DecodingInitializer.short(item))`, which the import does not follow", at: Syntax(item)))
            switch item.item {
            case .decl:
                if reads.bindsContainer(item) { return nil }
                guard let (name, value) = SingleValueReads.binding(item), let type = reads.read(value.expression) else { return unread }
                raws[name] = type
                return nil
            case .expr(let expression):
                guard let elements = expression.as(SequenceExprSyntax.self).map({ Array($0.elements) }),
                      elements.count == 5, elements[0].as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self),
                      elements[1].is(AssignmentExprSyntax.self),
                      elements[3].as(BinaryOperatorExprSyntax.self)?.operator.text == "??",
                      let fallback = caseName(elements[4])
                else { return unread }
                // `try` may stand before the whole `Enum(rawValue: …) ?? .case`, or inside it.
                var made = elements[2]
                var underTry = false
                if let attempt = made.as(TryExprSyntax.self) {
                    guard attempt.questionOrExclamationMark == nil else { return unread }
                    made = attempt.expression
                    underTry = true
                }
                guard let call = made.as(FunctionCallExprSyntax.self), isThisEnum(call.calledExpression),
                      call.arguments.count == 1, let argument = call.arguments.first, argument.label?.text == "rawValue"
                else { return unread }
                var raw = argument.expression
                if let attempt = raw.as(TryExprSyntax.self) {
                    guard attempt.questionOrExclamationMark == nil else { return unread }
                    raw = attempt.expression
                    underTry = true
                }
                if let name = raw.as(DeclReferenceExprSyntax.self)?.baseName.text, let type = raws[name] {
                    return .success(EnumInitializer(fallbackCase: fallback, rawType: type))
                }
                guard underTry, let type = reads.read(raw) else { return unread }
                return .success(EnumInitializer(fallbackCase: fallback, rawType: type))
            case .stmt:
                return unread
            }
        }

        /// `Enum`, `Self`, `Enum.init` or `.init`.
        func isThisEnum(_ expression: ExprSyntax) -> Bool {
            var expression = expression
            if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`) {
                guard let base = member.base else { return true }
                expression = base
            }
            guard let reference = expression.as(DeclReferenceExprSyntax.self) else { return false }
            return reference.baseName.tokenKind == .keyword(.Self) || reference.baseName.text == enumName
        }

        /// `c` of `.c`, `Self.c` or `Enum.c`.
        func caseName(_ expression: ExprSyntax) -> String? {
            guard let member = expression.as(MemberAccessExprSyntax.self) else { return nil }
            if let base = member.base {
                guard let reference = base.as(DeclReferenceExprSyntax.self),
                      reference.baseName.tokenKind == .keyword(.Self) || reference.baseName.text == enumName else { return nil }
            }
            return TypeReader.name(member.declName.baseName)
        }
    }
}
