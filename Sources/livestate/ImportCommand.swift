import ArgumentParser
import Foundation
import LiveState
import LiveStateTooling
import LiveStateImport
import LiveStateYAML

/// `livestate import swift`: the shipped app's `ContentState` as a schema version, a strict
/// client when the app decodes it with synthesized `Codable`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a schema version from the source an app shipped with.",
        subcommands: [SwiftImportCommand.self]
    )
}

struct SwiftImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swift",
        abstract: "Read Swift files (or folders of them) and write the schema version their Codable accepts.",
        discussion: """
            Finds each type conforming to ActivityAttributes (on its declaration or an extension), \
            its ContentState (nested, or a typealias) and its stored properties, and writes one \
            version: a strict client when synthesized Codable decodes it. An init(from:) of its \
            own that reads each key with decode or decodeIfPresent is read: its keys, what is \
            required or optional, and its ?? defaults. What a parse cannot settle (any other \
            init(from:), a property wrapper, a type not in the files) is reported as needs-review \
            with its position. Exit status: 0 imported, 3 imported with needs-review findings, 2 \
            on syntax errors, unreadable files, or no ActivityAttributes type.
            """
    )

    @Argument(help: "Swift files, or folders searched for *.swift; - reads standard input.")
    var sources: [String]

    @Option(help: "Write the schema here instead of standard output.")
    var output: String?

    @Option(help: "The schema id (default: the --output file's stem, or the attributes type's name, lower-cased and hyphenated).")
    var activity: String?

    @Option(name: .customLong("append-to"), help: "Append the imported version to this schema file, as its next version (a strict client when synthesized Codable decodes it).")
    var appendTo: String?

    @Option(name: .customLong("attributes-type"), help: "Import this ActivityAttributes type when the files hold several.")
    var attributesType: String?

    /// The largest Swift file read.
    static let maxFileBytes = 8 << 20

    func run() throws {
        let (files, problems) = Self.read(sources)
        // Nothing read: the files' own errors say why, without "no type in" no files.
        if files.isEmpty, !problems.isEmpty {
            Output.printText(problems)
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        var diagnostics = problems
        let result = SwiftImporter.importActivities(files)
        // Two types that hold the same type each review it: one line for each finding.
        var seen = Set<Diagnostic>()
        diagnostics += result.diagnostics.filter { seen.insert($0).inserted }
        let chosen = result.activities.filter { attributesType == nil || $0.attributesType == attributesType }
        if chosen.count > 1 {
            Output.printText(diagnostics)
            Output.err("the files hold several ActivityAttributes types (\(chosen.map(\.attributesType).joined(separator: ", "))); pick one with --attributes-type")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        guard let imported = chosen.first, !diagnostics.contains(where: { $0.severity == .error }) else {
            Output.printText(diagnostics)
            if let attributesType, !result.activities.isEmpty {
                Output.err("no ActivityAttributes type named \(attributesType) (found \(result.activities.map(\.attributesType).joined(separator: ", ")))")
            }
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        // Only the imported type's findings: another type's reviews say nothing of this schema,
        // and the exit status is this type's.
        Output.printText(imported.reviews)
        let source = sources.map(Output.displayName).joined(separator: " ")
        let text: String
        let target: String
        // A folder is refused before its name is taken for the activity's id.
        if let output {
            do throws(InputError) { try Output.refuseFolder(output) } catch {
                throw Output.stop([error.diagnostic], format: .text)
            }
        }
        if let appendTo {
            text = try Self.appended(imported, to: appendTo, source: source)
            target = output ?? appendTo
        } else {
            // A schema file's activity is its stem: written to a file, the id is the file's.
            let id = activity ?? output.flatMap(SchemaLoader.activityID(forFile:)) ?? Self.id(for: imported.attributesType)
            text = SchemaYAMLWriter.schema(activity: id, imported, source: source)
            target = output ?? "-"
        }
        // What is written must load: the import states nothing the loader refuses.
        do {
            _ = try SchemaLoader().load(yaml: Array(text.utf8), file: target == "-" ? "-" : target)
        } catch {
            Output.printText(error.diagnostics)
            Output.err(appendTo == nil
                ? "the schema imported from \(source) does not load (the positions above "
                    + "are in the YAML it would have written\(target == "-" ? ", to standard output" : " to \(target)")); nothing was written"
                : "\(Output.displayName(appendTo ?? "")) with the imported version appended does not load (the positions above are in that "
                    + "text, past the file's end for the appended lines); nothing was written")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        if target == "-" {
            Output.write(Data(text.utf8))
        } else {
            do throws(InputError) {
                try Output.write(text, toFile: target)
            } catch {
                throw Output.stop([error.diagnostic], format: .text)
            }
        }
        if !imported.reviews.isEmpty { throw ExitCode(3) }
    }

    /// `DeliveryAttributes` → `delivery`, `FoodOrderAttributes` → `food-order`; a run of capitals
    /// is one word (`HALiveActivityAttributes` → `ha-live`, `ETAAttributes` → `eta`).
    static func id(for typeName: String) -> String {
        var name = typeName
        for suffix in ["ActivityAttributes", "Attributes"] where name.hasSuffix(suffix) && name.count > suffix.count {
            name.removeLast(suffix.count)
            break
        }
        let characters = Array(name)
        var id = ""
        for (index, character) in characters.enumerated() {
            // A word starts at a capital after a lowercase letter or digit, or at the last
            // capital of a run that a lowercase letter follows (`HALive`: `ha`, `live`).
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if !previous.isUppercase || next?.isLowercase == true { id.append("-") }
            }
            id += character.lowercased()
        }
        return id
    }

    /// The schema file's text with the imported version appended as its next version, and that
    /// version listed among the strict clients when the app decodes it with synthesized `Codable`.
    static func appended(_ imported: SwiftImporter.Activity, to path: String, source: String) throws -> String {
        let schema = try Output.loadSchema(path, format: .text)
        let newest = schema.latest?.version ?? 0
        guard newest < Int.max else {
            let place = schema.latest?.position.map { ":\($0.line):\($0.column)" } ?? ""
            Output.err("\(path)\(place): error: the newest version is \(newest), the largest number a version can have: "
                + "there is no next one to append; number the versions from 1 [schema-version-order]")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        let number = newest + 1
        var text = try String(contentsOfFile: path, encoding: .utf8)
        if !text.hasSuffix("\n") { text += "\n" }
        var lines = text.components(separatedBy: "\n")
        let version = Self.indented(SchemaYAMLWriter.version(number, imported, source: source),
                                    like: schema.latest?.position.flatMap { Self.itemIndent(at: $0, in: lines) })
        guard imported.isSynthesized else { return text + version }
        let strict = (schema.strictClients + [number]).map(String.init).joined(separator: ", ")
        // A top-level key starts its line; the lines of a block scalar (a `description: |`) are
        // indented, so a `strict:` is looked for only among the lines of the `clients:` block,
        // up to the next top-level key, at the indentation the file gives it.
        let clients = lines.firstIndex { $0.hasPrefix("clients:") }
        let clientsEnd = clients.map { start in
            lines[(start + 1)...].firstIndex { line in line.first.map { !$0.isWhitespace && $0 != "#" } ?? false } ?? lines.count
        }
        if let clients, let clientsEnd,
           let index = lines[(clients + 1)..<clientsEnd].firstIndex(where: { $0.drop { $0 == " " }.hasPrefix("strict:") }) {
            lines[index] = String(lines[index].prefix { $0 == " " }) + "strict: [\(strict)]"
        } else if let clients, lines[clients].contains("strict") {
            lines[clients] = "clients: { strict: [\(strict)] }"
        } else if let index = lines.firstIndex(where: { $0.hasPrefix("versions:") }) {
            lines.insert(contentsOf: ["clients:", "  strict: [\(strict)]"], at: index)
        }
        return lines.joined(separator: "\n") + version
    }

    /// Where the versions list's items start and their keys stand in a schema's `lines`: the
    /// columns (from 0) of the `-` and of the key after it, read from the entry of a version
    /// at `position` (its first key); `nil` when the item is not written `- key` on one line.
    static func itemIndent(at position: SourcePosition, in lines: [String]) -> (dash: Int, key: Int)? {
        guard position.line >= 1, position.line <= lines.count else { return nil }
        let line = Array(lines[position.line - 1].utf8)
        let key = position.column - 1
        guard key > 0, key < line.count, let dash = line.firstIndex(where: { $0 != UInt8(ascii: " ") }), dash < key,
              line[dash] == UInt8(ascii: "-"), line[(dash + 1)..<key].allSatisfy({ $0 == UInt8(ascii: " ") }) else { return nil }
        return (dash, key)
    }

    /// A version entry as `SchemaYAMLWriter` writes it (`  - version: 2`, its keys at column 4),
    /// moved to the file's own layout (`    -   version: 2`, its keys at column 8): the items of
    /// one list stand at one indentation, or the file does not load.
    static func indented(_ entry: String, like layout: (dash: Int, key: Int)?) -> String {
        guard let layout, layout != (2, 4) else { return entry }
        let item = String(repeating: " ", count: layout.dash) + "-" + String(repeating: " ", count: layout.key - layout.dash - 1)
        let body = String(repeating: " ", count: layout.key)
        return entry.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            if line.hasPrefix("  - ") { return item + line.dropFirst(4) }
            if line.hasPrefix("    ") { return body + line.dropFirst(4) }
            return String(line)
        }.joined(separator: "\n")
    }

    /// Every Swift file named, folders searched (sorted, `.` entries skipped), each read whole
    /// with a size bound; what cannot be read is a `schema-io` error.
    static func read(_ paths: [String]) -> (files: [(path: String, source: String)], problems: [Diagnostic]) {
        var files: [(String, String)] = []
        var problems: [Diagnostic] = []
        func problem(_ path: String, _ message: String, at position: SourcePosition? = nil) {
            problems.append(Diagnostic(code: DiagnosticCode.schemaIO, severity: .error, message: message, file: path,
                                       position: position, scope: .schema))
        }
        func add(_ name: String, _ bytes: [UInt8]) {
            guard let source = String(validating: bytes, as: UTF8.self) else {
                let offset = UTF16Text.firstInvalidUTF8(in: bytes) ?? 0
                problem(name, "is not UTF-8 text, so not Swift source: byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) here "
                        + "starts no UTF-8 character", at: SourcePosition.locate(offset: offset, in: bytes))
                return
            }
            files.append((name, source))
        }
        for path in paths {
            if path == "-" {
                let input = InputFile.standardInput(limit: maxFileBytes)
                if input.bytes.count > maxFileBytes {
                    problem(input.name, "is over the limit of \(maxFileBytes) bytes for a Swift file")
                } else {
                    add(input.name, input.bytes)
                }
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                problem(path, "cannot read: no such file or directory")
                continue
            }
            var names = [path]
            if isDirectory.boolValue {
                let found = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
                names = found.filter { $0.hasSuffix(".swift") && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }.sorted()
                    .map { (path.hasSuffix("/") ? path : path + "/") + $0 }
                if names.isEmpty { problem(path, "is a folder with no .swift files") }
            }
            for name in names {
                // The size is checked before the file is read, as for schema and fleet files.
                let bytes: [UInt8]
                switch BoundedFileReader.read(name, maxBytes: maxFileBytes, kind: "Swift file") {
                case .success(let read): bytes = read
                case .failure(let error):
                    problem(name, error.message)
                    continue
                }
                add(name, bytes)
            }
        }
        return (files, problems)
    }
}
