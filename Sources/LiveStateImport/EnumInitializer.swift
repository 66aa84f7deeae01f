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
        var reader = EnumInitializer.Reader(decoder: (parameter.secondName ?? parameter.firstName).text, enumName: enumName)
        for item in body.statements {
            if let result = reader.statement(item) { return result }
        }
        return .failure(.init("it assigns no self = Enum(rawValue: …) ?? .case", at: Syntax(body)))
    }

    /// Follows the statements: names bound to the single value container and to the raw value.
    private struct Reader {
        let decoder: String
        let enumName: String
        var containers: Set<String> = []
        var raws: [String: String] = [:]

        /// `nil` to go on; the result at `self = …`, or at a statement it does not follow.
        mutating func statement(_ item: CodeBlockItemSyntax) -> Result<EnumInitializer, DecodingInitializer.Unread>? {
            let unread = Result<EnumInitializer, DecodingInitializer.Unread>.failure(
                .init("it has the statement `\(DecodingInitializer.short(item))`, which the import does not follow", at: Syntax(item)))
            switch item.item {
            case .decl(let decl):
                guard let variable = decl.as(VariableDeclSyntax.self), variable.bindings.count == 1, let binding = variable.bindings.first,
                      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      let value = binding.initializer?.value.as(TryExprSyntax.self), value.questionOrExclamationMark == nil
                else { return unread }
                if isContainer(value.expression) {
                    containers.insert(name)
                } else if let type = rawRead(value.expression) {
                    raws[name] = type
                } else {
                    return unread
                }
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
                guard underTry, let type = rawRead(raw) else { return unread }
                return .success(EnumInitializer(fallbackCase: fallback, rawType: type))
            case .stmt:
                return unread
            }
        }

        /// `decoder.singleValueContainer()`.
        func isContainer(_ expression: ExprSyntax) -> Bool {
            guard let call = expression.as(FunctionCallExprSyntax.self), call.arguments.isEmpty,
                  let called = call.calledExpression.as(MemberAccessExprSyntax.self),
                  called.declName.baseName.text == "singleValueContainer",
                  called.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == decoder
            else { return false }
            return true
        }

        /// `T` of `c.decode(T.self)`, `c` a container bound before or `decoder.singleValueContainer()`.
        func rawRead(_ expression: ExprSyntax) -> String? {
            guard let call = expression.as(FunctionCallExprSyntax.self), call.arguments.count == 1,
                  let argument = call.arguments.first, argument.label == nil,
                  let called = call.calledExpression.as(MemberAccessExprSyntax.self), called.declName.baseName.text == "decode",
                  let base = called.base,
                  base.as(DeclReferenceExprSyntax.self).map({ containers.contains($0.baseName.text) }) ?? isContainer(base),
                  let type = DecodingInitializer.metatype(argument.expression)
            else { return nil }
            return type.trimmedDescription
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
