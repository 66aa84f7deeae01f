import SwiftSyntax

/// Which clause of an `#if` the app's iOS build compiles: the one rule the importer applies
/// wherever it meets `#if`, around whole declarations and among a type's members.
///
/// A condition is settled only where every iOS app build answers it alike: `os(iOS)` holds and
/// any other `os` does not; `canImport` of an iOS SDK framework (`ActivityKit`, `UIKit`,
/// `SwiftUI`, …) holds and of a framework iOS lacks (`AppKit`, `Glibc`, …) does not; a shipped
/// app runs on a device, so `targetEnvironment(simulator)` and `targetEnvironment(macCatalyst)`
/// do not hold and `arch(arm64)` does; `true`, `false`, `!`, `&&`, `||` and parentheses combine
/// them (`false && x` is false and `true || x` true whatever `x` is). Anything else is
/// unsettled: a custom flag such as `DEBUG` (debug and release builds set it differently), a
/// `swift(>=…)` or `compiler(>=…)` version, `hasFeature`, a module this list does not know. The
/// importer then says which condition and what it could not place, and never picks a clause.
enum BuildConditions {
    /// What an `#if` compiles to in an iOS app build.
    enum Outcome {
        /// The clause compiled, or `nil` when no clause is.
        case active(IfConfigClauseSyntax?)
        /// The first condition that cannot be settled, met before any clause was found active.
        case unsettled(ExprSyntax)
    }

    /// The clause of `ifConfig` an iOS app build compiles, if it can be settled.
    static func outcome(of ifConfig: IfConfigDeclSyntax) -> Outcome {
        for clause in ifConfig.clauses {
            guard let condition = clause.condition else { return .active(clause) }
            switch value(of: condition) {
            case true?: return .active(clause)
            case false?: continue
            case nil: return .unsettled(condition)
            }
        }
        return .active(nil)
    }

    /// A member list as an iOS app build compiles it: each settled `#if` replaced by its active
    /// clause's members (nested ones too), and the `#if`s that cannot be settled set apart.
    static func members(_ list: MemberBlockItemListSyntax) -> (members: [MemberBlockItemSyntax], unsettled: [IfConfigDeclSyntax]) {
        var members: [MemberBlockItemSyntax] = []
        var unsettled: [IfConfigDeclSyntax] = []
        for member in list {
            guard let ifConfig = member.decl.as(IfConfigDeclSyntax.self) else {
                members.append(member)
                continue
            }
            switch outcome(of: ifConfig) {
            case .active(let clause):
                guard case .decls(let inner)? = clause?.elements else { continue }
                let nested = self.members(inner)
                members += nested.members
                unsettled += nested.unsettled
            case .unsettled:
                unsettled.append(ifConfig)
            }
        }
        return (members, unsettled)
    }

    /// A condition's value in an iOS app build, or `nil` when it is not settled.
    static func value(of condition: ExprSyntax) -> Bool? {
        if let literal = condition.as(BooleanLiteralExprSyntax.self) {
            return literal.literal.tokenKind == .keyword(.true)
        }
        if let tuple = condition.as(TupleExprSyntax.self), tuple.elements.count == 1,
           let only = tuple.elements.first, only.label == nil {
            return value(of: only.expression)
        }
        if let prefix = condition.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return value(of: prefix.expression).map { !$0 }
        }
        if let sequence = condition.as(SequenceExprSyntax.self) {
            return value(ofSequence: Array(sequence.elements))
        }
        if let call = condition.as(FunctionCallExprSyntax.self),
           let function = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
           call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil {
            return value(of: function, argument.expression.trimmedDescription)
        }
        return nil
    }

    /// `a && b || c`, as the parser leaves it unfolded: `&&` binds tighter than `||`; any other
    /// operator is not settled.
    private static func value(ofSequence elements: [ExprSyntax]) -> Bool? {
        var alternatives: [[ExprSyntax]] = [[]]
        for (index, element) in elements.enumerated() {
            guard index % 2 == 1 else {
                alternatives[alternatives.count - 1].append(element)
                continue
            }
            switch element.as(BinaryOperatorExprSyntax.self)?.operator.text {
            case "||": alternatives.append([])
            case "&&": continue
            default: return nil
            }
        }
        return anyOf(alternatives.map { terms in allOf(terms.map { value(of: $0) }) })
    }

    /// Three-valued `&&`: false if any is false, true if all are true, else unsettled.
    private static func allOf(_ values: [Bool?]) -> Bool? {
        if values.contains(false) { return false }
        return values.contains(nil) ? nil : true
    }

    /// Three-valued `||`: true if any is true, false if all are false, else unsettled.
    private static func anyOf(_ values: [Bool?]) -> Bool? {
        if values.contains(true) { return true }
        return values.contains(nil) ? nil : false
    }

    /// A platform test with one argument, `os(iOS)`, as an iOS app build on a device answers it.
    private static func value(of function: String, _ argument: String) -> Bool? {
        switch function {
        case "os": argument == "iOS"
        case "canImport": iOSModules.contains(argument) ? true : absentModules.contains(argument) ? false : nil
        case "targetEnvironment": ["simulator", "macCatalyst", "macabi"].contains(argument) ? false : nil
        case "arch": argument == "arm64"
        case "_runtime": argument == "_ObjC"
        case "_endian": argument == "little"
        case "_pointerBitWidth": argument == "_64"
        default: nil
        }
    }

    /// Modules every iOS SDK that builds a Live Activity (iOS 16.1 and later) has.
    static let iOSModules: Set<String> = [
        "ActivityKit", "UIKit", "SwiftUI", "WidgetKit", "AppIntents", "Foundation", "Combine", "CoreGraphics",
        "CoreFoundation", "CoreLocation", "MapKit", "UserNotifications", "OSLog", "os", "Darwin", "Dispatch", "ObjectiveC",
    ]

    /// Modules no iOS SDK has.
    static let absentModules: Set<String> = ["AppKit", "Cocoa", "Glibc", "Musl", "WinSDK", "Android", "FoundationNetworking"]
}
