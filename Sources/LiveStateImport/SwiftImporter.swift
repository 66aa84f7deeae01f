import Foundation
import LiveState
import LiveStateTooling
import LiveStateYAML
import SwiftParser
import SwiftSyntax

/// Reads the Swift source an app shipped with and states, as a schema version, exactly what
/// that binary's synthesized `Codable` accepts: the on-ramp for an app already in the field.
///
/// It follows the compiler's rules for synthesized `Decodable` (FACTS-SENDING §4): `CodingKeys`
/// decide the keys and leave out what they omit; `let` with an initial value is not decoded;
/// `var x = 4` is still required; optionality is semantic (`T?`, `Optional<T>`, `T!`, an alias
/// to an optional); computed, `static` and `lazy` properties are not stored keys; raw-value
/// enums list their raw values, implicit ones included; `#if` is read as an iOS app build
/// compiles it (`BuildConditions`). What a parse cannot see (a custom `init(from:)`, property
/// wrappers, associated values, types not in the files, an `#if` builds differ on) is never
/// guessed: the field is kept as best it can be and marked for review, with the reason and the
/// position.
///
/// ```swift
/// let result = SwiftImporter.importActivities([("Attributes.swift", source)])
/// for activity in result.activities { print(activity.attributesType) }
/// ```
public enum SwiftImporter {
    /// One `ActivityAttributes` type and what its app decodes.
    public struct Activity: Sendable {
        /// The Swift type name: the schema's `attributes-type`.
        public var attributesType: String
        /// The `ContentState`'s fields, as synthesized `Codable` reads them.
        public var contentState: [Field]
        /// The static attributes' fields.
        public var attributes: [Field]
        /// What the parse could not settle, each with where it is.
        public var reviews: [Diagnostic]
        /// Whether the app decodes the content state with synthesized `Codable` throughout: no
        /// type in it has an `init(from:)` of its own, read or not. Such a version is
        /// a strict client (`clients.strict`); one read from its own `init(from:)` states that
        /// initializer's defaults and is not.
        public var isSynthesized: Bool
        /// Whether a type in it has an `init(from:)` of its own that the import could not read
        /// (reviewed): its fields are written from the declaration, as synthesized `Codable`
        /// would read them, required where it would require them; the version is not a strict
        /// client, since the app does not decode with synthesized `Codable`.
        public var hasUnreadInitializer: Bool
        /// The least iOS a device that runs the activity has: the highest `@available(iOS …)` on
        /// the attributes type or its `ContentState`, when it is above 16.1 (the first iOS with
        /// Live Activities); `nil` otherwise. `url` verdicts follow it (`min-ios`).
        public var minIOS: IOSVersion?
    }

    /// What an import found.
    public struct Result: Sendable {
        /// Every `ActivityAttributes` type found.
        public var activities: [Activity]
        /// Syntax errors and files that could not be used (errors), and what needs review
        /// (warnings, also in each activity's `reviews`).
        public var diagnostics: [Diagnostic]
    }

    /// The code of a finding that needs a person to look at the Swift (warning).
    public static let needsReview: DiagnosticCode = "needs-review"
    /// The code of a syntax error in a Swift file (error).
    public static let swiftSyntax: DiagnosticCode = "swift-syntax"
    /// The code of an import that found no `ActivityAttributes` type (error).
    public static let noActivity: DiagnosticCode = "no-activity-attributes"
    /// The code of a `ContentState` a schema cannot state at all, an enum (error): a version
    /// with no fields would accept every payload the app refuses, so none is written.
    public static let unstatableContentState: DiagnosticCode = "unstatable-content-state"

    /// The deepest nesting of `[` a file may have. swift-syntax 603's lookahead for a type
    /// (`canParseInlineArrayTypeBody`) takes time exponential in unclosed `[` levels: 20 take
    /// half a second, 24 eight, 28 more than a minute (found by FuzzSwiftImport).
    public static let maxBracketDepth = 12

    /// The deepest nesting of generic arguments (`A<A<Int>>`) a file may have. This, the run of
    /// `?` and the nesting of `#if` below are limited because each level is a frame of the Swift
    /// parser's recursion (and for `?`, of the import's own), so deeper ones overflow the
    /// stack: 1,000 generic levels, 600 `?` and 3,000 `#if` crashed the import.
    public static let maxGenericDepth = 64
    /// The longest run of `?` and `!` a file may have, and of `try`, `await` and `unsafe`
    /// (see `maxGenericDepth`).
    public static let maxOptionalRun = 64
    /// The deepest nesting of `#if` a file may have (see `maxGenericDepth`).
    public static let maxIfConfigDepth = 256
    /// The deepest nesting of string interpolations (`"\("\(…)")"`) a file may have: the
    /// parser's time grows faster than the square of it (12,000 levels took 34 seconds).
    public static let maxInterpolationDepth = 64

    /// The deepest syntax tree a file may have. Every walk of the tree (its text, its
    /// positions, the import's own reading) recurses once per level, and a chain 20,000 long
    /// (`A.A.…`, `a[0][0]…`, `f()()…`) made the walks overflow the stack. A real file nests a
    /// few dozen levels; each `.member` or call of a chain is one or two.
    public static let maxTreeDepth = 1_000

    /// The first node, depth first, that lies deeper than `limit` levels in `tree`, walked with
    /// a stack of its own rather than by recursion.
    static func nodeDeeperThan(_ limit: Int, in tree: SourceFileSyntax) -> Syntax? {
        var pending: [(node: Syntax, depth: Int)] = [(Syntax(tree), 1)]
        while let (node, depth) = pending.popLast() {
            if depth > limit { return node }
            for child in node.children(viewMode: .sourceAccurate).reversed() {
                pending.append((child, depth + 1))
            }
        }
        return nil
    }

    /// Where the file first nests deeper than the parser reads safely, outside comments and
    /// string literals, and what nests there; `nil` when nothing does. `[` counts as it nests
    /// (`maxBracketDepth`); `<` after a name, in one line or statement, as generic arguments
    /// (`maxGenericDepth`); a run of `?` and `!` (`maxOptionalRun`); `#if` up to its `#endif`
    /// (`maxIfConfigDepth`); a run of `try`, `await` and `unsafe` (`maxOptionalRun`); `->` in
    /// one line or statement (`maxGenericDepth`); string interpolations
    /// (`maxInterpolationDepth`). Chains that only deepen the tree are `maxTreeDepth`'s.
    static func tooDeepNesting(in source: String) -> (position: SourcePosition, reason: String)? {
        let bytes = Array(source.utf8)
        var brackets = 0, generics = 0, arrows = 0, run = 0, ifConfigs = 0, effects = 0
        var index = 0
        // The last byte before `index` that is not a space or a tab: `A <A <Int>>` nests too.
        var previous: UInt8 = 0
        func next(is byte: UInt8) -> Bool { index + 1 < bytes.count && bytes[index + 1] == byte }
        // For each interpolation (`"\(…)"`) the scan is in, innermost last: the `(` open in it.
        var interpolations: [Int] = []
        /// Moves `index` through a string literal's text to its closing quote (or the end of
        /// the line), or to the `(` of an interpolation, which it enters; `nil` unless the
        /// interpolations nest too deep.
        func scanString() -> (position: SourcePosition, reason: String)? {
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\n") {
                if bytes[index] == UInt8(ascii: "\\"), next(is: UInt8(ascii: "(")) {
                    index += 1
                    interpolations.append(0)
                    if interpolations.count > maxInterpolationDepth {
                        return (position(of: index - 1, in: bytes), "string interpolations nest deeper than \(maxInterpolationDepth) here")
                    }
                    return nil
                }
                index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            return nil
        }
        func starts(with word: String) -> Bool {
            guard bytes[index...].starts(with: word.utf8) else { return false }
            let end = index + word.utf8.count
            return end == bytes.count || !isNameByte(bytes[end])
        }
        func isNameByte(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) || byte >= 0x80
        }
        while index < bytes.count {
            let byte = bytes[index]
            defer {
                // The last byte looked at (a `/*` never closed moves `index` past the end).
                let last = min(index, bytes.count) - 1
                if last >= 0, bytes[last] != UInt8(ascii: " "), bytes[last] != UInt8(ascii: "\t") { previous = bytes[last] }
            }
            if isNameByte(byte), index == 0 || !isNameByte(bytes[index - 1]) {
                if starts(with: "try") || starts(with: "await") || starts(with: "unsafe") {
                    effects += 1
                    if effects > maxOptionalRun {
                        return (position(of: index, in: bytes), "more than \(maxOptionalRun) 'try', 'await' or 'unsafe' follow one another here")
                    }
                } else {
                    effects = 0
                }
            }
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "!") {
                run += 1
                if run > maxOptionalRun {
                    return (position(of: index, in: bytes), "more than \(maxOptionalRun) '?' or '!' follow one another here")
                }
            } else {
                run = 0
            }
            switch byte {
            case UInt8(ascii: "/") where next(is: UInt8(ascii: "/")):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            case UInt8(ascii: "/") where next(is: UInt8(ascii: "*")):
                index += 2
                while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && next(is: UInt8(ascii: "/"))) { index += 1 }
                index += 2
                continue
            case UInt8(ascii: "\""):
                index += 1
                if let deep = scanString() { return deep }
                if index < bytes.count, bytes[index] == UInt8(ascii: "\n") { continue }
            case UInt8(ascii: "(") where !interpolations.isEmpty:
                interpolations[interpolations.count - 1] += 1
            case UInt8(ascii: ")") where !interpolations.isEmpty:
                if interpolations[interpolations.count - 1] > 0 {
                    interpolations[interpolations.count - 1] -= 1
                } else {
                    // The interpolation ends: the string it is in goes on.
                    interpolations.removeLast()
                    index += 1
                    if let deep = scanString() { return deep }
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\n") { continue }
                }
            case UInt8(ascii: "["):
                brackets += 1
                if brackets > maxBracketDepth {
                    return (position(of: index, in: bytes), "brackets nest deeper than \(maxBracketDepth) here; the Swift parser's time doubles with each further level")
                }
            case UInt8(ascii: "]"):
                brackets = max(0, brackets - 1)
            case UInt8(ascii: "<") where isNameByte(previous) || previous == UInt8(ascii: "<"):
                generics += 1
                if generics > maxGenericDepth {
                    return (position(of: index, in: bytes), "generic arguments nest deeper than \(maxGenericDepth) here")
                }
            case UInt8(ascii: ">") where index > 0 && bytes[index - 1] == UInt8(ascii: "-"):
                arrows += 1
                if arrows > maxGenericDepth {
                    return (position(of: index - 1, in: bytes), "more than \(maxGenericDepth) '->' follow one another here")
                }
            case UInt8(ascii: ">"):
                generics = max(0, generics - 1)
            case UInt8(ascii: "\n"):
                (generics, arrows) = (0, 0)
                interpolations.removeAll()
            case UInt8(ascii: ";"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                (generics, arrows) = (0, 0)
            case UInt8(ascii: "#"):
                if starts(with: "#if") {
                    ifConfigs += 1
                    if ifConfigs > maxIfConfigDepth {
                        return (position(of: index, in: bytes), "#if blocks nest deeper than \(maxIfConfigDepth) here")
                    }
                } else if starts(with: "#endif") {
                    ifConfigs = max(0, ifConfigs - 1)
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// The line and column of `offset` as the Swift compiler counts them: `\n`, `\r\n` and a
    /// lone `\r` each end a line; columns count UTF-8 bytes.
    static func position(of offset: Int, in bytes: [UInt8]) -> SourcePosition {
        var line = 1
        var lineStart = 0
        var index = 0
        while index < offset {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\r"), index < offset, bytes[index] == UInt8(ascii: "\n") { index += 1 }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                line += 1
                lineStart = index
            }
        }
        return SourcePosition(offset: offset, line: line, column: offset - lineStart + 1)
    }

    /// Imports every `ActivityAttributes` type in `files`.
    /// - Parameter files: Each file's path (for diagnostics) and source text.
    /// - Returns: The activities and the findings.
    public static func importActivities(_ files: [(path: String, source: String)]) -> Result {
        onLargeStack { importOnThisThread(files) }
    }

    /// The stack `importActivities` parses and walks on: swift-syntax's parser and walks recurse
    /// once per level of the tree, and a tree just inside `maxTreeDepth` overflows the 512 KiB
    /// of a secondary thread on Apple platforms (a debug build took more than that at 1,000
    /// levels); 64 MiB holds it many times over, and is only reserved, not touched.
    static let stackSize = 64 << 20

    /// Runs `body` on a thread of its own with a `stackSize` stack, and waits for it; on the
    /// calling thread when no thread can be made. A POSIX thread, joined: Foundation's `Thread`
    /// left what its block made unreleased (LeakSanitizer, in FuzzSwiftImport).
    static func onLargeStack(_ body: @escaping @Sendable () -> Result) -> Result {
        let job = Job(body)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        let context = Unmanaged.passRetained(job).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        guard pthread_create(&thread, &attributes, { context in Job.run(context) }, context) == 0 else {
            Unmanaged<Job>.fromOpaque(context).release()
            return body()
        }
        #if canImport(Darwin)
        pthread_join(thread!, nil)
        #else
        pthread_join(thread, nil)
        #endif
        // The join orders the thread's write before this read.
        return job.value!
    }

    /// The import's thread's work, and what it hands back.
    private final class Job: @unchecked Sendable {
        let body: @Sendable () -> Result
        var value: Result?

        init(_ body: @escaping @Sendable () -> Result) {
            self.body = body
        }

        /// The thread's entry: runs the job `context` holds (retained once for the thread).
        static func run(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
            guard let context else { return nil }
            let job = Unmanaged<Job>.fromOpaque(context).takeRetainedValue()
            job.value = job.body()
            return nil
        }
    }

    /// The files an import parses: those that name `ActivityAttributes` or a `ContentState`, and,
    /// again and again, those that declare (or extend) a type of the given files that the files
    /// taken so far name, and those that extend a type declared elsewhere (`KeyedDecodingContainer`,
    /// for a property wrapper's decoding) and name one (an extension of `String` that names none
    /// is not taken). Parsing
    /// is most of an import's time (an app's folder of 1 MB took 6 s in a debug build, most of
    /// it in files no activity uses); the other files are not read, nor are their syntax errors
    /// reported. Words are read from the text as it is (in comments and strings too), so a file is
    /// taken when in doubt, never left out when it declares a type the activity uses. With no
    /// file naming either, every file is parsed (and the import says what it finds).
    package static func relevant(_ files: [(path: String, source: String)]) -> [(path: String, source: String)] {
        let words = files.map { Self.words(in: $0.source) }
        var taken = Set(files.indices.filter { words[$0].all.contains("ActivityAttributes") || words[$0].all.contains("ContentState") })
        guard !taken.isEmpty, taken.count < files.count else { return files }
        // The types the files declare: a name no file declares (`String`) takes no file.
        let types = Set(words.flatMap(\.declared))
        var named = Set(taken.flatMap { words[$0].all }).intersection(types)
        var changed = true
        while changed {
            changed = false
            for index in files.indices where !taken.contains(index) {
                let file = words[index]
                let extendsOthers = !file.extended.isSubset(of: types)
                guard !file.declared.isDisjoint(with: named) || !file.extended.isDisjoint(with: named)
                    || (extendsOthers && !file.all.isDisjoint(with: named)) else { continue }
                taken.insert(index)
                named.formUnion(words[index].all.intersection(types))
                changed = true
            }
        }
        return files.indices.filter(taken.contains).map { files[$0] }
    }

    /// The words of `source` (the names of types it may use: any identifier, `_Status` and
    /// `Ölstand` too), the names it declares (the word after `struct`, `enum`, `class`, `actor`,
    /// `protocol` or `typealias`, backticks aside), and those it extends (after `extension`).
    static func words(in source: String) -> (all: Set<String>, declared: Set<String>, extended: Set<String>) {
        let keywords: Set<String> = ["struct", "enum", "class", "actor", "protocol", "typealias"]
        var all: Set<String> = []
        var declared: Set<String> = []
        var extended: Set<String> = []
        var previous = ""
        var word: [UInt8] = []
        func end() {
            guard !word.isEmpty else { return }
            let text = String(decoding: word, as: UTF8.self)
            if keywords.contains(previous) { declared.insert(text) }
            if previous == "extension" { extended.insert(text) }
            all.insert(text)
            previous = text
            word.removeAll(keepingCapacity: true)
        }
        for byte in source.utf8 {
            let isWordByte = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F || byte >= 0x80
            if isWordByte {
                word.append(byte)
            } else {
                end()
                // Only white space (or a backtick) between a keyword and its name
                // (`extension Foo.Bar` names Foo).
                if byte != 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D, byte != UInt8(ascii: "`") { previous = "" }
            }
        }
        end()
        return (all, declared, extended)
    }

    private static func importOnThisThread(_ given: [(path: String, source: String)]) -> Result {
        var declarations = SwiftDeclarations()
        var diagnostics: [Diagnostic] = []
        var converters: [String: SourceLocationConverter] = [:]
        let files = relevant(given)
        for (path, source) in files {
            if let deep = Self.tooDeepNesting(in: source) {
                diagnostics.append(Diagnostic(
                    code: swiftSyntax, severity: .error,
                    message: "\(deep.reason); no ContentState needs that, and the Swift parser could not read it safely, so the file is not read",
                    file: path, position: deep.position, scope: .schema))
                continue
            }
            let tree = Parser.parse(source: source)
            if let deep = Self.nodeDeeperThan(maxTreeDepth, in: tree) {
                // Located from the bytes: the converter walks the tree as deep as it goes.
                diagnostics.append(Diagnostic(
                    code: swiftSyntax, severity: .error,
                    message: "the syntax tree nests deeper than \(maxTreeDepth) levels here; no ContentState needs that, and reading the tree could overflow the stack, so the file is not read",
                    file: path, position: position(of: deep.positionAfterSkippingLeadingTrivia.utf8Offset, in: Array(source.utf8)), scope: .schema))
                continue
            }
            let converter = SourceLocationConverter(fileName: path, tree: tree)
            converters[path] = converter
            // The lexer's errors in trivia (a `/*` never closed) leave `hasError` false.
            if tree.hasError || SyntaxProblems.unterminatedComment(in: tree) != nil {
                for problem in SyntaxProblems.first(20, in: tree) {
                    let location = converter.location(for: problem.position)
                    diagnostics.append(Diagnostic(
                        code: swiftSyntax, severity: .error, message: problem.message, file: path,
                        position: SourcePosition(location), scope: .schema))
                }
            }
            declarations.add(tree, path: path)
        }
        declarations.finish()
        var reader = TypeReader(declarations: declarations, converters: converters)
        var activities: [Activity] = []
        for name in declarations.types.keys.sorted() {
            guard let type = declarations.types[name], let conformance = declarations.activityAttributesConformance(type) else { continue }
            reader.reviews = []
            if case .assumed(let protocolName) = conformance {
                reader.review("\(type.name) conforms to \(protocolName), which is not in the given files: it is read as an ActivityAttributes "
                              + "type, as the protocol's name says; the keys the protocol itself requires are not known (pass its declaration too)",
                              at: type.node, file: type.file)
            }
            let attributes = reader.fields(of: type, role: "attributes")
            var contentState: [Field] = []
            let initializersBefore = reader.initializersRead
            let unreadBefore = reader.initializersUnread
            var available = [Self.availableIOS(type.node)]
            if let stateName = declarations.resolveName("ContentState", from: type.name),
               let (state, _) = reader.specializedTypeDecl(named: stateName), state.kind == .enum {
                // An enum's Codable (SE-0295's case keys, or its own init(from:) switching on a
                // key) reads no fixed set of keys: a version of no fields would pass everything.
                let location = converters[state.file].map { state.node.startLocation(converter: $0) }
                diagnostics.append(Diagnostic(
                    code: Self.unstatableContentState, severity: .error,
                    message: "\(type.name)'s ContentState \(state.name) is an enum, which a schema cannot state: a schema's content-state is "
                        + "an object of fields, and a version written without them would pass every payload the app refuses; write its "
                        + "fields by hand", file: state.file, position: location.map(SourcePosition.init), scope: .schema))
                continue
            }
            if let stateName = declarations.resolveName("ContentState", from: type.name),
               let (state, arguments) = reader.specializedTypeDecl(named: stateName) {
                contentState = reader.fields(of: state, arguments: arguments, role: "content-state")
                available.append(Self.availableIOS(state.node))
            } else {
                let alias = declarations.resolveName("ContentState", from: type.name).flatMap { declarations.aliases[$0] }
                let why = alias.map { ": its typealias names \($0.type.trimmedDescription), which is not in the given files" } ?? ""
                reader.review("\(type.name) has no ContentState this import can find\(why); the version written states no field, "
                              + "so it accepts every payload: write its fields by hand", at: alias.map { Syntax($0.type) } ?? type.node, file: alias?.file ?? type.file)
            }
            // What compiles is not always what a schema can state (an enum without cases, ...):
            // the schema's own checks say so here, as a review, instead of a file that does not load.
            // Its name too: the schema names the type (`attributes-type`), as a start's body must.
            let attributesType = type.name.split(separator: ".").last.map(String.init) ?? type.name
            let draft = Schema(activity: "imported", attributesType: attributesType,
                               versions: [SchemaVersion(version: 1, contentState: contentState, attributes: attributes)])
            for problem in SchemaValidator.validate(draft) where problem.severity == .error {
                reader.review("a schema cannot state \(type.name) as imported: \(problem.message)", at: type.node, file: type.file)
            }
            // An init(from:) of its own, read or not, is not synthesized Codable: a version whose
            // initializer the import could not read is not a strict client either (its fields
            // are the declaration's, and a strict verdict would speak for a Codable it lacks).
            let isSynthesized = reader.initializersRead == initializersBefore && reader.initializersUnread == unreadBefore
            if isSynthesized {
                // A strict client refuses such values already: the content-state says no more.
                contentState = contentState.map(Self.strictClientsOwn)
            }
            activities.append(Activity(
                attributesType: attributesType, contentState: contentState, attributes: attributes, reviews: reader.reviews,
                isSynthesized: isSynthesized, hasUnreadInitializer: reader.initializersUnread > unreadBefore, minIOS: available.compactMap { $0 }.max().flatMap { $0 > .liveActivities ? $0 : nil }))
            diagnostics += reader.reviews
        }
        if activities.isEmpty, !diagnostics.contains(where: { $0.severity == .error }) {
            diagnostics.append(Diagnostic(
                code: noActivity, severity: .error,
                message: "no type conforming to ActivityAttributes in \(given.map(\.path).joined(separator: ", "))",
                file: given.first?.path, position: SourcePosition(offset: 0, line: 1, column: 1), scope: .schema))
        }
        return Result(activities: activities, diagnostics: diagnostics)
    }
}

extension SwiftImporter {
    /// The iOS version of an `@available(iOS 17.0, *)` (or `iOS, introduced: 17.0`) on a
    /// declaration: no device below it runs the type.
    static func availableIOS(_ node: Syntax) -> IOSVersion? {
        guard let attributes = node.asProtocol(WithAttributesSyntax.self)?.attributes else { return nil }
        var found: IOSVersion?
        for case .attribute(let attribute) in attributes where attribute.attributeName.trimmedDescription == "available" {
            guard case .availability(let arguments)? = attribute.arguments else { continue }
            // `@available(iOS, introduced: 17.0)`: the platform alone first, then its labels.
            let forIOSAlone = arguments.first.map { argument in
                if case .token(let token) = argument.argument { token.text == "iOS" } else { false }
            } ?? false
            for argument in arguments {
                var version: VersionTupleSyntax?
                switch argument.argument {
                case .availabilityVersionRestriction(let restriction) where restriction.platform.text == "iOS":
                    version = restriction.version
                case .availabilityLabeledArgument(let labeled) where forIOSAlone && labeled.label.text == "introduced":
                    if case .version(let tuple) = labeled.value { version = tuple }
                default:
                    continue
                }
                if let version, let ios = IOSVersion(version.trimmedDescription), found.map({ ios > $0 }) ?? true {
                    found = ios
                }
            }
        }
        return found
    }

    /// `field` without the `on-invalid: reject` of an optional field read by synthesized
    /// `Codable`, which a strict client (`clients.strict`) implies, in nested objects and arrays too.
    static func strictClientsOwn(_ field: Field) -> Field {
        var field = field
        if field.isOptional { field.rejectsInvalid = false }
        switch field.type {
        case .object(let fields): field.type = .object(fields: fields.map(strictClientsOwn))
        case .array(let items): field.type = .array(items: strictClientsOwn(items))
        default: break
        }
        return field
    }
}

/// Turns declarations into schema fields.
struct TypeReader {
    let declarations: SwiftDeclarations
    let converters: [String: SourceLocationConverter]
    var reviews: [Diagnostic] = []
    /// The raw value of each case of the raw-value enums read so far, by the enum's name: what
    /// a default written as `.case` is on the wire.
    var caseValues: [String: [String: Value]] = [:]
    /// How many `init(from:)` bodies were read (`DecodingInitializer`): a type decoded by one
    /// is not decoded by synthesized `Codable`.
    var initializersRead = 0
    /// How many `init(from:)` bodies of a struct or class the import could not read (each
    /// reviewed): the fields written for such a type are the declaration's.
    var initializersUnread = 0
    /// The types being read and the typealiases being followed, against recursion; the
    /// typealiases in the order they were followed, to name a cycle.
    private var reading: Set<String> = []
    private var following: [String] = []
    /// The property whose array's elements are being read (an element field has no name).
    private var arrayOwner = ""
    /// A generic type's argument as written where it was given: `Int` of `Box<Int>`, read in
    /// the scope and with the generic parameters of the place that wrote it.
    struct GenericArgument {
        var type: TypeSyntax
        var scope: String
        var generics: Generics
    }
    /// The generic parameters in force, each with its argument (`T` of `struct Box<T>` read as
    /// `Box<Int>`: a property of type `T` is read as `Int`), and the generic type that binds
    /// them, whose nested types see them too.
    struct Generics {
        var parameters: [String: GenericArgument] = [:]
        var owner = ""
    }
    private var generics = Generics()
    /// The declaration or `init(from:)` read of the property being read: where a finding about
    /// a type the file does not spell is placed.
    var readAt: Syntax?
    /// How deep the mapping of the field being read sits in the schema file the import writes:
    /// the document, `versions`, the version and `content-state` (or `attributes`) hold a root
    /// field's at 5. An object's fields sit 2 deeper (`fields:`, then each field), an array's
    /// items 1 (`items:`).
    private var depth = 5
    /// The deepest a field may sit and still hold an empty `fields:` or `items:` within the
    /// nesting `SchemaLoader` reads, so that what the import writes loads.
    private static let deepestField = SchemaLoader.Limits().maxDepth - 1

    init(declarations: SwiftDeclarations, converters: [String: SourceLocationConverter]) {
        self.declarations = declarations
        self.converters = converters
    }

    mutating func review(_ message: String, at node: some SyntaxProtocol, file: String) {
        // A type the file does not spell (inferred from `= UUID()`, or named by `T.self`) is a
        // node of its own tree, placed nowhere in the file: the finding goes where it was read.
        let place = node.root.is(SourceFileSyntax.self) ? Syntax(node) : (readAt ?? Syntax(node))
        let location = converters[file].map { place.startLocation(converter: $0) }
        reviews.append(Diagnostic(
            code: SwiftImporter.needsReview, severity: .warning, message: message, file: file,
            position: location.map(SourcePosition.init), scope: .schema))
    }

    /// The type a name refers to, typealiases followed.
    func typeDecl(named name: String, from scope: String) -> SwiftDeclarations.TypeDecl? {
        specializedTypeDecl(named: name)?.decl
    }

    /// The type a name refers to, typealiases followed, and the generic arguments the last
    /// typealias that gives any gives it (`typealias ContentState = Box<Int>`).
    func specializedTypeDecl(named name: String) -> (decl: SwiftDeclarations.TypeDecl, arguments: [GenericArgument])? {
        var current = name
        var arguments: [GenericArgument] = []
        for _ in 0..<16 {
            if let type = declarations.types[current] { return (type, arguments) }
            guard let alias = declarations.aliases[current] else { return nil }
            let (base, written) = Self.named(alias.type)
            guard let next = declarations.resolveName(base, from: alias.scope) else { return nil }
            if !written.isEmpty {
                arguments = written.map { GenericArgument(type: $0, scope: alias.scope, generics: generics) }
            }
            current = next
        }
        return nil
    }

    /// The fields of `type`, with its generic parameters read as `arguments` (a property of a
    /// parameter's type given no argument is "not in the given files"). A type nested in the
    /// generic type being read sees that type's parameters too, as in Swift.
    mutating func fields(of type: SwiftDeclarations.TypeDecl, arguments: [GenericArgument], role: String) -> [Field] {
        let names = Self.genericParameters(of: type.node)
        let outer = generics
        defer { generics = outer }
        if !type.name.hasPrefix(generics.owner + ".") { generics.parameters = [:] }
        if !names.isEmpty {
            generics.owner = type.name
            if names.count == arguments.count {
                for (name, argument) in zip(names, arguments) { generics.parameters[name] = argument }
            }
        }
        return fields(of: type, role: role)
    }

    /// The names of a struct's, class's or enum's generic parameters, in order.
    static func genericParameters(of node: Syntax) -> [String] {
        let clause = node.as(StructDeclSyntax.self)?.genericParameterClause
            ?? node.as(ClassDeclSyntax.self)?.genericParameterClause
            ?? node.as(EnumDeclSyntax.self)?.genericParameterClause
        return clause?.parameters.map(\.name.text) ?? []
    }

    /// How synthesized `Codable` reads a property that has the property wrapper `attribute`
    /// (`PropertyWrapperReading`), or why the import does not say.
    mutating func wrapperReading(_ attribute: AttributeSyntax, scope: String) -> Result<DecodingInitializer.Read, PropertyWrapperReading.Unread> {
        guard let (decl, arguments) = appliedType(attribute.attributeName, from: scope) else {
            return .failure(PropertyWrapperReading.Unread("its declaration is not in the given files (pass it, and its KeyedDecodingContainer extension, to read it)"))
        }
        let attributes = decl.node.asProtocol(WithAttributesSyntax.self)?.attributes ?? []
        guard attributes.contains(where: { $0.as(AttributeSyntax.self).map { Self.named($0.attributeName).base == "propertyWrapper" } ?? false }) else {
            return .failure(PropertyWrapperReading.Unread("\(decl.name) is not declared @propertyWrapper"))
        }
        reviewUnsettled(decl)
        // A generic wrapper's default may be its one type argument's (`DefaultCodable<Strategy>`
        // takes `Strategy.defaultValue`, whatever the parameter is called where it is read).
        let strategy = arguments.count == 1 ? appliedType(arguments[0], from: scope)?.decl : nil
        let resolve = { (value: ExprSyntax) -> ExprSyntax in
            guard let strategy, let member = value.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
                  self.typeDecl(named: self.declarations.resolveName(base.baseName.text, from: scope) ?? "", from: scope) == nil,
                  let stated = Self.staticValue(member.declName.baseName.text, of: strategy) else { return value }
            return stated
        }
        return PropertyWrapperReading.read(decl, members: members(of: decl), keyedDecoding: declarations.keyedDecodingMembers, resolving: resolve)
            .map(\.read)
    }

    /// The declaration `type` names, typealiases followed, and the type arguments it is given
    /// where it is named last (`DefaultFalse` → `DefaultCodable`, `[DefaultFalseStrategy]`).
    func appliedType(_ type: TypeSyntax, from scope: String) -> (decl: SwiftDeclarations.TypeDecl, arguments: [TypeSyntax])? {
        var (name, arguments) = Self.named(type)
        var scope = scope
        for _ in 0..<16 {
            guard let resolved = declarations.resolveName(name, from: scope) else { return nil }
            if let decl = declarations.types[resolved] { return (decl, arguments) }
            guard let alias = declarations.aliases[resolved] else { return nil }
            (name, arguments) = Self.named(alias.type)
            scope = alias.scope
        }
        return nil
    }

    /// The value of `type`'s `static let name = v`, `static var name: T = v`, or
    /// `static var name: T { v }` (or `{ return v }`).
    static func staticValue(_ name: String, of type: SwiftDeclarations.TypeDecl) -> ExprSyntax? {
        for member in type.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }),
                  variable.bindings.count == 1, let binding = variable.bindings.first,
                  binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name else { continue }
            if let value = binding.initializer?.value { return value }
            var statements: CodeBlockItemListSyntax?
            switch binding.accessorBlock?.accessors {
            case .getter(let body)?: statements = body
            case .accessors(let accessors)?:
                statements = accessors.first { $0.accessorSpecifier.tokenKind == .keyword(.get) }?.body?.statements
            case nil: break
            }
            guard let statements, statements.count == 1, let item = statements.first else { return nil }
            switch item.item {
            case .expr(let expression): return expression
            case .stmt(let statement): return statement.as(ReturnStmtSyntax.self)?.expression
            case .decl: return nil
            }
        }
        return nil
    }

    /// Every member of a type, its extensions' included, with the file each is in.
    private func members(of type: SwiftDeclarations.TypeDecl) -> [(MemberBlockItemSyntax, String)] {
        type.members.map { ($0, type.file) } + type.extensionMembers.flatMap { block in block.members.map { ($0, block.file) } }
    }

    /// The keys synthesized `Codable` decodes for a struct or class, in declaration order.
    mutating func fields(of type: SwiftDeclarations.TypeDecl, role: String) -> [Field] {
        // A generic type is itself only with the same arguments (`Box<Box<Int>>` holds a `Box<Int>`).
        let readingKey = type.name + generics.parameters.sorted { $0.key < $1.key }.map { "<\($0.key)=\($0.value.type.trimmedDescription)>" }.joined()
        guard !reading.contains(readingKey) else {
            review("\(type.name) contains itself; a schema cannot state a recursive type", at: type.node, file: type.file)
            return []
        }
        reading.insert(readingKey)
        defer { reading.remove(readingKey) }
        if type.kind == .enum {
            review("\(role) \(type.name) is an enum; a schema states objects", at: type.node, file: type.file)
            return []
        }
        // A superclass comes first in the list: one declared as a class here, or any name that
        // is not a protocol this import knows.
        if type.kind == .class, let first = type.inherited.first.map({ $0.replacingOccurrences(of: "@unchecked ", with: "") }),
           !Self.protocols.contains(first),
           declarations.resolveName(first, from: type.name).flatMap({ declarations.types[$0] }).map({ $0.kind == .class }) ?? true {
            review("class \(type.name) may inherit from \(first), whose keys sit under 'super'", at: type.node, file: type.file)
        }
        let all = members(of: type)
        var ownDecoderUnread = false
        for (member, file) in all {
            guard let initializer = member.decl.as(InitializerDeclSyntax.self),
                  DecodingInitializer.isDecodable(initializer) else { continue }
            // Its own init(from:) decides the keys: read when it reads them one by one.
            switch DecodingInitializer.read(initializer, initialValues: Self.initialValues(all.map(\.0))) {
            case .success(let reads):
                reviewUnsettled(type)
                return fields(readBy: reads, in: type, file: file)
            case .failure(let unread):
                initializersUnread += 1
                ownDecoderUnread = true
                review("\(type.name) has its own init(from:), which the import reads only where it reads each key with decode or decodeIfPresent "
                       + "from one keyed container: \(unread.reason); the fields written are the declaration's, which may not be what it reads",
                       at: unread.node, file: file)
            }
        }
        reviewUnsettled(type)
        let codingKeys = self.codingKeys(of: type)
        var fields: [Field] = []
        for (member, file) in all {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let types = Self.declaredTypes(of: variable.bindings)
            for (binding, declaredType) in zip(variable.bindings, types) {
                guard let name = (binding.pattern.as(IdentifierPatternSyntax.self)?.identifier).map(Self.name),
                      Self.isDecoded(binding, of: variable) else { continue }
                let key: String
                if let codingKeys {
                    guard let mapped = codingKeys[name] else { continue }
                    key = mapped
                } else {
                    key = name
                }
                // A property wrapper declared in the files is read (`PropertyWrapperReading`).
                let wrappers = Self.propertyWrappers(in: variable.attributes)
                var wrapperRead: (wrapper: AttributeSyntax, read: DecodingInitializer.Read)?
                for wrapper in wrappers {
                    let reading: Result<DecodingInitializer.Read, PropertyWrapperReading.Unread>
                    if wrappers.count > 1 {
                        reading = .failure(PropertyWrapperReading.Unread("one of \(wrappers.count), each decoding the next"))
                    } else if let declaredType, Self.optionalWrapped(declaredType) != nil {
                        reading = .failure(PropertyWrapperReading.Unread("the import reads a wrapper only of a property that is not optional"))
                    } else {
                        reading = wrapperReading(wrapper, scope: type.name)
                    }
                    switch reading {
                    case .success(let read): wrapperRead = (wrapper, read)
                    case .failure(let reason):
                        review("'\(name)' has the property wrapper \(wrapper.trimmedDescription), which decodes as the wrapper does: \(reason.reason)",
                               at: wrapper, file: file)
                    }
                }
                guard let typeSyntax = declaredType else {
                    review("'\(name)' has no type annotation and its type is inferred from \(binding.initializer?.value.trimmedDescription ?? "nothing"), "
                           + "which the import does not settle: it is left out of the schema, though synthesized Codable requires its key; add it by hand",
                           at: binding, file: file)
                    continue
                }
                var field = self.field(named: key, type: typeSyntax, scope: type.name, file: file, readAt: binding)
                if let (wrapper, read) = wrapperRead {
                    apply(read, to: &field, type: typeSyntax, by: wrapper.trimmedDescription, scope: type.name, file: file)
                    // A wrapper that reads the key as a strict client does leaves the version strict.
                    if case .required = read {} else { initializersRead += 1 }
                    fields.append(field)
                    continue
                }
                if field.isOptional {
                    // `decodeIfPresent`: a value of another type throws.
                    field.rejectsInvalid = true
                }
                if let initial = binding.initializer?.value {
                    let missing = field.isOptional ? ": a missing key or null reads as nil." : ", so the key is required."
                    // A type whose own init(from:) was not read is written as synthesized
                    // Codable would read it, which is not how it decodes.
                    let reader = ownDecoderUnread ? "its own init(from:) is not read, and synthesized Codable would ignore it" : "synthesized Codable ignores it"
                    field.documentation = "Swift default \(initial.trimmedDescription); \(reader)" + missing
                }
                fields.append(field)
            }
        }
        return fields
    }

    /// Each stored `var`'s value before an initializer's body runs: its `= value`, or `nil` for
    /// an optional one without it.
    static func initialValues(_ members: [MemberBlockItemSyntax]) -> [String: ExprSyntax] {
        var values: [String: ExprSyntax] = [:]
        for member in members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), variable.bindingSpecifier.tokenKind == .keyword(.var) else { continue }
            for (binding, type) in zip(variable.bindings, declaredTypes(of: variable.bindings)) {
                guard let name = (binding.pattern.as(IdentifierPatternSyntax.self)?.identifier).map(Self.name),
                      isDecoded(binding, of: variable) else { continue }
                if let initial = binding.initializer?.value {
                    values[name] = initial
                } else if let type, optionalWrapped(type) != nil {
                    values[name] = ExprSyntax(NilLiteralExprSyntax())
                }
            }
        }
        return values
    }

    /// Each binding's type, as the compiler settles it: its annotation; for one without an
    /// annotation or a value, the annotation of the next binding that has one (`var x, y: Int`
    /// declares two `Int`s); for one given a literal or one of Foundation's values whose type
    /// is plain (`inferredType(of:)`), that type (`var p = 5` is an `Int`, `var id = UUID()` a
    /// `UUID`). `nil` where the type is inferred from anything else.
    static func declaredTypes(of bindings: PatternBindingListSyntax) -> [TypeSyntax?] {
        var types: [TypeSyntax?] = []
        var following: TypeSyntax?
        for binding in bindings.reversed() {
            if let annotation = binding.typeAnnotation?.type {
                following = annotation
                types.append(annotation)
            } else if let initial = binding.initializer?.value {
                following = nil
                types.append(inferredType(of: initial))
            } else {
                types.append(following)
            }
        }
        return types.reversed()
    }

    /// The type of an initial value whose type is plain without the compiler: a literal's
    /// default type (`Int`, `Double`, `String` or `Bool`), `Date` for `Date(…)` and `Date.now`
    /// (no initializer of `Date` can fail), and `UUID` for `UUID()` (but not `UUID(uuidString:)`,
    /// which can, and so makes an `Optional`); `nil` for any other expression, whose type would
    /// take the compiler to settle.
    static func inferredType(of expression: ExprSyntax) -> TypeSyntax? {
        var expression = expression
        if let negated = expression.as(PrefixOperatorExprSyntax.self), negated.operator.text == "-" {
            expression = negated.expression
        }
        let name: String
        if let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil,
           let called = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
           called == "Date" || (called == "UUID" && call.arguments.isEmpty) {
            name = called
        } else if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "now",
                  member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "Date" {
            name = "Date"
        } else if expression.is(IntegerLiteralExprSyntax.self) {
            name = "Int"
        } else if expression.is(FloatLiteralExprSyntax.self) {
            name = "Double"
        } else if expression.is(StringLiteralExprSyntax.self) {
            name = "String"
        } else if expression.is(BooleanLiteralExprSyntax.self) {
            name = "Bool"
        } else {
            return nil
        }
        return TypeSyntax(IdentifierTypeSyntax(name: .identifier(name)))
    }

    static let protocols: Set<String> = [
        "Codable", "Decodable", "Encodable", "Hashable", "Equatable", "Sendable", "ActivityAttributes", "Identifiable",
        "CustomStringConvertible", "CustomDebugStringConvertible", "Comparable",
    ]

    /// Whether synthesized `Codable` decodes a binding: a stored instance property (not `static`,
    /// `class`, `lazy` or computed) that is not a `let` with an initial value.
    static func isDecoded(_ binding: PatternBindingSyntax, of variable: VariableDeclSyntax) -> Bool {
        let modifiers = Set(variable.modifiers.map(\.name.text))
        if modifiers.contains("static") || modifiers.contains("class") || modifiers.contains("lazy") { return false }
        if let accessors = binding.accessorBlock, isComputed(accessors) { return false }
        return !(variable.bindingSpecifier.tokenKind == .keyword(.let) && binding.initializer != nil)
    }

    /// Reports what `#if` hides from the import in `type`: a declaration inside an `#if` that
    /// cannot be settled, and, for each such `#if` among its members, what its clauses declare
    /// that synthesized `Codable` reads (stored properties, cases, an `init(from:)`), none of
    /// which is in the schema.
    mutating func reviewUnsettled(_ type: SwiftDeclarations.TypeDecl) {
        if let condition = type.unsettledCondition {
            review("\(type.name) is declared inside #if \(condition.trimmedDescription), which this import cannot settle for an iOS app build; "
                   + "it read this declaration", at: condition, file: type.file)
        }
        for (ifConfig, file) in type.unsettled {
            let names = Self.decodedNames(in: ifConfig)
            guard let condition = ifConfig.clauses.first?.condition, !names.isEmpty else { continue }
            review("#if \(condition.trimmedDescription) in \(type.name) cannot be settled for an iOS app build (debug and release builds, or SDKs, may differ), "
                   + "so what its clauses declare is left out of the schema: \(names.joined(separator: ", ")); "
                   + "synthesized Codable reads those of the clause the app was built with",
                   at: condition, file: file)
        }
    }

    /// What synthesized `Codable` reads that the clauses of `ifConfig` (nested ones too)
    /// declare: stored properties and cases by name, and `init(from:)`.
    static func decodedNames(in ifConfig: IfConfigDeclSyntax) -> [String] {
        var names: [String] = []
        for clause in ifConfig.clauses {
            guard case .decls(let members)? = clause.elements else { continue }
            for member in members {
                if let nested = member.decl.as(IfConfigDeclSyntax.self) {
                    names += decodedNames(in: nested)
                } else if let variable = member.decl.as(VariableDeclSyntax.self) {
                    names += variable.bindings.compactMap { binding in
                        guard isDecoded(binding, of: variable), let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier else { return nil }
                        return "'\(name(identifier))'"
                    }
                } else if let cases = member.decl.as(EnumCaseDeclSyntax.self) {
                    names += cases.elements.map { "case \(name($0.name))" }
                } else if let initializer = member.decl.as(InitializerDeclSyntax.self), DecodingInitializer.isDecodable(initializer) {
                    names.append("init(from:)")
                }
            }
        }
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }

    /// The attributes of a property that may be property wrappers: every attribute that names a
    /// type, that is, every one that is not Swift's own (`@available`, `@objc`, `@MainActor`, …),
    /// which leave synthesized `Codable` as it is. An `#if` among them is read as an iOS app build
    /// compiles it; every clause of one that cannot be settled.
    static func propertyWrappers(in attributes: AttributeListSyntax) -> [AttributeSyntax] {
        attributes.flatMap { element -> [AttributeSyntax] in
            switch element {
            case .attribute(let attribute):
                return builtInAttributes.contains(named(attribute.attributeName).base) ? [] : [attribute]
            case .ifConfigDecl(let ifConfig):
                let clauses: [IfConfigClauseSyntax]
                switch BuildConditions.outcome(of: ifConfig) {
                case .active(let clause): clauses = clause.map { [$0] } ?? []
                case .unsettled: clauses = Array(ifConfig.clauses)
                }
                return clauses.flatMap { clause -> [AttributeSyntax] in
                    guard case .attributes(let inner)? = clause.elements else { return [] }
                    return propertyWrappers(in: inner)
                }
            }
        }
    }

    /// Swift's own declaration attributes, and the standard library's global actor: none is a
    /// property wrapper. (A new one missing here is reported for review, never taken silently.)
    static let builtInAttributes: Set<String> = [
        "available", "objc", "nonobjc", "objcMembers", "MainActor", "preconcurrency", "discardableResult", "inlinable",
        "usableFromInline", "inline", "_spi", "spi", "backDeployed", "NSCopying", "NSManaged", "IBOutlet", "IBInspectable",
        "GKInspectable", "IBAction", "IBSegueAction", "IBDesignable", "frozen", "dynamicMemberLookup", "dynamicCallable",
        "warn_unqualified_access", "transparent", "_transparent", "_alwaysEmitIntoClient", "_disfavoredOverload",
        "_documentation", "_implements", "_optimize", "_semantics", "_silgen_name", "_cdecl", "_dynamicReplacement",
        "_originallyDefinedIn", "_nonSendable", "_unavailableFromAsync", "unavailableFromAsync", "_hasStorage",
        "_hasInitialValue", "_fixed_layout", "_borrowed", "_nonoverride", "_effects", "_specialize", "specialize",
        "_noImplicitCopy", "_eagerMove", "_noEagerMove", "_lexicalLifetimes", "_weakLinked", "_private",
        "_projectedValueProperty", "_objcRuntimeName", "_show_in_interface", "_spi_available", "_staticExclusiveOnly",
        "_compilerInitialized", "_unavailableInEmbedded", "_section", "section", "_used", "used", "exclusivity",
        "noDerivative", "differentiable", "derivative", "transpose", "unsafe", "safe", "abi", "extern", "c",
        "storageRestrictions", "Sendable", "nonisolated", "isolated", "concurrent", "export", "lifetime", "_lifetime",
    ]

    /// Whether a property's accessors make it computed (a getter), not stored (observers).
    static func isComputed(_ block: AccessorBlockSyntax) -> Bool {
        switch block.accessors {
        case .getter: return true
        case .accessors(let list):
            return list.contains { ["get", "set", "_read", "_modify"].contains($0.accessorSpecifier.text) }
        }
    }

    /// The property → key map of a type's `CodingKeys` (an enum, or a typealias to one), or `nil`.
    mutating func codingKeys(of type: SwiftDeclarations.TypeDecl) -> [String: String]? {
        guard let name = declarations.resolveName("CodingKeys", from: type.name),
              name.hasPrefix(type.name + ".") || declarations.aliases[name] != nil,
              let keys = typeDecl(named: name, from: type.name), keys.kind == .enum else { return nil }
        reviewUnsettled(keys)
        return caseKeys(of: keys)
    }

    /// The key of each case of a `CodingKey` enum: its `String` raw value, or its name. A raw
    /// value of another type (`enum CodingKeys: Int, CodingKey`) is the key's `intValue`; its
    /// `stringValue`, the key `JSONDecoder` reads, is still the case's name.
    mutating func caseKeys(of keys: SwiftDeclarations.TypeDecl) -> [String: String] {
        var map: [String: String] = [:]
        let rawStrings = Self.rawCoding(of: keys) == .strings
        for member in keys.members {
            guard let cases = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in cases.elements {
                let name = Self.name(element.name)
                if rawStrings, let value = element.rawValue?.value {
                    guard let key = stringLiteral(value, file: keys.file) else { continue }
                    map[name] = key
                } else {
                    map[name] = name
                }
            }
        }
        return map
    }

    /// The field a property that is an array of `element` is. A schema's items cannot be `null`:
    /// an array of optionals (`[Int?]`) is written as an array of its wrapped type, reviewed, as
    /// the app holds `nil` for a `null` element where the schema refuses the array.
    mutating func arrayField(named name: String, element: TypeSyntax, scope: String, file: String) -> Field {
        collectionField(named: name, element: element, scope: scope, file: file, isMap: false)
    }

    /// The field of a `String`- or `Int`-keyed dictionary, which synthesized `Codable` reads
    /// from a JSON object: a map of `value`'s type, with `keys: int` for an `Int` key (the app
    /// refuses a key that is not an integer's text).
    mutating func mapField(named name: String, key: TypeSyntax, value: TypeSyntax, scope: String, file: String) -> Field {
        guard ["String", "Int"].contains(Self.named(key).base) else {
            review(Self.dictionaryReview(name, key: key), at: key, file: file)
            return Field(name: name, type: .object(fields: []))
        }
        var field = collectionField(named: name, element: value, scope: scope, file: file, isMap: true)
        field.hasIntegerKeys = Self.named(key).base == "Int"
        return field
    }

    /// An array's field, or a map's (`isMap`), of `element`'s values.
    private mutating func collectionField(named name: String, element: TypeSyntax, scope: String, file: String, isMap: Bool) -> Field {
        let outer = arrayOwner
        if !name.isEmpty { arrayOwner = name }
        defer { arrayOwner = outer }
        guard depth + 1 <= Self.deepestField else {
            review("'\(arrayOwner)' nests arrays deeper than a schema file holds (\(Self.deepestField + 1) levels of YAML); "
                   + "stated as an array of strings", at: element, file: file)
            return Field(name: name, type: .array(items: Field(name: "", type: .string)))
        }
        depth += 1
        defer { depth -= 1 }
        var items = field(named: "", type: element, scope: scope, file: file)
        let collection = isMap ? "map" : "array"
        if items.isOptional {
            items.isOptional = false
            let values = isMap ? "values" : "elements"
            review("'\(arrayOwner)' is \(isMap ? "a dictionary" : "an array") of optionals, whose \(values) may be null; a schema's items cannot be: it states \(isMap ? "a" : "an") \(collection) of \((Self.optionalWrapped(element) ?? element).trimmedDescription), so a null \(isMap ? "value" : "element") refuses the \(collection) where the app holds nil",
                   at: element, file: file)
        }
        return Field(name: name, type: isMap ? .map(items: items) : .array(items: items))
    }

    /// The field of a property declared or read at `node`, where a finding about a type the
    /// file does not spell is placed (`readAt`).
    mutating func field(named name: String, type: TypeSyntax, scope: String, file: String, readAt node: some SyntaxProtocol) -> Field {
        let outerRead = readAt
        readAt = Syntax(node)
        defer { readAt = outerRead }
        return field(named: name, type: type, scope: scope, file: file)
    }

    /// The field a property of `type` is.
    mutating func field(named name: String, type: TypeSyntax, scope: String, file: String) -> Field {
        if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first,
           only.firstName == nil, only.ellipsis == nil {
            // `(Int)` is `Int`: parentheses around one unlabeled type make no tuple.
            return field(named: name, type: only.type, scope: scope, file: file)
        }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil,
           let argument = generics.parameters[identifier.name.text] {
            // A generic parameter: its argument, read where it was written.
            let inner = generics
            generics = argument.generics
            defer { generics = inner }
            return field(named: name, type: argument.type, scope: argument.scope, file: file)
        }
        if let wrapped = Self.optionalWrapped(type) {
            var field = self.field(named: name, type: wrapped, scope: scope, file: file)
            field.isOptional = true
            return field
        }
        if let element = Self.elementType(of: type) {
            return arrayField(named: name, element: element, scope: scope, file: file)
        }
        if let (key, value) = Self.keyAndValueTypes(of: type) {
            return mapField(named: name, key: key, value: value, scope: scope, file: file)
        }
        let (base, arguments) = Self.named(type)
        switch (base, arguments.count) {
        case ("ClosedRange", 1) where Self.named(arguments[0]).base == "Date":
            return Field(name: name, type: .dateRange)
        case ("ClosedRange", 1), ("Range", 1):
            // The standard library's `Codable` writes a range as `[lower, upper]`.
            var field = arrayField(named: name, element: arguments[0], scope: scope, file: file)
            field.constraints.maxItems = 2
            review("'\(name)' is a \(type.trimmedDescription), which the app decodes from [lower, upper] and refuses with bounds out of order; "
                   + "a schema states an array of at most 2 elements, which does not refuse fewer or bounds out of order", at: type, file: file)
            return field
        case ("Duration", 0):
            // `Duration`'s `Codable` writes the two 64-bit halves of its count of attoseconds.
            var field = Field(name: name, type: .array(items: Field(name: "", type: .int)))
            field.constraints.maxItems = 2
            review("'\(name)' is a Duration, which the app decodes from two integers, the high and low 64 bits of its attoseconds; "
                   + "a schema states an array of at most 2 int", at: type, file: file)
            return field
        default:
            break
        }
        // A type of the app's own that takes a standard name (`struct UUID`, `typealias Date =
        // Double`) is the app's, as the compiler resolves it; `Foundation.Date` is Foundation's.
        let isQualified = type.as(MemberTypeSyntax.self).map { ["Swift", "Foundation"].contains($0.baseType.trimmedDescription) } ?? false
        let declared = isQualified ? nil : declarations.resolveName(base, from: scope)
        if declared == nil, let format = Self.formattedStrings[base] {
            var field = Field(name: name, type: .string)
            field.stringFormat = format
            return field
        }
        if declared == nil, base == "Character" {
            // Not `Codable`: only an `init(from:)` of the app's own reads it, from a string.
            review("'\(name)' is a Character, a string of one character or the update is dropped; a schema states only a string",
                   at: type, file: file)
            return Field(name: name, type: .string)
        }
        if declared == nil, let leaf = Self.leaves[base] {
            var field = Field(name: name, type: leaf.type)
            if let format = leaf.format {
                field.setNumberFormat(format)
            }
            return field
        }
        if let resolved = declared {
            if let alias = declarations.aliases[resolved], declarations.types[resolved] == nil {
                if let start = following.firstIndex(of: resolved) {
                    // `typealias A = B; typealias B = A`: the chain from where it closes.
                    let cycle = following[start...] + [resolved]
                    review(cycle.count == 2 ? "'\(name)' has the type \(resolved), a typealias of itself; stated as a string"
                           : "'\(name)' has the type \(cycle[cycle.startIndex]), whose typealiases go round in a cycle ("
                             + cycle.joined(separator: " = ") + "); stated as a string", at: type, file: file)
                    return Field(name: name, type: .string)
                }
                following.append(resolved)
                defer { following.removeLast() }
                return field(named: name, type: alias.type, scope: alias.scope, file: file)
            }
            if let decl = typeDecl(named: resolved, from: scope) {
                if decl.kind == .enum { return enumField(named: name, decl) }
                guard depth + 2 <= Self.deepestField else {
                    review("'\(name)' nests objects deeper than a schema file holds (\(Self.deepestField + 1) levels of YAML); "
                           + "stated as an object without fields", at: type, file: file)
                    return Field(name: name, type: .object(fields: []))
                }
                depth += 2
                defer { depth -= 2 }
                let given = arguments.map { GenericArgument(type: $0, scope: scope, generics: generics) }
                return Field(name: name, type: .object(fields: fields(of: decl, arguments: given, role: "'\(name)'")))
            }
        }
        // A guess: right for a String-backed enum or a typealias of String, wrong for a struct,
        // whose every valid payload it refuses. The review says how to settle it.
        review("'\(name)' has the type \(type.trimmedDescription), which is not in the given files; stated as a string, which is wrong "
               + "if it is a struct or a number: give the file that declares \(base) too", at: type, file: file)
        return Field(name: name, type: .string)
    }

    /// A raw-value enum as the field synthesized `Codable` makes of it: an `enum` of its `String`
    /// or integer raw values, implicit ones included; a `double` bounded by its `Double` or
    /// `Float` raw values, which a schema cannot list (reviewed); the SE-0295 shape for any other.
    mutating func enumField(named name: String, _ decl: SwiftDeclarations.TypeDecl) -> Field {
        reviewUnsettled(decl)
        let coding = Self.rawCoding(of: decl)
        var strings: [String] = []
        var integers: [Int] = []
        var numbers: [Double] = []
        var named: [String: Value] = [:]
        defer { caseValues[decl.name] = named }
        for member in decl.members {
            guard let cases = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in cases.elements {
                let listed = strings.count &+ integers.count &+ numbers.count
                defer {
                    // The value this case listed, if it listed one (a raw value not read lists none).
                    if strings.count &+ integers.count &+ numbers.count > listed {
                        named[Self.name(element.name)] = strings.last.map(Value.string) ?? integers.last.map(Value.int) ?? numbers.last.map(Value.double)
                    }
                }
                switch coding {
                case .strings?:
                    if let value = element.rawValue?.value {
                        guard let string = stringLiteral(value, file: decl.file) else { continue }
                        strings.append(string)
                    } else {
                        strings.append(Self.name(element.name))
                    }
                case .integers?:
                    if let value = element.rawValue?.value {
                        guard let integer = Self.integerLiteral(value) else {
                            review("enum \(decl.name)'s raw value \(value.trimmedDescription) is not an integer literal this import reads", at: value, file: decl.file)
                            continue
                        }
                        integers.append(integer)
                    } else if let previous = integers.last {
                        // Swift numbers a case without a raw value one past the case before; past
                        // `Int.max` it has none, and the type does not compile.
                        guard previous < Int.max else {
                            review("enum \(decl.name)'s case \(Self.name(element.name)) follows the raw value \(Int.max), the largest an Int "
                                   + "holds: Swift gives it no raw value, and the type does not compile", at: element, file: decl.file)
                            continue
                        }
                        integers.append(previous + 1)
                    } else {
                        integers.append(0)
                    }
                case .numbers?:
                    if let value = element.rawValue?.value {
                        guard let number = Self.numberLiteral(value) else {
                            review("enum \(decl.name)'s raw value \(value.trimmedDescription) is not a number literal this import reads", at: value, file: decl.file)
                            continue
                        }
                        numbers.append(number)
                    } else {
                        numbers.append(numbers.last.map { $0 + 1 } ?? 0)
                    }
                case nil:
                    break
                }
            }
        }
        switch coding {
        case .strings?:
            return ownDecoding(of: decl, Field(name: name, type: .enumeration(.strings(strings))), cases: named)
        case .integers?:
            return ownDecoding(of: decl, Field(name: name, type: .enumeration(.integers(integers))), cases: named)
        case .numbers(let format)?:
            return numberEnumField(named: name, decl, values: numbers, format: format)
        case nil:
            review(Self.se0295Review(decl), at: decl.node, file: decl.file)
            return se0295Field(named: name, decl)
        }
    }

    /// An enum in SE-0295's shape as near as a schema comes to it: an object whose fields are
    /// the cases, each optional, each an object of its associated values by label (`_0`, `_1`
    /// where unlabeled). The app takes exactly one case key; the object takes none or several
    /// too (the review says so), but checks what each case holds. An enum that holds itself, or
    /// one nested past what a schema file holds, is an object without fields.
    mutating func se0295Field(named name: String, _ decl: SwiftDeclarations.TypeDecl) -> Field {
        let key = "enum " + decl.name
        guard !reading.contains(key), depth + 4 <= Self.deepestField else { return Field(name: name, type: .object(fields: [])) }
        reading.insert(key)
        depth += 4
        defer {
            reading.remove(key)
            depth -= 4
        }
        var cases: [Field] = []
        for member in decl.members {
            for element in member.decl.as(EnumCaseDeclSyntax.self)?.elements ?? [] {
                let caseName = Self.name(element.name)
                // Cases overloaded by their labels get no synthesized Codable: the first is kept.
                guard !cases.contains(where: { $0.name == caseName }) else { continue }
                var values: [Field] = []
                for (index, parameter) in (element.parameterClause?.parameters).map(Array.init)?.enumerated() ?? [].enumerated() {
                    let written = parameter.firstName.map { Self.name($0) }
                    let label = written == nil || written == "_" ? "_\(index)" : written ?? ""
                    values.append(field(named: label, type: parameter.type, scope: decl.name, file: decl.file))
                }
                var entry = Field(name: caseName, type: .object(fields: values))
                entry.isOptional = true
                cases.append(entry)
            }
        }
        return Field(name: name, type: .object(fields: cases))
    }

    /// `field`, an enum of `decl`'s raw values, as `decl`'s own `init(from:)` decodes it, if it
    /// has one (`EnumInitializer`): a `fallback` for any other raw value, refusing a value of
    /// another type; reviewed where the import does not read it. `cases` holds each case's value.
    mutating func ownDecoding(of decl: SwiftDeclarations.TypeDecl, _ field: Field, cases: [String: Value]) -> Field {
        let members = decl.members.map { ($0, decl.file) } + decl.extensionMembers.flatMap { block in block.members.map { ($0, block.file) } }
        guard let (initializer, file) = members.lazy.compactMap({ member, file in
            member.decl.as(InitializerDeclSyntax.self).flatMap { DecodingInitializer.isDecodable($0) ? ($0, file) : nil }
        }).first else { return field }
        let rawType = decl.inherited.first.map { String($0.split(separator: ".").last ?? "") } ?? ""
        switch EnumInitializer.read(initializer, enumName: decl.name.split(separator: ".").last.map(String.init) ?? decl.name) {
        case .success(let read) where [rawType, "RawValue", "Self.RawValue", "\(decl.name).RawValue"].contains(read.rawType):
            guard let fallback = cases[read.fallbackCase] else {
                initializersUnread += 1
                review("enum \(decl.name)'s init(from:) falls back to .\(read.fallbackCase), which is not a case this import reads; "
                       + "it is written as its raw values", at: initializer, file: file)
                return field
            }
            initializersRead += 1
            var field = field
            field.fallback = fallback
            field.rejectsInvalid = true
            field.documentation = "\(decl.name)'s init(from:) reads its raw value and takes .\(read.fallbackCase) for any other; "
                + "a value of another type is refused."
            return field
        case .success(let read):
            initializersUnread += 1
            review("enum \(decl.name)'s init(from:) reads a \(read.rawType), not its raw type \(rawType); it is written as its raw values",
                   at: initializer, file: file)
        case .failure(let unread):
            initializersUnread += 1
            review("enum \(decl.name) has its own init(from:), which the import reads only as Enum(rawValue: decode(…)) ?? .case: "
                   + "\(unread.reason); it is written as synthesized Codable reads it, its raw values only", at: unread.node, file: file)
        }
        return field
    }

    /// The one finding for an enum synthesized `Codable` writes in SE-0295's shape: why (its
    /// associated values, a raw type the standard library does not write, or no raw type) and
    /// what the app decodes, each case named.
    static func se0295Review(_ decl: SwiftDeclarations.TypeDecl) -> String {
        let elements = decl.members.flatMap { $0.decl.as(EnumCaseDeclSyntax.self)?.elements.map { $0 } ?? [] }
        let why: String
        if elements.contains(where: { $0.parameterClause != nil }) {
            why = "has associated values"
        } else if elements.contains(where: { $0.rawValue != nil }) {
            why = "has the raw type \(decl.inherited.first ?? ""), whose raw values synthesized Codable does not write (only String, integer, Double and Float ones)"
        } else {
            why = "has no String, integer, Double or Float raw values"
        }
        let shapes = elements.map(se0295Shape)
        let listed = shapes.count > 1 ? "one of " + shapes.joined(separator: ", ") : shapes.joined()
        return "enum \(decl.name) \(why): the app decodes \(listed) (SE-0295), exactly one case key; a schema states it as an object "
            + "of the cases, each optional, which checks what a case holds but takes none or several of them"
    }

    /// A case as SE-0295 writes it: `{"case": {"label": …, "_1": …}}`, unlabeled values by their
    /// position, `{"case": {}}` for a case without values.
    static func se0295Shape(_ element: EnumCaseElementSyntax) -> String {
        let parameters = element.parameterClause?.parameters.enumerated().map { index, parameter -> String in
            let written = parameter.firstName.map { Self.name($0) }
            let label = written == nil || written == "_" ? "_\(index)" : written ?? ""
            return "\"\(label)\": …"
        } ?? []
        return "{\"\(name(element.name))\": {\(parameters.joined(separator: ", "))}}"
    }

    /// An enum of `Double` or `Float` raw values: the app decodes a number, only one of them. A
    /// schema lists only string and integer values, so it is a `double` bounded by the least and
    /// the greatest, the values in its description, and a review.
    mutating func numberEnumField(named name: String, _ decl: SwiftDeclarations.TypeDecl, values: [Double], format: Field.NumberFormat?) -> Field {
        var field = Field(name: name, type: .double)
        field.constraints.minimum = values.min()
        field.constraints.maximum = values.max()
        if let format { field.setNumberFormat(format) }
        let listed = values.map(SchemaYAMLWriter.number).joined(separator: ", ")
        field.documentation = "One of \(listed): the raw values of enum \(decl.name)."
        review("enum \(decl.name) has \(format == .float ? "Float" : "Double") raw values: the app decodes a number, only \(listed); "
               + "a schema lists no such values, so '\(name)' is a double from the least to the greatest, and lint passes the numbers between that the app drops",
               at: decl.node, file: decl.file)
        return field
    }

    /// How synthesized `Codable` writes an enum's raw values: the standard library writes the raw
    /// value of a `String`, integer, `Double` or `Float` raw type (its `RawRepresentable`
    /// conformances), and of no other (a `Character` or `CGFloat` raw type is written in the
    /// SE-0295 shape, as an enum without raw values).
    enum RawCoding: Equatable {
        case strings, integers
        /// `Double` or `Float` (its format) raw values.
        case numbers(Field.NumberFormat?)
    }

    /// The raw types whose raw values the standard library writes (its `RawRepresentable`
    /// `Codable` conformances): `String`, the integers, `Double` and `Float`, and their aliases.
    /// What each is in a schema is its entry in `leaves`.
    static let writtenRawTypes: Set<String> = [
        "String", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float64", "TimeInterval", "Float", "Float32",
    ]

    /// An enum's raw coding, from the first type it inherits; `nil` when it is none of them.
    static func rawCoding(of decl: SwiftDeclarations.TypeDecl) -> RawCoding? {
        guard let first = decl.inherited.first else { return nil }
        let written = first.hasPrefix("Swift.") || first.hasPrefix("Foundation.") ? String(first.split(separator: ".").last ?? "") : first
        guard writtenRawTypes.contains(written), let leaf = leaves[written] else { return nil }
        switch leaf.type {
        case .string: return .strings
        case .int: return .integers
        default: return .numbers(leaf.format)
        }
    }

    /// A number literal's value, integer or floating-point, with a leading `-`.
    static func numberLiteral(_ expression: ExprSyntax) -> Double? {
        if let integer = integerLiteral(expression) { return Double(integer) }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
           let magnitude = prefix.expression.as(FloatLiteralExprSyntax.self)?.representedLiteralValue {
            return -magnitude
        }
        return expression.as(FloatLiteralExprSyntax.self)?.representedLiteralValue
    }

    /// What a dictionary that a map does not state is on the wire: synthesized `Codable`
    /// writes one keyed by neither `String` nor `Int` as a flat `[key, value, key, value, …]`
    /// array, which a schema cannot state.
    static func dictionaryReview(_ name: String, key: TypeSyntax) -> String {
        return "'\(name)' is a dictionary, which the app decodes from a flat [key, value, key, value, …] array (its keys are "
            + "\(key.trimmedDescription), not String or Int); a schema cannot state that, so it is written as an empty object"
    }

    /// An identifier as the compiler reads it: `` `default` `` is `default`.
    static func name(_ token: TokenSyntax) -> String {
        let text = token.text
        return text.count >= 2 && text.hasPrefix("`") && text.hasSuffix("`") ? String(text.dropFirst().dropLast()) : text
    }

    /// A string literal's value, escapes read (`"h\u{69}"` is `hi`); anything else is marked
    /// for review and is `nil`.
    mutating func stringLiteral(_ expression: ExprSyntax, file: String) -> String? {
        if let literal = expression.as(StringLiteralExprSyntax.self), let value = literal.representedLiteralValue { return value }
        review("\(expression.trimmedDescription) is not a string literal this import reads", at: expression, file: file)
        return nil
    }

    /// An integer literal's value, in any base, with `_` separators and a leading `-`.
    /// An `Int` literal's value, with a leading `-` or `+` (`-9223372036854775808`, whose
    /// magnitude no `Int` holds, is `Int.min`).
    static func integerLiteral(_ expression: ExprSyntax) -> Int? {
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), ["-", "+"].contains(prefix.operator.text),
           let literal = prefix.expression.as(IntegerLiteralExprSyntax.self), let magnitude = magnitude(of: literal) {
            if prefix.operator.text == "+" { return Int(exactly: magnitude) }
            return magnitude == Int.min.magnitude ? Int.min : Int(exactly: magnitude).map { -$0 }
        }
        return expression.as(IntegerLiteralExprSyntax.self)?.representedLiteralValue
    }

    /// An integer literal as a schema's value: `Value.uint` past `Int.max`, a `UInt64`'s
    /// (`?? 18446744073709551615`), which only a `format: uint64` field takes.
    static func integerValue(_ expression: ExprSyntax) -> Value? {
        if let int = integerLiteral(expression) { return .int(int) }
        return expression.as(IntegerLiteralExprSyntax.self).flatMap(magnitude).map(Value.uint)
    }

    /// An integer literal's digits, in any base and with `_` separators, as a `UInt64`.
    private static func magnitude(of literal: IntegerLiteralExprSyntax) -> UInt64? {
        var digits = Substring(literal.literal.text.filter { $0 != "_" })
        var radix = 10
        for (prefix, base) in [("0x", 16), ("0o", 8), ("0b", 2)] where digits.hasPrefix(prefix) {
            digits = digits.dropFirst(2)
            radix = base
        }
        return UInt64(digits, radix: radix)
    }

    /// `T` of `T?`, `T!` and `Optional<T>`.
    static func optionalWrapped(_ type: TypeSyntax) -> TypeSyntax? {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return unwrapped.wrappedType }
        let (base, arguments) = named(type)
        return base == "Optional" && arguments.count == 1 ? arguments[0] : nil
    }

    /// The element of a type that decodes from a JSON array of its elements: `[T]`, `Array<T>`,
    /// `ContiguousArray<T>`, `ArraySlice<T>`, `Set<T>` (a `Set` keeps one of equal ones).
    static func elementType(of type: TypeSyntax) -> TypeSyntax? {
        if let array = type.as(ArrayTypeSyntax.self) { return array.element }
        let (base, arguments) = named(type)
        return ["Array", "ContiguousArray", "ArraySlice", "Set"].contains(base) && arguments.count == 1 ? arguments[0] : nil
    }

    /// A dictionary type's key and value: `[K: V]`, `Dictionary<K, V>`.
    static func keyAndValueTypes(of type: TypeSyntax) -> (TypeSyntax, TypeSyntax)? {
        if let dictionary = type.as(DictionaryTypeSyntax.self) { return (dictionary.key, dictionary.value) }
        let (base, arguments) = named(type)
        return base == "Dictionary" && arguments.count == 2 ? (arguments[0], arguments[1]) : nil
    }

    /// A named type's last name component (`Foundation.Date` is `Date`) and generic arguments.
    static func named(_ type: TypeSyntax) -> (base: String, arguments: [TypeSyntax]) {
        func arguments(_ clause: GenericArgumentClauseSyntax?) -> [TypeSyntax] {
            clause?.arguments.compactMap { argument in
                if case .type(let type) = argument.argument { return type }
                return nil
            } ?? []
        }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return (identifier.name.text, arguments(identifier.genericArgumentClause))
        }
        if let member = type.as(MemberTypeSyntax.self) {
            let base = member.baseType.trimmedDescription
            let name = ["Swift", "Foundation"].contains(base) ? member.name.text : base + "." + member.name.text
            return (name, arguments(member.genericArgumentClause))
        }
        return (type.trimmedDescription, [])
    }

    /// Leaf types that are strings of a format (`format: uuid`): JSONDecoder's default
    /// strategies read `Data` as base64.
    static let formattedStrings: [String: Field.StringFormat] = ["UUID": .uuid, "Data": .base64]

    /// The leaf types and what a schema makes of them: every number width as its `format`
    /// (`Int` and `Int64` are what an `int` field holds; `Double`, `CGFloat` and `Decimal` what
    /// a `double` holds). The standard library's and Foundation's aliases of them are leaves too:
    /// `TimeInterval` and `Float64` are `Double`, `Float32` is `Float`.
    static let leaves: [String: (type: FieldType, format: Field.NumberFormat?)] = [
        "String": (.string, nil), "Substring": (.string, nil), "Bool": (.bool, nil),
        "Double": (.double, nil), "CGFloat": (.double, nil), "Float": (.double, .float), "Decimal": (.double, .decimal),
        "TimeInterval": (.double, nil), "Float64": (.double, nil), "Float32": (.double, .float),
        "Date": (.date, nil), "URL": (.url, nil),
        "Int": (.int, nil), "Int64": (.int, nil), "Int32": (.int, .int32), "Int16": (.int, .int16), "Int8": (.int, .int8),
        "UInt": (.int, .uint64), "UInt64": (.int, .uint64), "UInt32": (.int, .uint32), "UInt16": (.int, .uint16), "UInt8": (.int, .uint8),
    ]
}

/// Syntax errors in a parsed tree, each with its place: what the parser skipped and what it
/// had to assume.
///
/// swift-syntax's `ParseDiagnosticsGenerator` words these better, but it traps on some inputs
/// ("A Fix-It must have at least one change associated with it", swift-syntax 603; found by
/// FuzzSwiftImport), and an import must never crash on a file. This reads the tree the parser
/// built, which is complete even for broken source.
final class SyntaxProblems: SyntaxVisitor {
    private var problems: [(position: AbsolutePosition, message: String)] = []
    private let limit: Int

    private init(limit: Int) {
        self.limit = limit
        super.init(viewMode: .all)
    }

    /// The first `limit` problems of `tree`, in source order.
    static func first(_ limit: Int, in tree: some SyntaxProtocol) -> [(position: AbsolutePosition, message: String)] {
        let visitor = SyntaxProblems(limit: limit)
        visitor.walk(tree)
        return visitor.problems
    }

    override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
        guard problems.count < limit else { return .skipChildren }
        problems.append((node.positionAfterSkippingLeadingTrivia, "unexpected code '\(ValueText.clipped(node.trimmedDescription))'"))
        return .skipChildren
    }

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        guard problems.count < limit else { return .skipChildren }
        if token.tokenKind == .endOfFile, let position = Self.unterminatedComment(in: token) {
            problems.append((position, "a '/*' comment is never closed with '*/'"))
        }
        guard token.presence == .missing else { return .skipChildren }
        problems.append((token.positionAfterSkippingLeadingTrivia, "expected \(Self.expected(token))"))
        return .skipChildren
    }

    /// Where a block comment that is never closed starts, if the file has one. Such a comment
    /// runs to the end of the file, so it is in the trivia before the end-of-file token.
    static func unterminatedComment(in tree: SourceFileSyntax) -> AbsolutePosition? {
        unterminatedComment(in: tree.endOfFileToken)
    }

    private static func unterminatedComment(in endOfFile: TokenSyntax) -> AbsolutePosition? {
        // A comment on the last line may be the last token's trailing trivia instead.
        let before = endOfFile.previousToken(viewMode: .sourceAccurate)
        let places = [(before?.endPositionBeforeTrailingTrivia, before?.trailingTrivia), (endOfFile.position, endOfFile.leadingTrivia)]
        for case let (start?, trivia?) in places {
            var position = start
            for piece in trivia {
                switch piece {
                case .blockComment(let text), .docBlockComment(let text):
                    if !isClosed(text) { return position }
                default:
                    break
                }
                position = position.advanced(by: piece.sourceLength.utf8Length)
            }
        }
        return nil
    }

    /// Whether a block comment's text ends where its outermost `/*` is closed (Swift's block
    /// comments nest: `/* /* */` is still open).
    private static func isClosed(_ text: String) -> Bool {
        var depth = 0
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if previous == UInt8(ascii: "/"), byte == UInt8(ascii: "*") {
                depth += 1
                previous = 0
            } else if previous == UInt8(ascii: "*"), byte == UInt8(ascii: "/") {
                depth -= 1
                previous = 0
            } else {
                previous = byte
            }
        }
        return depth <= 0
    }

    /// What a missing token stood for: its text (`'}'`), or the kind of node it holds the place
    /// of (`type`, `expression`).
    private static func expected(_ token: TokenSyntax) -> String {
        if let parent = token.parent, parent.kind.isMissing {
            let name = "\(parent.kind)".replacingOccurrences(of: "missing", with: "")
            return name.isEmpty ? "code" : name.lowercased()
                .replacingOccurrences(of: "expr", with: "expression").replacingOccurrences(of: "decl", with: "declaration")
        }
        return token.text.isEmpty ? "a name" : "'\(token.text)'"
    }
}

extension SourcePosition {
    /// swift-syntax's location of a node or token: both count UTF-8 bytes, lines and columns from 1.
    init(_ location: SourceLocation) {
        self.init(offset: location.offset, line: location.line, column: location.column)
    }
}
