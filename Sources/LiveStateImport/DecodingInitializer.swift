import Foundation
import LiveState
import SwiftParser
import SwiftSyntax

/// What a hand-written `init(from:)` reads, when it reads its keys one by one from one keyed
/// container, the way teams write a tolerant `ContentState` by hand:
///
/// ```swift
/// init(from decoder: Decoder) throws {
///     let container = try decoder.container(keyedBy: CodingKeys.self)
///     stage = try container.decode(String.self, forKey: .stage)                        // required
///     minutesLeft = try container.decodeIfPresent(Int.self, forKey: .minutesLeft) ?? 0   // missing or null: 0
///     note = try container.decodeIfPresent(String.self, forKey: .note)                   // optional
///     rating = (try? container.decode(Double.self, forKey: .rating)) ?? 5                // anything invalid: 5
/// }
/// ```
///
/// Each read is what Foundation's `KeyedDecodingContainer` does with it: `decode` throws on a
/// missing key, `null` or a value of another type; `decodeIfPresent` gives `nil` for a missing
/// key or `null` and throws on another type; `try?` turns any throw into `nil`, and `?? value`
/// any `nil` into that value. So the field is required; optional, rejecting a value of another
/// type; given a default, rejecting such values or taking the default for them too.
/// (FACTS-SENDING §4.2: scan the body for `decode(_:forKey:)` and `decodeIfPresent`.)
///
/// A body that does anything else (a condition, a nested or single-value container, a call
/// that is handed the decoder, `super.init(from:)`, …) is not read: `read` says why, and the
/// type is reviewed whole.
struct DecodingInitializer {
    /// How a property is read.
    enum Read {
        /// `try c.decode(T.self, forKey: .k)`.
        case required
        /// `try c.decodeIfPresent(T.self, forKey: .k)`: `nil` for a missing key or `null`.
        case ifPresent
        /// `try c.decodeIfPresent(T.self, forKey: .k) ?? value`: `value` for a missing key or
        /// `null`; another type throws.
        case ifPresentOr(ExprSyntax)
        /// `(try? c.decode…(T.self, forKey: .k)) ?? value`, or without `?? value`: `value`
        /// (or `nil`) for anything that is not a `T`.
        case tolerant(ExprSyntax?)
        /// `try? c.decodeIfPresent(T.self, forKey: .k) ?? value`, whose `try?` covers the `??`:
        /// `value` for a missing key or `null`, `nil` for anything else that is not a `T`.
        case tolerantIfPresentOr(ExprSyntax)
    }

    /// One property read from one key.
    struct Assignment {
        /// The property's name.
        var property: String
        /// The key's case in the container's `CodingKeys`.
        var keyCase: String
        /// The type read: `T` of `T.self`.
        var type: TypeSyntax
        var read: Read
        /// The assignment, for findings.
        var node: Syntax
        /// The expression the read sits inside, when it is not the value itself
        /// (`Date(timeIntervalSince1970: try c.decode(…))`): what the app makes of the value is
        /// not known.
        var madeBy: String?
    }

    /// The container's `CodingKeys` type, as written in `keyedBy:`.
    var keys: String
    var assignments: [Assignment]

    /// Whether `initializer` is `Decodable`'s `init(from:)`: one parameter, labelled `from`, of a
    /// `Decoder` type (`Decoder`, `any Decoder`, `some Decoder`), not another `init(from model:)`.
    static func isDecodable(_ initializer: InitializerDeclSyntax) -> Bool {
        let parameters = initializer.signature.parameterClause.parameters
        guard parameters.count == 1, let parameter = parameters.first, parameter.firstName.text == "from" else { return false }
        let type = parameter.type.trimmedDescription
        return ["Decoder", "any Decoder", "some Decoder", "Swift.Decoder", "any Swift.Decoder", "some Swift.Decoder"].contains(type)
    }

    /// Reads `initializer`'s body: the reads, or why it is not read (with where).
    /// `initialValues` holds each stored property's value before the body runs (its `= value`,
    /// or `nil` for an optional `var` without one): what an `if let` without `else` leaves.
    static func read(_ initializer: InitializerDeclSyntax, initialValues: [String: ExprSyntax] = [:]) -> Result<DecodingInitializer, Unread> {
        guard let body = initializer.body else { return .failure(Unread("it has no body", at: Syntax(initializer))) }
        guard let decoder = initializer.signature.parameterClause.parameters.first.map({ ($0.secondName ?? $0.firstName).text }) else {
            return .failure(Unread("it takes no decoder", at: Syntax(initializer)))
        }
        var containers: [String: String] = [:]
        var assignments: [Assignment] = []
        var locals = Locals()
        for original in body.statements {
            // A local's value stands where the local is used (`let seconds = try c.decode(…)`,
            // then `at = Date(timeIntervalSince1970: seconds)`): read as if written inline.
            // Findings stay at the statement as written.
            let item = locals.substituted(in: original)
            func place(_ node: some SyntaxProtocol) -> Syntax { item.id == original.id ? Syntax(node) : Syntax(original) }
            // Why it is not read, said of the statement as written: a statement read with its
            // locals in place quotes code the file does not hold, so that is said too.
            func unread(_ reason: String, at node: some SyntaxProtocol) -> Result<DecodingInitializer, Unread> {
                .failure(Unread(item.id == original.id ? reason : reason + " (read with the locals it uses written in place)", at: place(node)))
            }
            switch item.item {
            case .decl(let decl):
                guard let variable = decl.as(VariableDeclSyntax.self), variable.bindings.count == 1,
                      let binding = variable.bindings.first,
                      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      let value = binding.initializer?.value
                else { return .failure(Unread("it declares `\(short(original))`, which the import does not follow", at: Syntax(original))) }
                // `let container = try decoder.container(keyedBy: CodingKeys.self)`
                if let keys = keyedContainer(value, decoder: decoder) {
                    containers[name] = keys
                    continue
                }
                // `let seconds = try c.decode(Double.self, forKey: .at)`: read where it is used.
                let parts = value.as(SequenceExprSyntax.self).map { Array($0.elements) } ?? [value]
                switch assignment(of: name, parts, containers: containers, decoder: decoder, node: Syntax(original)) {
                case .reads: locals.bind(name, to: value, at: Syntax(original), reads: true)
                case .readsNothing: locals.bind(name, to: value, at: Syntax(original), reads: false)
                case .unread(let reason): return .failure(Unread(reason, at: Syntax(original)))
                }
            case .expr(let expression):
                if let call = delegation(expression) {
                    // `self.init(stage: try c.decode(…), …)`: each argument is read as an
                    // assignment would be (the key is the read's; the label names it in findings).
                    for (index, argument) in call.arguments.enumerated() {
                        let name = argument.label.map(TypeReader.name) ?? "argument \(index + 1) of self.init"
                        let value = argument.expression.as(SequenceExprSyntax.self).map { Array($0.elements) } ?? [argument.expression]
                        switch assignment(of: name, value, containers: containers, decoder: decoder, node: place(argument)) {
                        case .reads(let read): assignments.append(read)
                        case .readsNothing: continue
                        case .unread(let reason): return unread(reason, at: argument)
                        }
                    }
                    continue
                }
                guard let sequence = expression.as(SequenceExprSyntax.self) else {
                    return unread("it does more than assign what it reads (\(short(expression)))", at: expression)
                }
                let elements = Array(sequence.elements)
                guard elements.count >= 3, elements[1].is(AssignmentExprSyntax.self), let property = propertyName(elements[0]) else {
                    return unread("it does more than assign what it reads (\(short(expression)))", at: expression)
                }
                let value = Array(elements.dropFirst(2))
                if let reads = chain(of: property, value, containers: containers, decoder: decoder, node: place(expression)) {
                    assignments += reads
                    continue
                }
                switch assignment(of: property, value, containers: containers, decoder: decoder, node: place(expression)) {
                case .reads(let read): assignments.append(read)
                case .readsNothing: continue
                case .unread(let reason): return unread(reason, at: expression)
                }
            case .stmt(let statement):
                // `if let x = try c.decodeIfPresent(…) { p = x } else { p = v }`: `p = (read) ?? v`;
                // `do { p = try c.decode(…) } catch { p = v }`: `p = (try? c.decode(…)) ?? v`.
                guard let branched = caughtAssignment(statement) ?? boundAssignment(statement, initialValues: initialValues) else {
                    return unread("it has the statement `\(short(statement))`, whose paths the import does not follow", at: statement)
                }
                let parts = [branched.read] + (branched.fallback.map { [$0] } ?? [])
                switch assignment(of: branched.property, parts, head: branched.read, fallback: branched.fallback, parenthesized: true,
                                  caught: branched.caught, containers: containers, decoder: decoder, node: place(statement)) {
                case .reads(var read):
                    read.madeBy = branched.madeBy ?? read.madeBy
                    assignments.append(read)
                case .readsNothing: continue
                case .unread(let reason): return unread(reason, at: statement)
                }
            }
        }
        if let unused = locals.unused {
            return .failure(Unread("it reads '\(unused.name)' into a local that no property is assigned from", at: unused.node))
        }
        if let twice = locals.usedTwice {
            return .failure(Unread("it uses the local '\(twice.name)' more than once", at: twice.node))
        }
        let used = Set(containers.values)
        guard used.count <= 1 else {
            return .failure(Unread("it reads from containers keyed by \(used.sorted().joined(separator: " and "))", at: Syntax(body)))
        }
        guard let keys = used.first else { return .failure(Unread("it reads no keyed container", at: Syntax(body))) }
        return .success(DecodingInitializer(keys: keys, assignments: assignments))
    }

    /// The locals a body binds to a value other than a container, each read where it is used:
    /// its value written in place of its name.
    struct Locals {
        private var values: [String: (value: ExprSyntax, node: Syntax, reads: Bool, uses: Int)] = [:]
        /// The order they were bound in, for the first one found unused or used twice.
        private var names: [String] = []

        /// Binds `name` to `value`, which `reads` a key or not (`Date()`).
        mutating func bind(_ name: String, to value: ExprSyntax, at node: Syntax, reads: Bool) {
            if values[name] == nil { names.append(name) }
            values[name] = (value, node, reads, 0)
        }

        /// `item` with the first use of each local replaced by the local's value (in
        /// parentheses where they change how it reads: `(try? c.decode(…)) ?? 5`), re-parsed and
        /// detached from any file, so that a finding about a part of it is placed at the
        /// statement; `item` as it is when it uses none. A later use in the same statement reads
        /// the same value, not the key again (`s > 1e11 ? s / 1000 : s`): it stays a name, which
        /// reads nothing. A statement that binds the name again (`if let s = …`, a closure's
        /// `{ s in … }`) is left as it is for that name.
        mutating func substituted(in item: CodeBlockItemSyntax) -> CodeBlockItemSyntax {
            guard !values.isEmpty else { return item }
            let rebound = Set(item.tokens(viewMode: .sourceAccurate).compactMap { token -> String? in
                guard case .identifier(let name) = token.tokenKind, values[name] != nil,
                      token.parent?.is(IdentifierPatternSyntax.self) == true || token.parent?.is(ClosureShorthandParameterSyntax.self) == true
                          || token.parent?.is(ClosureParameterSyntax.self) == true
                else { return nil }
                return name
            })
            var text = ""
            var replaced: Set<String> = []
            for token in item.tokens(viewMode: .sourceAccurate) {
                if case .identifier(let name) = token.tokenKind, let local = values[name], !rebound.contains(name), !replaced.contains(name),
                   let reference = token.parent?.as(DeclReferenceExprSyntax.self),
                   reference.parent?.as(MemberAccessExprSyntax.self)?.declName.id != reference.id {
                    let mark = local.value.as(TryExprSyntax.self)?.questionOrExclamationMark
                    let alone = mark == nil && !local.value.is(SequenceExprSyntax.self)
                    text += token.leadingTrivia.description + (alone ? local.value.trimmedDescription : "(\(local.value.trimmedDescription))")
                        + token.trailingTrivia.description
                    values[name]?.uses += 1
                    replaced.insert(name)
                } else {
                    text += token.description
                }
            }
            guard !replaced.isEmpty, let reparsed = Parser.parse(source: text).statements.first else { return item }
            return reparsed.detached
        }

        /// The first local that reads a key and that no statement used: the key is read, and no
        /// property shows it.
        var unused: (name: String, node: Syntax)? { first(where: { $0.reads && $0.uses == 0 }) }

        /// The first local that reads a key and is used more than once: its key would be read
        /// for each use.
        var usedTwice: (name: String, node: Syntax)? { first(where: { $0.reads && $0.uses > 1 }) }

        private func first(where test: ((value: ExprSyntax, node: Syntax, reads: Bool, uses: Int)) -> Bool) -> (name: String, node: Syntax)? {
            names.first { values[$0].map(test) == true }.flatMap { name in values[name].map { (name, $0.node) } }
        }
    }

    /// Why a body is not read, and where.
    struct Unread: Error {
        var reason: String
        var node: Syntax
        init(_ reason: String, at node: Syntax) {
            self.reason = reason
            self.node = node
        }
    }

    private enum Outcome {
        case reads(Assignment)
        /// A value that reads no key (`id = UUID()`): the property is not decoded.
        case readsNothing
        case unread(String)
    }

    /// What `property = value…` reads, `value` being the elements after `=` of an unfolded
    /// sequence: one read, alone or followed by `?? fallback`.
    private static func assignment(
        of property: String, _ value: [ExprSyntax], containers: [String: String], decoder: String, node: Syntax
    ) -> Outcome {
        var fallback: ExprSyntax?
        var shape: String?
        if value.count == 3, value[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "??" {
            fallback = value[2]
        } else if value.count != 1 {
            shape = "'\(property)' = \(value.map(\.trimmedDescription).joined(separator: " ")) is not one read"
        }
        // The read alone, or inside parentheses, with its `try`.
        let (head, parenthesized) = unparenthesized(value[0])
        return assignment(of: property, value, head: head, fallback: fallback, parenthesized: parenthesized, notOneRead: shape,
                          containers: containers, decoder: decoder, node: node)
    }

    /// What `property = head ?? fallback` reads, `parts` being every expression of the value (the
    /// reads are looked for in each); `parenthesized` when a `try?` in `head` does not cover the
    /// `??` (`(try? c.decode(…)) ?? v`, or the binding of an `if let`); `caught` when a `catch`
    /// assigns the fallback, as `try?` would; `notOneRead`, why a value with one read is still
    /// not read.
    private static func assignment(
        of property: String, _ parts: [ExprSyntax], head: ExprSyntax, fallback: ExprSyntax?, parenthesized: Bool,
        caught: Bool = false, notOneRead: String? = nil, containers: [String: String], decoder: String, node: Syntax
    ) -> Outcome {
        var calls: [DecodeCalls.Call] = []
        for part in parts {
            let found = DecodeCalls.in(part, containers: containers, decoder: decoder)
            // The decoder or a container used otherwise: a nested container, `contains`, a helper…
            guard found.strayUses == 0 else { return .unread("'\(property)' is read in a way the import does not follow (\(short(part)))") }
            calls += found.calls
        }
        guard !calls.isEmpty else { return .readsNothing }
        guard calls.count == 1, let call = calls.first else {
            return .unread("'\(property)' is made of \(calls.count) reads")
        }
        if let notOneRead { return .unread(notOneRead) }
        // `?? nil` gives what the read gives.
        let fallback = fallback?.is(NilLiteralExprSyntax.self) == true ? nil : fallback
        var read: Read
        var madeBy: String?
        func isTheRead(_ expression: ExprSyntax?) -> Bool { expression?.as(FunctionCallExprSyntax.self)?.id == call.node.id }
        let attempt = head.as(TryExprSyntax.self)
        if let attempt, isTheRead(attempt.expression), let mark = attempt.questionOrExclamationMark {
            guard mark.tokenKind == .postfixQuestionMark else {
                return .unread("'\(property)' is read with try!, which traps where the others throw")
            }
            read = .tolerant(fallback)
            if let fallback, !parenthesized {
                // `try? c.decode(…) ?? v` is `try? (c.decode(…) ?? v)`: `v` only where the read gives nil.
                read = call.ifPresent ? .tolerantIfPresentOr(fallback) : .tolerant(nil)
            }
        } else if caught {
            // Only `decode`, which gives no `nil`: a `catch` after `decodeIfPresent` would take
            // the fallback for a value of another type, and leave `nil` for a missing key.
            guard isTheRead(attempt?.expression), !call.ifPresent else {
                return .unread("'\(property)' is read in a do-catch other than do { \(property) = try c.decode(…) } catch { \(property) = v }")
            }
            read = .tolerant(fallback)
        } else if isTheRead(attempt?.expression) || isTheRead(head) {
            // `try c.decode…(…)`, or the read alone under the `try` of a `self.init(…)`.
            // `try c.decode(…) ?? x`: `decode` gives no `nil`, so `x` is never used.
            read = call.ifPresent ? (fallback.map(Read.ifPresentOr) ?? .ifPresent) : .required
        } else {
            // The read sits inside an expression (`Date(timeIntervalSince1970: try c.decode(…))`):
            // the key and its type are known, what the app makes of the value is not. Under a
            // `try?` (`Date(timeIntervalSince1970: (try? c.decode(…)) ?? 0)`), any value that
            // is not a `T` reads as nil, whatever is made of it: the key takes anything.
            switch coveringTry(of: call.node, in: parts, parenthesized: parenthesized) {
            case .postfixQuestionMark?: read = .tolerant(nil)
            case .exclamationMark?: return .unread("'\(property)' is read with try!, which traps where the others throw")
            default: read = call.ifPresent ? .ifPresent : .required
            }
            madeBy = short(parts.map(\.trimmedDescription).joined(separator: " "))
        }
        return .reads(Assignment(property: property, keyCase: call.keyCase, type: call.type, read: read, node: node, madeBy: madeBy))
    }

    /// `expression` out of the parentheses around it (`((x))` is `x`), and whether it had any.
    private static func unparenthesized(_ expression: ExprSyntax) -> (expression: ExprSyntax, parenthesized: Bool) {
        var inner = expression
        while let tuple = inner.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
            inner = only.expression
        }
        return (inner, inner.id != expression.id)
    }

    /// The reads of `property = (try? c.decode(…, forKey: .a)) ?? (try? c.decode(…, forKey: .b)) ?? v`
    /// (petl's `timestamp`, then a legacy `computedAt`): the first key whose value decodes, else
    /// the next, else `v` (or nil). Each key takes any value, or none: optional, and tolerant,
    /// each noted as made into the property. `nil` for any other value: every operand but the
    /// last a parenthesized `try?` read alone, the last one too or a value that reads nothing.
    private static func chain(
        of property: String, _ value: [ExprSyntax], containers: [String: String], decoder: String, node: Syntax
    ) -> [Assignment]? {
        guard value.count >= 3, value.count % 2 == 1,
              stride(from: 1, to: value.count, by: 2).allSatisfy({ value[$0].as(BinaryOperatorExprSyntax.self)?.operator.text == "??" })
        else { return nil }
        let operands = stride(from: 0, to: value.count, by: 2).map { value[$0] }
        let made = short(value.map(\.trimmedDescription).joined(separator: " "))
        var reads: [Assignment] = []
        for (index, operand) in operands.enumerated() {
            let found = DecodeCalls.in(operand, containers: containers, decoder: decoder)
            guard found.strayUses == 0 else { return nil }
            guard let call = found.calls.first else {
                guard index == operands.count - 1 else { return nil }
                continue
            }
            let (inner, parenthesized) = unparenthesized(operand)
            guard found.calls.count == 1, parenthesized || index == operands.count - 1,
                  let attempt = inner.as(TryExprSyntax.self), attempt.questionOrExclamationMark?.tokenKind == .postfixQuestionMark,
                  attempt.expression.as(FunctionCallExprSyntax.self)?.id == call.node.id
            else { return nil }
            reads.append(Assignment(property: property, keyCase: call.keyCase, type: call.type, read: .tolerant(nil), node: node, madeBy: made))
        }
        return reads.count >= 2 ? reads : nil
    }

    /// The mark of the innermost `try?` or `try!` that covers `read` within `parts` (a value's
    /// elements): one around the read or an expression holding it, or a `try?` heading the
    /// value, which covers the whole sequence unless it is parenthesized. `nil` when only a plain
    /// `try` (or none) covers it.
    private static func coveringTry(of read: FunctionCallExprSyntax, in parts: [ExprSyntax], parenthesized: Bool) -> TokenKind? {
        let roots = Set(parts.map(\.id))
        var node: Syntax? = Syntax(read)
        while let current = node {
            if let attempt = current.as(TryExprSyntax.self), let mark = attempt.questionOrExclamationMark { return mark.tokenKind }
            if roots.contains(current.id) { break }
            node = current.parent
        }
        if !parenthesized, parts.count > 1, let mark = parts.first?.as(TryExprSyntax.self)?.questionOrExclamationMark { return mark.tokenKind }
        return nil
    }

    /// One property assigned a read in one branch of a statement and a fallback in the other.
    private struct Branched {
        var property: String
        var read: ExprSyntax
        var fallback: ExprSyntax?
        /// Whether a `catch` assigns the fallback (as `try?` would), not an `else`.
        var caught: Bool
        /// The expression the bound value is made into (`Date(timeIntervalSince1970: seconds)`),
        /// when the branch assigns that rather than the value itself.
        var madeBy: String?
    }

    /// `if let x = read { property = x } else { property = fallback }` (or `var x`, `self.`):
    /// the property is `(read) ?? fallback`, as Foundation reads it; without `else`, the fallback
    /// is the property's initial value. A branch that makes `x` into something
    /// (`property = Date(timeIntervalSince1970: x)`) is `read.map { … } ?? fallback`: the key reads
    /// as `read` does, and what the app makes of it is noted (`madeBy`). Further conditions that
    /// read nothing (`if let title = try c.decodeIfPresent(…), !title.isEmpty`) leave the key
    /// read as the binding reads it; where they fail, the app takes the fallback, which a schema
    /// cannot state, so they are noted too. `nil` for any other statement, or an `if` with more
    /// statements or branches.
    private static func boundAssignment(_ statement: StmtSyntax, initialValues: [String: ExprSyntax]) -> Branched? {
        guard let branch = statement.as(ExpressionStmtSyntax.self)?.expression.as(IfExprSyntax.self),
              case .optionalBinding(let binding) = branch.conditions.first?.condition,
              let bound = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              let read = binding.initializer?.value,
              let (property, value) = onlyAssignment(in: branch.body), value.count == 1
        else { return nil }
        func readsNothing(_ syntax: some SyntaxProtocol) -> Bool {
            !syntax.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.try) }
        }
        let tests = branch.conditions.dropFirst().map(\.condition)
        for test in tests {
            guard case .expression(let expression) = test, readsNothing(expression) else { return nil }
        }
        var made: [String] = []
        if value[0].as(DeclReferenceExprSyntax.self)?.baseName.text != bound {
            // Made from the bound value, once, and from nothing else read.
            let uses = value[0].tokens(viewMode: .sourceAccurate).filter { $0.tokenKind == .identifier(bound) }.count
            guard uses == 1, readsNothing(value[0]) else { return nil }
            made.append(short(value[0]))
        }
        if !tests.isEmpty {
            made.append("the condition `\(short(tests.map(\.trimmedDescription).joined(separator: ", ")))` (where it fails, the else branch's value)")
        }
        let madeBy = made.isEmpty ? nil : made.joined(separator: " and ")
        switch branch.elseBody {
        case .codeBlock(let otherwise):
            guard let (other, fallback) = onlyAssignment(in: otherwise), other == property, fallback.count == 1 else { return nil }
            return Branched(property: property, read: read, fallback: fallback[0], caught: false, madeBy: madeBy)
        case nil:
            guard let initial = initialValues[property] else { return nil }
            return Branched(property: property, read: read, fallback: initial, caught: false, madeBy: madeBy)
        default:
            return nil
        }
    }

    /// `do { property = read } catch { property = fallback }`, one assignment in each, the `catch`
    /// taking every error. `nil` for any other statement.
    private static func caughtAssignment(_ statement: StmtSyntax) -> Branched? {
        guard let attempt = statement.as(DoStmtSyntax.self), attempt.throwsClause == nil,
              attempt.catchClauses.count == 1, let clause = attempt.catchClauses.first, clause.catchItems.isEmpty,
              let (property, value) = onlyAssignment(in: attempt.body), value.count == 1,
              value[0].as(TryExprSyntax.self)?.questionOrExclamationMark == nil,
              let (other, fallback) = onlyAssignment(in: clause.body), other == property, fallback.count == 1
        else { return nil }
        return Branched(property: property, read: value[0], fallback: fallback[0], caught: true, madeBy: nil)
    }

    /// The property and value (the elements after `=`) of a block that is one assignment.
    private static func onlyAssignment(in block: CodeBlockSyntax) -> (property: String, value: [ExprSyntax])? {
        guard block.statements.count == 1, case .expr(let expression) = block.statements.first?.item,
              let elements = expression.as(SequenceExprSyntax.self).map({ Array($0.elements) }),
              elements.count >= 3, elements[1].is(AssignmentExprSyntax.self), let property = propertyName(elements[0])
        else { return nil }
        return (property, Array(elements.dropFirst(2)))
    }

    /// The call of `self.init(…)` or `try self.init(…)`, delegating to another initializer.
    private static func delegation(_ expression: ExprSyntax) -> FunctionCallExprSyntax? {
        var expression = expression
        if let attempt = expression.as(TryExprSyntax.self), attempt.questionOrExclamationMark == nil { expression = attempt.expression }
        guard let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil,
              let called = call.calledExpression.as(MemberAccessExprSyntax.self), called.declName.baseName.tokenKind == .keyword(.`init`),
              called.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
        else { return nil }
        return call
    }

    /// `name` of `name` or `self.name`.
    private static func propertyName(_ expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return TypeReader.name(reference.baseName) }
        if let member = expression.as(MemberAccessExprSyntax.self), member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
            return TypeReader.name(member.declName.baseName)
        }
        return nil
    }

    /// `K` of `try decoder.container(keyedBy: K.self)`.
    private static func keyedContainer(_ value: ExprSyntax, decoder: String) -> String? {
        guard let attempt = value.as(TryExprSyntax.self), attempt.questionOrExclamationMark == nil,
              let call = attempt.expression.as(FunctionCallExprSyntax.self),
              let called = call.calledExpression.as(MemberAccessExprSyntax.self), called.declName.baseName.text == "container",
              called.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == decoder,
              call.arguments.count == 1, let argument = call.arguments.first, argument.label?.text == "keyedBy",
              let type = metatype(argument.expression)
        else { return nil }
        return type.trimmedDescription
    }

    /// `T` of `T.self`.
    static func metatype(_ expression: ExprSyntax) -> TypeSyntax? {
        guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.self),
              let base = member.base else { return nil }
        if let type = base.as(TypeExprSyntax.self) { return type.type }
        // `String.self`, `[Int].self`, `Optional<Int>.self` parse as expressions: read again as a type.
        var parser = Parser(base.trimmedDescription)
        let type = TypeSyntax.parse(from: &parser)
        return type.hasError || type.trimmedDescription != base.trimmedDescription ? nil : type
    }

    /// A piece of code on one line, for a finding (`clipped`).
    static func short(_ node: some SyntaxProtocol) -> String { short(node.trimmedDescription) }

    static func short(_ text: String) -> String {
        ValueText.clipped(text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " "))
    }
}

/// The `decode(_:forKey:)` and `decodeIfPresent(_:forKey:)` calls on known containers in an
/// expression.
private final class DecodeCalls: SyntaxVisitor {
    struct Call {
        var node: FunctionCallExprSyntax
        var ifPresent: Bool
        var type: TypeSyntax
        var keyCase: String
    }

    private let containers: [String: String]
    private let decoder: String
    private var calls: [Call] = []
    /// Uses of the decoder or a container other than the two reads (`nestedContainer`, …).
    private var strayUses = 0

    private init(containers: [String: String], decoder: String) {
        self.containers = containers
        self.decoder = decoder
        super.init(viewMode: .sourceAccurate)
    }

    static func `in`(_ expression: ExprSyntax, containers: [String: String], decoder: String) -> (calls: [Call], strayUses: Int) {
        let visitor = DecodeCalls(containers: containers, decoder: decoder)
        visitor.walk(expression)
        return (visitor.calls, visitor.strayUses)
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.baseName.text
        if name == decoder || containers[name] != nil { strayUses += 1 }
        return .visitChildren
    }

    /// `c.allKeys` and `c.contains(.k)` of a keyed container read no value and never throw:
    /// what a payload holds does not make them fail (`seen = Set(c.allKeys)` reads no key).
    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        guard let base = node.base?.as(DeclReferenceExprSyntax.self)?.baseName.text, containers[base] != nil,
              ["allKeys", "contains"].contains(node.declName.baseName.text)
        else { return .visitChildren }
        return .skipChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let called = node.calledExpression.as(MemberAccessExprSyntax.self),
              let base = called.base?.as(DeclReferenceExprSyntax.self)?.baseName.text, containers[base] != nil
        else { return .visitChildren }
        let name = called.declName.baseName.text
        let arguments = Array(node.arguments)
        guard name == "decode" || name == "decodeIfPresent", arguments.count == 2, arguments[0].label == nil,
              arguments[1].label?.text == "forKey", let type = DecodingInitializer.metatype(arguments[0].expression),
              let key = arguments[1].expression.as(MemberAccessExprSyntax.self)
        else { return .visitChildren }
        calls.append(Call(node: node, ifPresent: name == "decodeIfPresent", type: type, keyCase: TypeReader.name(key.declName.baseName)))
        // The type and the key read no further; the container is this read's.
        return .skipChildren
    }
}

extension TypeReader {
    /// The fields an `init(from:)` of `type`, in `file`, reads (`reads`), in the order it reads
    /// them: each key as its `CodingKeys` case names it, of the type it reads, required,
    /// optional or defaulted as Foundation's container reads it (see `DecodingInitializer`).
    mutating func fields(readBy reads: DecodingInitializer, in type: SwiftDeclarations.TypeDecl, file: String) -> [Field] {
        initializersRead += 1
        var keys: [String: String]?
        if reads.keys == "CodingKeys" {
            // The type's own `CodingKeys` (`codingKeys(of:)` takes no outer type's: the
            // compiler's, made in the type, come first), or else the compiler's: a case per
            // stored property, named as it is.
            keys = codingKeys(of: type)
                ?? Dictionary(reads.assignments.map { ($0.keyCase, $0.keyCase) }, uniquingKeysWith: { first, _ in first })
        } else if let name = declarations.resolveName(reads.keys, from: type.name), let decl = typeDecl(named: name, from: type.name),
                  decl.kind == .enum {
            reviewUnsettled(decl)
            keys = caseKeys(of: decl)
        }
        var fields: [Field] = []
        for assignment in reads.assignments {
            guard let key = keys?[assignment.keyCase] else {
                review("'\(assignment.property)' is read from key .\(assignment.keyCase), which is not a case of \(reads.keys) in the given files; "
                       + "it is left out of the schema", at: assignment.node, file: file)
                continue
            }
            if let expression = assignment.madeBy {
                review("'\(assignment.property)' is made from key '\(key)' by \(expression); the schema states the key as read, "
                       + assignment.type.trimmedDescription, at: assignment.node, file: file)
            }
            var field = self.field(named: key, type: assignment.type, scope: type.name, file: file, readAt: assignment.node)
            // A finding about the read's fallback is placed at it, or, where the statement was
            // read with its locals in place (a tree of its own), at the statement.
            let outerRead = readAt
            readAt = assignment.node
            apply(assignment.read, to: &field, type: assignment.type, by: "init(from:)", scope: type.name, file: file)
            readAt = outerRead
            if let index = fields.firstIndex(where: { $0.name == field.name }) {
                // One key read for two properties: the app takes a value only where both reads
                // do, so the field is what both accept.
                if let merged = Self.merged(fields[index], field) {
                    fields[index] = merged
                    review("'\(key)' is read again, for '\(assignment.property)': the field is written as what both reads accept",
                           at: assignment.node, file: file)
                } else {
                    // Of two types, the read that refuses more decides whether the app drops
                    // the update: a tolerant read gives nil where the other throws.
                    let stricter = field.isRequired && !fields[index].isRequired || field.rejectsInvalid && !fields[index].rejectsInvalid
                    if stricter { fields[index] = field }
                    review("'\(key)' is read again, for '\(assignment.property)', as another type (\(assignment.type.trimmedDescription)); "
                           + "the field is written as the read that refuses more states it", at: assignment.node, file: file)
                }
                continue
            }
            fields.append(field)
        }
        return fields
    }

    /// The field both `first` and `second` (two reads of one key) accept, or `nil` when they read
    /// different types: a key a read requires is required, a value a read refuses is refused, and
    /// a null is taken only where both take it.
    static func merged(_ first: Field, _ second: Field) -> Field? {
        guard first.type == second.type else { return nil }
        var field = first
        if first.isRequired || second.isRequired {
            field.defaultValue = nil
            field.isOptional = false
        } else if first.defaultValue != second.defaultValue {
            // Each property holds its own fallback: the key may be left out, which is what a
            // schema can say of both.
            field.defaultValue = nil
            field.isOptional = true
        }
        field.rejectsInvalid = first.rejectsInvalid || second.rejectsInvalid
        field.nullTakesDefault = first.nullTakesDefault && second.nullTakesDefault && field.defaultValue != nil
        field.documentation = [first.documentation, second.documentation].compactMap { $0 }.joined(separator: " Read again: ")
        return field
    }

    /// `field`'s rules and description as `reader` (an `init(from:)`, or a property wrapper)
    /// reads its key, `type` being what it reads.
    mutating func apply(_ read: DecodingInitializer.Read, to field: inout Field, type: TypeSyntax, by reader: String, scope: String, file: String) {
        let reads = "\(reader) reads '\(field.name)'"
        let refused = "a value that does not decode as \(type.trimmedDescription) is refused"
        // A fallback that is nil force-unwrapped (`?? UUID(uuidString: "none")!`) crashes the app
        // wherever it is taken: the key is as good as required, and every value must decode.
        let fallbackExpression: ExprSyntax? = switch read {
        case .ifPresentOr(let fallback), .tolerantIfPresentOr(let fallback): fallback
        case .tolerant(let fallback): fallback
        case .required, .ifPresent: nil
        }
        if let fallback = fallbackExpression, let crash = Self.crash(of: fallback, for: field) {
            field.rejectsInvalid = true
            review("'\(field.name)' falls back to \(DecodingInitializer.short(fallback)) in \(reader), \(crash.review) "
                   + "wherever the fallback is taken; it is written as required", at: fallback, file: file)
            field.documentation = "\(reads) with a fallback that crashes the app (\(crash.documentation)): required; \(refused)."
            return
        }
        switch read {
        case .required where field.isOptional:
            // `decode(Int?.self, forKey:)`: the key must be there, and null reads as nil. A
            // schema has no required key that takes null: written required (every other value
            // refused), so that a payload without the key is never said to apply.
            field.isOptional = false
            field.rejectsInvalid = true
            review("'\(field.name)' is read with decode(\(type.trimmedDescription).self, …) in \(reader): the key must be there, and null "
                   + "reads as nil, which a schema cannot state with a required key; it is written as required, so null is refused "
                   + "here although the app takes it", at: type, file: file)
            field.documentation = "\(reads) with decode of an optional type: required, null reading as nil (refused here); \(refused)."
        case .required:
            field.documentation = "\(reads) with decode: required."
        case .ifPresent:
            field.isOptional = true
            field.rejectsInvalid = true
            field.documentation = "\(reads) with decodeIfPresent: optional; \(refused)."
        case .ifPresentOr(let fallback):
            field.rejectsInvalid = true
            field.defaultValue = defaultValue(fallback, of: field, type: type, scope: scope, file: file, in: reader)
            // A missing key and null both read as the fallback: the default, and `on-null`.
            // A fallback a schema cannot state leaves the field optional (null as null).
            field.nullTakesDefault = field.defaultValue != nil
            field.isOptional = field.defaultValue == nil
            field.documentation = "\(reads) with decodeIfPresent ?? \(fallback.trimmedDescription): a missing key or null reads as "
                + "\(fallback.trimmedDescription)\(field.defaultValue == nil ? ", which a schema cannot state" : ""); \(refused)."
        case .tolerantIfPresentOr(let fallback):
            field.defaultValue = defaultValue(fallback, of: field, type: type, scope: scope, file: file, in: reader)
            field.nullTakesDefault = field.defaultValue != nil
            field.isOptional = field.defaultValue == nil
            field.documentation = "\(reads) with try? decodeIfPresent … ?? \(fallback.trimmedDescription), whose try? covers the ??: "
                + "a missing key or null reads as \(fallback.trimmedDescription), any other value that does not decode as "
                + "\(type.trimmedDescription) as nil."
        case .tolerant(let fallback):
            field.rejectsInvalid = false
            if let fallback {
                field.defaultValue = defaultValue(fallback, of: field, type: type, scope: scope, file: file, in: reader)
                field.isOptional = field.defaultValue == nil
                field.documentation = "\(reads) with try? … ?? \(fallback.trimmedDescription): anything else reads as \(fallback.trimmedDescription)"
                    + (field.defaultValue == nil ? ", which a schema cannot state." : ".")
            } else {
                field.isOptional = true
                field.documentation = "\(reads) with try?: anything else reads as nil."
            }
        }
    }

    /// How the fallback `?? expression` stops the app wherever it is taken, or `nil`: a `UUID`
    /// or `Data` literal that is `nil`, force-unwrapped (`formattedLiteral` reads text only from
    /// a force-unwrapped call, and `Data()` is ""), or a dictionary literal that gives a key twice
    /// ("Fatal error: Dictionary literal contains duplicate keys"; keys equal as Swift compares
    /// them, `"é"` and `"e\u{301}"` too).
    static func crash(of expression: ExprSyntax, for field: Field) -> (review: String, documentation: String)? {
        if let format = field.stringFormat, let text = formattedLiteral(expression, format), format.problem(text) != nil {
            return ("which is nil: the force unwrap crashes the app", "\(expression.trimmedDescription) is nil")
        }
        guard let key = keyGivenTwice(in: expression) else { return nil }
        return ("a dictionary literal that gives the key '\(key)' twice: Swift stops the app on it",
                "the dictionary literal gives the key '\(key)' twice")
    }

    /// The first key that a dictionary literal in `expression` gives twice, as Swift compares
    /// keys: the literal itself, or one among an array literal's elements or a dictionary
    /// literal's values, at any depth (`[["a": 1, "a": 2]]` traps as well); `nil` for none.
    static func keyGivenTwice(in expression: ExprSyntax) -> String? {
        if let array = expression.as(ArrayExprSyntax.self) {
            return array.elements.lazy.compactMap { keyGivenTwice(in: $0.expression) }.first
        }
        guard let dictionary = expression.as(DictionaryExprSyntax.self), case .elements(let elements) = dictionary.content else { return nil }
        var keys: [String] = []
        for element in elements {
            if let key = literalKey(element.key) {
                if keys.contains(key) { return key }
                keys.append(key)
            }
            if let nested = keyGivenTwice(in: element.value) { return nested }
        }
        return nil
    }

    /// A dictionary literal's key as the JSON object the app decodes has it: a string
    /// literal's value, or an integer literal's text. `keyType`, the dictionary's key type when
    /// known, takes its own kind only (`String` or `Int`), and no other type's.
    static func literalKey(_ key: ExprSyntax, keyType: String? = nil) -> String? {
        if keyType == nil || keyType == "String", let text = key.as(StringLiteralExprSyntax.self)?.representedLiteralValue {
            return text
        }
        guard keyType == nil || keyType == "Int", case .int(let int)? = integerValue(key) else { return nil }
        return String(int)
    }

    /// The text of a `UUID` or `Data` written with its literal: `UUID(uuidString: "…")!`,
    /// `Data(base64Encoded: "…")!`, and `Data()` (no bytes, `""`); `nil` for anything else.
    static func formattedLiteral(_ expression: ExprSyntax, _ format: Field.StringFormat) -> String? {
        let call = expression.as(ForceUnwrapExprSyntax.self)?.expression.as(FunctionCallExprSyntax.self)
            ?? expression.as(FunctionCallExprSyntax.self)
        guard let call, let callee = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
              callee == format.swiftName else { return nil }
        if format == .base64, call.arguments.isEmpty, expression.is(FunctionCallExprSyntax.self) { return "" }
        let label = format == .uuid ? "uuidString" : "base64Encoded"
        guard expression.is(ForceUnwrapExprSyntax.self), call.arguments.count == 1, let argument = call.arguments.first,
              argument.label?.text == label else { return nil }
        return argument.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
    }

    /// The value of `?? fallback` as the field's default: a literal, an array or dictionary of
    /// literals, or a case of a raw-value enum (`.pending`); `nil` with a review for anything
    /// else (`Date()`, a call), whose value a schema cannot state.
    private mutating func defaultValue(_ fallback: ExprSyntax, of field: Field, type: TypeSyntax, scope: String, file: String, in reader: String) -> Value? {
        let value = literal(fallback, of: field, type: type, scope: scope)
        if value == nil {
            review("'\(field.name)' defaults to \(DecodingInitializer.short(fallback)) in \(reader), which a schema cannot state; "
                   + "it is written as optional, without the default", at: fallback, file: file)
        } else if let value, let problem = field.violation(of: value) {
            // What the compiler would refuse (`?? 300` for a UInt8): never written, as it would not load.
            review("'\(field.name)' defaults to \(DecodingInitializer.short(fallback)) in \(reader), which the field does not hold "
                   + "(\(problem)); it is written as optional, without the default", at: fallback, file: file)
            return nil
        }
        return value
    }

    /// `expression` as a value of `field`, whose Swift type is `type`: a literal, `[]`, `[:]`,
    /// an array or dictionary of such values (a dictionary literal's keys string literals, or
    /// integer ones for an `Int` key), or a case of a raw-value enum; `nil` for anything else.
    private func literal(_ expression: ExprSyntax, of field: Field, type: TypeSyntax, scope: String) -> Value? {
        let type = Self.optionalWrapped(type) ?? type
        switch field.type {
        case .int:
            return Self.integerValue(expression)
        case .double:
            return Self.numberLiteral(expression).map(Value.double)
        case .string, .url:
            return expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue.map(Value.string)
                ?? field.stringFormat.flatMap { Self.formattedLiteral(expression, $0) }.map(Value.string)
        case .bool:
            return expression.as(BooleanLiteralExprSyntax.self).map { Value.bool($0.literal.tokenKind == .keyword(.true)) }
        case .array(let items):
            guard let array = expression.as(ArrayExprSyntax.self) else { return nil }
            if array.elements.isEmpty { return .array([]) }
            guard let element = Self.elementType(of: type) else { return nil }
            var values: [Value] = []
            for item in array.elements {
                guard let value = literal(item.expression, of: items, type: element, scope: scope) else { return nil }
                values.append(value)
            }
            return .array(values)
        case .map(let items):
            guard let dictionary = expression.as(DictionaryExprSyntax.self) else { return nil }
            guard case .elements(let elements) = dictionary.content else { return .object([]) }
            guard let (key, valueType) = Self.keyAndValueTypes(of: type) else { return nil }
            var members: [Value.Member] = []
            // (A key given twice traps: `crash(of:for:)` refuses such a fallback before it is read.)
            for element in elements {
                guard let name = Self.literalKey(element.key, keyType: Self.named(key).base),
                      let value = literal(element.value, of: items, type: valueType, scope: scope) else { return nil }
                members.append(Value.Member(name, value))
            }
            return .object(members)
        case .enumeration:
            guard let member = expression.as(MemberAccessExprSyntax.self), member.base == nil,
                  let name = declarations.resolveName(Self.named(type).base, from: scope) else { return nil }
            return caseValues[name]?[Self.name(member.declName.baseName)]
        case .date:
            // `Date(timeIntervalSinceReferenceDate: 0)`, `.init(timeIntervalSince1970: 0)`: the
            // date a schema states, in seconds since 2001 as the device reads them.
            guard let call = expression.as(FunctionCallExprSyntax.self), call.arguments.count == 1, let argument = call.arguments.first,
                  ["Date", "Foundation.Date", ".init", "Date.init"].contains(call.calledExpression.trimmedDescription),
                  let seconds = Self.numberLiteral(argument.expression)
            else { return nil }
            switch argument.label?.text {
            case "timeIntervalSinceReferenceDate"?: return .date(seconds)
            case "timeIntervalSince1970"?: return .date(seconds - 978_307_200)
            default: return nil
            }
        case .dateRange, .object:
            return nil
        }
    }

}
