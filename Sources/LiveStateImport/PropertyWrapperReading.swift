import SwiftSyntax

/// How synthesized `Codable` reads a property that has a property wrapper declared in the given
/// files: `container.decode(Wrapper.self, forKey: key)`, which is the wrapper's own
/// `KeyedDecodingContainer.decode(_:forKey:)` where the files declare one (Swift picks it over
/// the generic method; one declared on `KeyedDecodingContainerProtocol` too), and the wrapper's
/// `init(from:)` for the value. Read in the shapes teams
/// and libraries write them:
///
/// ```swift
/// @propertyWrapper struct DefaultFalse: Codable, Hashable {
///     var wrappedValue: Bool
///     init(wrappedValue: Bool) { self.wrappedValue = wrappedValue }
///     init(from decoder: Decoder) throws {
///         let container = try decoder.singleValueContainer()
///         wrappedValue = (try? container.decode(Bool.self)) ?? false   // or try container.decode(Bool.self)
///     }
///     func encode(to encoder: Encoder) throws { try wrappedValue.encode(to: encoder) }
/// }
///
/// extension KeyedDecodingContainer {
///     func decode(_ type: DefaultFalse.Type, forKey key: Key) throws -> DefaultFalse {
///         try decodeIfPresent(type, forKey: key) ?? DefaultFalse(wrappedValue: false)
///     }
/// }
/// ```
///
/// The extension's body may also be `if let value = try decodeIfPresent(…) { return value }`
/// then `return Wrapper(wrappedValue: v)` (with or without `else`), `(try? decodeIfPresent(…)) ??`,
/// or `?? .init()`, whose value is the wrapper's `var wrappedValue = v`. Without such an
/// extension a missing key throws (`keyNotFound`), as for any property, and `null` reaches the
/// wrapper's `init(from:)`, whose single value container throws on it. So the property reads as
/// an `init(from:)`'s read of the key (`DecodingInitializer.Read`):
///
/// | extension | `init(from:)` reads | the key is read as |
/// |---|---|---|
/// | none | `try c.decode(T.self)` | `decode`: required |
/// | `decodeIfPresent … ?? v` | `try c.decode(T.self)` | `decodeIfPresent … ?? v` |
/// | `decodeIfPresent … ?? v` | `(try? c.decode(T.self)) ?? v` | `(try? decode) ?? v` |
/// | `(try? decodeIfPresent …) ?? v` | either, with the same `v` | `(try? decode) ?? v` |
/// | none | `(try? c.decode(T.self)) ?? v` | not stated: a missing key drops the update while any other value reads as `v` |
///
/// Anything else (another statement, two different `v`s, a wrapper without its own
/// `init(from:)`, which synthesized `Codable` reads as `{"wrappedValue": …}`) is not read:
/// `read` says why.
struct PropertyWrapperReading {
    /// How the property's key is read.
    var read: DecodingInitializer.Read

    /// Why a wrapper is not read: the end of its review.
    struct Unread: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Reads the wrapper declared as `decl` with the `KeyedDecodingContainer` extensions'
    /// members of the given files, or says why not; `resolve` gives the value a default such as
    /// `Strategy.defaultValue` stands for.
    static func read(
        _ decl: SwiftDeclarations.TypeDecl, members: [(MemberBlockItemSyntax, String)],
        keyedDecoding: [(members: [MemberBlockItemSyntax], file: String)], resolving resolve: (ExprSyntax) -> ExprSyntax = { $0 }
    ) -> Result<PropertyWrapperReading, Unread> {
        let simpleName = decl.name.split(separator: ".").last.map(String.init) ?? decl.name
        guard let initializer = members.lazy.compactMap({ member, _ in
            member.decl.as(InitializerDeclSyntax.self).flatMap { DecodingInitializer.isDecodable($0) ? $0 : nil }
        }).first else {
            return .failure(Unread("\(decl.name) has no init(from:) of its own in the given files (synthesized Codable would read it as {\"wrappedValue\": …})"))
        }
        let valueRead: ExprSyntax??
        switch Self.valueRead(initializer) {
        case .success(let fallback): valueRead = fallback.map(resolve)
        case .failure(let reason): return .failure(Unread("\(decl.name)'s init(from:) \(reason.reason)"))
        }
        let wrappedInitial = members.lazy.compactMap { member, _ -> ExprSyntax? in
            guard let variable = member.decl.as(VariableDeclSyntax.self), variable.bindings.count == 1, let binding = variable.bindings.first,
                  binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "wrappedValue" else { return nil }
            return binding.initializer?.value
        }.first
        var keyRead: KeyRead?
        for (members, _) in keyedDecoding {
            for member in members {
                guard let function = member.decl.as(FunctionDeclSyntax.self), Self.decodes(function, simpleName) else { continue }
                switch Self.keyRead(function, wrapper: simpleName, wrappedInitial: wrappedInitial) {
                case .success(.ifPresentOr(let fallback)): keyRead = .ifPresentOr(resolve(fallback))
                case .success(.tolerantIfPresentOr(let fallback)): keyRead = .tolerantIfPresentOr(resolve(fallback))
                case .failure(let reason): return .failure(Unread("its KeyedDecodingContainer.decode(_:forKey:) \(reason.reason)"))
                }
            }
        }
        let tolerant = valueRead.flatMap { $0 }
        switch (keyRead, tolerant) {
        case (nil, nil):
            return .success(PropertyWrapperReading(read: .required))
        case (nil, let fallback?):
            return .failure(Unread("\(decl.name)'s init(from:) takes \(fallback.trimmedDescription) for a value that does not decode, but no "
                            + "KeyedDecodingContainer.decode(_:forKey:) for it is in the given files, so a missing key drops the update; "
                            + "a schema cannot state that"))
        case (.ifPresentOr(let missing)?, nil):
            return .success(PropertyWrapperReading(read: .ifPresentOr(missing)))
        case (.tolerantIfPresentOr(let missing)?, nil):
            return .success(PropertyWrapperReading(read: .tolerant(missing)))
        case (.ifPresentOr(let missing)?, let fallback?), (.tolerantIfPresentOr(let missing)?, let fallback?):
            guard missing.trimmedDescription == fallback.trimmedDescription else {
                return .failure(Unread("a missing key or null reads as \(missing.trimmedDescription), but a value that does not decode "
                                + "as \(fallback.trimmedDescription); a schema states one default"))
            }
            return .success(PropertyWrapperReading(read: .tolerant(missing)))
        }
    }

    /// How the wrapper's `KeyedDecodingContainer.decode(_:forKey:)` reads the key.
    private enum KeyRead {
        /// `try decodeIfPresent(…) ?? fallback`: a missing key or `null` reads as `fallback`.
        case ifPresentOr(ExprSyntax)
        /// `(try? decodeIfPresent(…)) ?? fallback`: so does anything that throws.
        case tolerantIfPresentOr(ExprSyntax)
    }

    /// Whether `function` is `decode(_: Wrapper.Type, forKey:)` (or `Wrapper<T>.Type`).
    private static func decodes(_ function: FunctionDeclSyntax, _ wrapper: String) -> Bool {
        let parameters = Array(function.signature.parameterClause.parameters)
        guard function.name.text == "decode", parameters.count == 2, parameters[1].firstName.text == "forKey",
              let metatype = parameters[0].type.as(MetatypeTypeSyntax.self), metatype.metatypeSpecifier.text == "Type"
        else { return false }
        return TypeReader.named(metatype.baseType).base == wrapper
    }

    /// The value `init(from:)` reads: `.some(nil)` for `try c.decode(T.self)`, `.some(v)` for
    /// `(try? c.decode(T.self)) ?? v`, each assigned to `wrappedValue` (or `self.wrappedValue`),
    /// `c` the decoder's single value container, bound before or not.
    private static func valueRead(_ initializer: InitializerDeclSyntax) -> Result<ExprSyntax?, Unread> {
        guard let body = initializer.body, let parameter = initializer.signature.parameterClause.parameters.first else {
            return .failure(Unread("has no body"))
        }
        var reads = SingleValueReads(decoder: (parameter.secondName ?? parameter.firstName).text)
        for item in body.statements {
            let unread = Result<ExprSyntax?, Unread>.failure(Unread("has the statement `\(DecodingInitializer.short(item))`, which the import does not follow"))
            if reads.bindsContainer(item) { continue }
            guard case .expr(let expression) = item.item, let elements = expression.as(SequenceExprSyntax.self).map({ Array($0.elements) }),
                  elements.count >= 3, isWrappedValue(elements[0]), elements[1].is(AssignmentExprSyntax.self) else { return unread }
            if elements.count == 3, let attempt = elements[2].as(TryExprSyntax.self), attempt.questionOrExclamationMark == nil,
               reads.read(attempt.expression) != nil {
                return .success(nil)
            }
            if elements.count == 5, elements[3].as(BinaryOperatorExprSyntax.self)?.operator.text == "??",
               let attempt = elements[2].as(TupleExprSyntax.self).flatMap({ $0.elements.count == 1 ? $0.elements.first?.expression.as(TryExprSyntax.self) : nil }),
               attempt.questionOrExclamationMark?.tokenKind == .postfixQuestionMark, reads.read(attempt.expression) != nil {
                return .success(elements[4])
            }
            return unread
        }
        return .failure(Unread("assigns no wrappedValue"))
    }

    /// `wrappedValue` or `self.wrappedValue`.
    private static func isWrappedValue(_ expression: ExprSyntax) -> Bool {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text == "wrappedValue" }
        guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "wrappedValue" else { return false }
        return member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
    }

    /// How the extension's `decode(_:forKey:)` reads the key (see the type's documentation).
    private static func keyRead(_ function: FunctionDeclSyntax, wrapper: String, wrappedInitial: ExprSyntax?) -> Result<KeyRead, Unread> {
        guard let body = function.body else { return .failure(Unread("has no body")) }
        let parameters = Array(function.signature.parameterClause.parameters)
        let typeName = (parameters[0].secondName ?? parameters[0].firstName).text
        let keyName = (parameters[1].secondName ?? parameters[1].firstName).text
        let statements = Array(body.statements)
        let unread = Result<KeyRead, Unread>.failure(Unread(
            "is not `decodeIfPresent(…) ?? \(wrapper)(wrappedValue: v)` or `if let` of it: `\(DecodingInitializer.short(body.statements))`"))

        /// `decodeIfPresent(type, forKey: key)`, `self.` before it or not, its type the parameter or `Wrapper.self`.
        func isPresentRead(_ expression: ExprSyntax) -> Bool {
            guard let call = expression.as(FunctionCallExprSyntax.self), call.arguments.count == 2 else { return false }
            let called = call.calledExpression
            let name = called.as(DeclReferenceExprSyntax.self)?.baseName.text ?? called.as(MemberAccessExprSyntax.self).flatMap { member in
                member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) ? member.declName.baseName.text : nil
            }
            let arguments = Array(call.arguments)
            guard name == "decodeIfPresent", arguments[0].label == nil, arguments[1].label?.text == "forKey",
                  arguments[1].expression.as(DeclReferenceExprSyntax.self)?.baseName.text == keyName else { return false }
            let type = arguments[0].expression
            if type.as(DeclReferenceExprSyntax.self)?.baseName.text == typeName { return true }
            return DecodingInitializer.metatype(type).map { TypeReader.named($0).base == wrapper } ?? false
        }
        /// `v` of `Wrapper(wrappedValue: v)`, `.init(wrappedValue: v)`, `Wrapper<T>(…)`; the
        /// wrapper's `var wrappedValue = v` for `Wrapper()` or `.init()`.
        func made(_ expression: ExprSyntax) -> ExprSyntax? {
            guard let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil else { return nil }
            let called = call.calledExpression
            let isWrapper: Bool
            if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`) {
                isWrapper = member.base.map { base in
                    base.as(DeclReferenceExprSyntax.self)?.baseName.text == wrapper
                        || base.as(GenericSpecializationExprSyntax.self)?.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == wrapper
                } ?? true
            } else {
                isWrapper = called.as(DeclReferenceExprSyntax.self)?.baseName.text == wrapper
                    || called.as(GenericSpecializationExprSyntax.self)?.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == wrapper
            }
            guard isWrapper else { return nil }
            if call.arguments.isEmpty { return wrappedInitial }
            guard call.arguments.count == 1, call.arguments.first?.label?.text == "wrappedValue" else { return nil }
            return call.arguments.first?.expression
        }
        /// The expression a `return` or a lone expression statement gives.
        func returned(_ item: CodeBlockItemSyntax) -> ExprSyntax? {
            switch item.item {
            case .expr(let expression): expression
            case .stmt(let statement): statement.as(ReturnStmtSyntax.self)?.expression
            case .decl: nil
            }
        }
        /// `if let x = try decodeIfPresent(…) { return x }`, and its `else` block.
        func presentBranch(_ item: CodeBlockItemSyntax) -> (present: Bool, otherwise: CodeBlockSyntax?)? {
            guard let branch = returned(item)?.as(IfExprSyntax.self) ?? item.item.as(ExpressionStmtSyntax.self)?.expression.as(IfExprSyntax.self),
                  branch.conditions.count == 1, case .optionalBinding(let binding) = branch.conditions.first?.condition,
                  let bound = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                  let value = binding.initializer?.value.as(TryExprSyntax.self), value.questionOrExclamationMark == nil,
                  isPresentRead(value.expression), branch.body.statements.count == 1,
                  returned(branch.body.statements.first!)?.as(DeclReferenceExprSyntax.self)?.baseName.text == bound
            else { return nil }
            switch branch.elseBody {
            case .codeBlock(let block)?: return (true, block)
            case nil: return (true, nil)
            case .ifExpr?: return nil
            }
        }

        if statements.count == 1, let expression = returned(statements[0]), let elements = expression.as(SequenceExprSyntax.self).map({ Array($0.elements) }),
           elements.count == 3, elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "??", let fallback = made(elements[2]) {
            if let attempt = elements[0].as(TryExprSyntax.self), attempt.questionOrExclamationMark == nil, isPresentRead(attempt.expression) {
                return .success(.ifPresentOr(fallback))
            }
            if let attempt = elements[0].as(TupleExprSyntax.self).flatMap({ $0.elements.count == 1 ? $0.elements.first?.expression.as(TryExprSyntax.self) : nil }),
               attempt.questionOrExclamationMark?.tokenKind == .postfixQuestionMark, isPresentRead(attempt.expression) {
                return .success(.tolerantIfPresentOr(fallback))
            }
            return unread
        }
        // `if let … { return x } else { return Wrapper(…) }`, or the `return` after the `if`.
        guard let first = statements.first, let branch = presentBranch(first) else { return unread }
        let last: CodeBlockItemSyntax?
        if let otherwise = branch.otherwise {
            guard statements.count == 1, otherwise.statements.count == 1 else { return unread }
            last = otherwise.statements.first
        } else {
            guard statements.count == 2 else { return unread }
            last = statements.last
        }
        guard let last, let fallback = returned(last).flatMap(made) else { return unread }
        return .success(.ifPresentOr(fallback))
    }
}

/// Follows an `init(from:)` that reads its decoder's single value container: the names bound
/// to the container, and the reads `c.decode(T.self)` from it (the enum's own initializer,
/// `EnumInitializer`, and a property wrapper's, `PropertyWrapperReading`).
struct SingleValueReads {
    /// The decoder parameter's name.
    let decoder: String
    /// The names bound to `decoder.singleValueContainer()`.
    var containers: Set<String> = []

    /// Binds the name of `let c = try decoder.singleValueContainer()`; `false` for any other statement.
    mutating func bindsContainer(_ item: CodeBlockItemSyntax) -> Bool {
        guard let name = Self.binding(item), isContainer(name.value.expression) else { return false }
        containers.insert(name.name)
        return true
    }

    /// The name and value of `let x = try …` (not `try?`).
    static func binding(_ item: CodeBlockItemSyntax) -> (name: String, value: TryExprSyntax)? {
        guard case .decl(let decl) = item.item, let variable = decl.as(VariableDeclSyntax.self), variable.bindings.count == 1,
              let binding = variable.bindings.first, let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              let value = binding.initializer?.value.as(TryExprSyntax.self), value.questionOrExclamationMark == nil
        else { return nil }
        return (name, value)
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
    func read(_ expression: ExprSyntax) -> String? {
        guard let call = expression.as(FunctionCallExprSyntax.self), call.arguments.count == 1,
              let argument = call.arguments.first, argument.label == nil,
              let called = call.calledExpression.as(MemberAccessExprSyntax.self), called.declName.baseName.text == "decode",
              let base = called.base,
              base.as(DeclReferenceExprSyntax.self).map({ containers.contains($0.baseName.text) }) ?? isContainer(base),
              let type = DecodingInitializer.metatype(argument.expression)
        else { return nil }
        return type.trimmedDescription
    }
}
