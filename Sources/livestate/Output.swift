import Foundation
import Glibc
@_spi(Scanner) import LiveState
import LiveStateYAML
import ArgumentParser

/// Printing to the standard streams and reading inputs, shared by every command.
enum Output {
    static func out(_ text: String) {
        write(Data((text + "\n").utf8))
    }

    static func err(_ text: String) {
        write(Data((text + "\n").utf8), toStandardError: true)
    }

    /// Writes bytes to standard output (or error). A write that fails, on a full disk or a
    /// closed descriptor, ends the command with an `io-error` on standard error and status 2,
    /// as `--output` to the same disk does, rather than trapping.
    static func write(_ data: Data, toStandardError: Bool = false) {
        let descriptor = toStandardError ? STDERR_FILENO : STDOUT_FILENO
        let failure: Int32? = data.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += count
            }
            return nil
        }
        guard let failure else { return }
        let stream = toStandardError ? "standard error" : "standard output"
        let message = "error: \(stream) cannot be written: \(String(cString: strerror(failure))) [io-error]\n"
        _ = message.withCString { Glibc.write(STDERR_FILENO, $0, strlen($0)) }
        exit(ExitStatus.usage.rawValue)
    }

    /// Prints diagnostics compiler-style, one line each: to standard error by default, to
    /// standard output for commands whose output is the diagnostics.
    static func printText(_ diagnostics: [Diagnostic], toStandardOutput: Bool = false) {
        guard !diagnostics.isEmpty else { return }
        let text = diagnostics.listed.map(\.description).joined(separator: "\n")
        if toStandardOutput { out(text) } else { err(text) }
    }

    /// Prints schema-load errors compiler style, each followed by its source line and a caret
    /// under the column, to standard output or standard error. The line is shown
    /// `Diagnostic.printable`, as the finding is (a control character in it, which the YAML
    /// reader refuses, reached the terminal), and the caret is placed by terminal columns
    /// (`TerminalColumns`), under the character the column starts.
    static func printWithSource(_ diagnostics: [Diagnostic], toStandardOutput: Bool = false) {
        var lines: [String] = []
        var sources: [String: [Substring]] = [:]
        for diagnostic in diagnostics.listed {
            lines.append(diagnostic.description)
            guard let file = diagnostic.file, let position = diagnostic.position else { continue }
            if sources[file] == nil {
                let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
                // A line ends at LF, CRLF (one `Character`, which a split on "\n" does not see)
                // or CR, as the YAML reader counts lines.
                sources[file] = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            }
            guard let source = sources[file], position.line >= 1, position.line <= source.count else { continue }
            let line = source[position.line - 1]
            // Columns count UTF-8 bytes; long lines show a window around the column.
            let bytes = Array(line.utf8)
            guard bytes.count <= 240, position.column >= 1, position.column <= bytes.count + 1 else { continue }
            // The line as shown, less the rest of it from the column as shown: what stands
            // before the column, escapes included.
            let shown = Diagnostic.printable(String(line)).unicodeScalars
            let rest = Diagnostic.printable(String(decoding: bytes.dropFirst(position.column - 1), as: UTF8.self)).unicodeScalars
            let before = String(String.UnicodeScalarView(shown.dropLast(min(rest.count, shown.count))))
            lines.append("    " + String(shown))
            lines.append("    " + TerminalColumns.blank(as: before) + "^")
        }
        guard !lines.isEmpty else { return }
        let text = lines.joined(separator: "\n")
        if toStandardOutput { out(text) } else { err(text) }
    }

    /// `{"diagnostics": [...]}` plus any other members, as one compact JSON document.
    static func jsonDocument(_ diagnostics: [Diagnostic], _ extra: [Value.Member] = []) -> String {
        var writer = JSONWriter()
        writer.write(.object(extra + [.init("diagnostics", .array(diagnostics.listed.map(\.jsonValue)))]))
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// `jsonDocument` whose first member, `name`, is JSON text kept as it was written (the body
    /// the encoder made, which a `Value` would change: `-0` would be `0`), `null` when empty.
    static func jsonDocument(_ diagnostics: [Diagnostic], verbatim name: String, _ json: [UInt8], _ extra: [Value.Member]) -> String {
        // The rest of the document as `jsonDocument` writes it, the verbatim member spliced in
        // after its opening brace.
        var writer = JSONWriter()
        writer.append("{")
        writer.writeString(name)
        writer.append(":" + (json.isEmpty ? "null" : String(decoding: json, as: UTF8.self)) + ",")
        return String(decoding: writer.bytes, as: UTF8.self) + jsonDocument(diagnostics, extra).dropFirst()
    }

    /// The exit status for a set of findings.
    static func status(_ diagnostics: [Diagnostic], failOn: Severity) -> ExitStatus {
        diagnostics.contains { $0.severity >= failOn } ? .findings : .clean
    }
}

/// A payload read from a file or standard input.
struct InputFile {
    /// The name to show in diagnostics: the path, or `<stdin>`.
    var name: String
    var bytes: [UInt8]

    /// Standard input, named `<stdin>`, read to one byte past `limit` (see `read(_:limit:)`).
    static func standardInput(limit: Int) -> InputFile {
        let data = (try? FileHandle.standardInput.read(upToCount: onePast(limit))) ?? Data()
        return InputFile(name: Output.displayName("-"), bytes: [UInt8](data))
    }

    /// Reads `path` (`-` is standard input), refusing directories; of a file or standard input
    /// over `limit` bytes, it reads one byte past the limit, so that the scanner reports the
    /// breach as `json-limit` (an endless input, `/dev/zero` or a pipe, is not read to its end).
    static func read(_ path: String, limit: Int) -> Result<InputFile, InputError> {
        if path == "-" { return .success(standardInput(limit: limit)) }
        // A link that leads nowhere (a loop) exists; the read says why it cannot be followed.
        var link = stat()
        guard FileManager.default.fileExists(atPath: path) || lstat(path, &link) == 0 else {
            return .failure(InputError(path: path, message: "no such file"))
        }
        // A folder is refused there ("is a directory, not a payload file"); a named pipe with no
        // writer reads as empty, rather than waiting for one for ever.
        switch BoundedFileReader.read(path, upTo: onePast(limit), kind: "payload file") {
        case .success(let bytes): return .success(InputFile(name: path, bytes: bytes))
        case .failure(let error): return .failure(InputError(path: path, message: error.message))
        }
    }

    /// One byte past `limit`, which tells an input over it; `Int.max` stays itself.
    static func onePast(_ limit: Int) -> Int {
        limit < Int.max ? max(0, limit) + 1 : Int.max
    }
}

extension Output {
    /// Writes `text` to the file `path` (an `--output`), replacing it: a regular file by a new
    /// one renamed over it (a reader never sees half of it). A symbolic link is written through,
    /// to its target (a schema kept elsewhere, linked into `schemas/`), and a device or a named
    /// pipe is written to as it is: renamed over, each became a regular file, and the link's
    /// target was left as it was, `/dev/null` stopped being a device, and `/dev/full` took the
    /// text (exit 0).
    /// - Throws: An `io-error` naming the path: for a folder, which holds no text, or for a
    ///   file that cannot be written, with the system's reason.
    static func write(_ text: String, toFile path: String) throws(InputError) {
        try refuseFolder(path)
        let target = URL(fileURLWithPath: try linkTarget(path))
        var status = stat()
        let exists = stat(target.path, &status) == 0
        let isRegular = !exists || status.st_mode & S_IFMT == S_IFREG
        do {
            try Data(text.utf8).write(to: target, options: isRegular ? .atomic : [])
        } catch {
            throw InputError(path: path, message: "cannot be written: \(error.localizedDescription)")
        }
        // The new file renamed over the old one keeps the old one's permissions (a schema kept
        // group-writable, or private), not the ones a new file gets.
        if exists && isRegular && chmod(target.path, status.st_mode & 0o7777) != 0 {
            throw InputError(path: path, message: "was written, but its permissions could not be kept: \(String(cString: strerror(errno)))")
        }
    }

    /// The file a path names once its symbolic links are followed, whether or not that file
    /// exists: a link to a file not made yet is written through too (resolved by the system, a
    /// link that led nowhere was replaced by a file).
    /// - Throws: An `io-error` for a loop of links, which leads to no file.
    static func linkTarget(_ path: String) throws(InputError) -> String {
        var current = path
        // As many links as the system follows in one path (`ELOOP` past it).
        for _ in 0 ..< 40 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            // A relative target is relative to the folder the link is in, as the system finds
            // that folder: through the links on the way to it (`lnk/out.json`, `lnk` a link).
            let folder = URL(fileURLWithPath: (current as NSString).deletingLastPathComponent).resolvingSymlinksInPath().path
            current = destination.hasPrefix("/") ? destination : folder + "/" + destination
        }
        throw InputError(path: path, message: "is a loop of symbolic links, which leads to no file: --output names the file to write")
    }

    /// Refuses an `--output` that is a folder, which `write(_:toFile:)` cannot replace.
    static func refuseFolder(_ path: String) throws(InputError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw InputError(path: path, message: "is a folder, not a file: --output names the file to write")
        }
        // `out/` names a folder even before it exists: writing there made a file named `out`.
        if path.hasSuffix("/") {
            throw InputError(path: path, message: "ends in '/', which names a folder, not a file: --output names the file to write")
        }
    }
}

extension InputFile {
    /// Reads `path` like `read(_:limit:)`; a file that cannot be read is printed and stops the
    /// command with status 2.
    static func readOrExit(_ path: String, limit: Int, format: OutputFormat) throws -> InputFile {
        switch read(path, limit: limit) {
        case .success(let file): return file
        case .failure(let error): throw Output.stop([error.diagnostic], format: format)
        }
    }
}

/// A file that could not be read.
struct InputError: Error, CustomStringConvertible {
    var path: String
    var message: String

    var diagnostic: Diagnostic {
        Diagnostic(code: "io-error", severity: .error, message: message, file: path)
    }

    var description: String { "\(path): error: \(message) [io-error]" }
}

extension Output {
    /// Loads one schema file (`-` is standard input, named `<stdin>`); on failure prints its
    /// diagnostics and exits 2.
    static func loadSchema(_ path: String, format: OutputFormat) throws -> Schema {
        do {
            return try loadSchema(path)
        } catch {
            throw stop(error.diagnostics, format: format, withSource: true)
        }
    }

    /// Loads one schema file, `-` being standard input (read to one byte past the loader's
    /// size limit, so that an endless input is refused as a file too large is).
    static func loadSchema(_ path: String) throws(SchemaLoadError) -> Schema {
        let loader = SchemaLoader()
        guard path == "-" else { return try loader.load(contentsOf: path) }
        let limit = loader.limits.maxFileBytes
        let input = InputFile.standardInput(limit: limit)
        if input.bytes.count > limit {
            // The input's size is not known, only that it is over.
            throw SchemaLoadError(diagnostics: [Diagnostic(
                code: "schema-io", severity: .error, message: "is more than \(limit) bytes, over the limit of \(limit) bytes for a schema file",
                file: input.name)])
        }
        return try loader.load(yaml: input.bytes, file: input.name)
    }

    /// The most `--max-bytes` may be: 1 GiB, a thousand times the default. A payload is at
    /// most 5 KB; a larger limit only lets an endless input (`/dev/zero`) take more memory.
    static let maxBytesCeiling = 1 << 30

    /// Refuses a `--max-bytes` below 1 byte or above `maxBytesCeiling`.
    static func checkMaxBytes(_ value: Int) throws {
        guard (1...maxBytesCeiling).contains(value) else {
            throw ValidationError("--max-bytes must be from 1 to \(maxBytesCeiling) (1 GiB), not \(value)")
        }
    }

    /// Refuses `-` named twice among a command's inputs (`--schema -` and a payload `-`):
    /// standard input can be read once.
    static func refuseStandardInputTwice(_ inputs: [String?]) throws {
        if inputs.filter({ $0 == "-" }).count > 1 {
            throw ValidationError("standard input can be read once: name - for one input only (the schema, a payload or the attributes)")
        }
    }

    /// The stop of a command that is left nothing to do (a schema that does not load, an input
    /// that cannot be read, a version the schema does not have): the findings as the command
    /// prints every outcome (in text, compiler style on standard error, a schema's with their
    /// source line; in JSON, the one document on standard output), and status 2 to throw.
    static func stop(_ diagnostics: [Diagnostic], format: OutputFormat, withSource: Bool = false, status: ExitStatus = .usage) -> ExitCode {
        switch format {
        case .text where withSource:
            printWithSource(diagnostics)
        case .text:
            // A finding of no file (a bad option) reads "error: …", not "<input>: error: …".
            err(diagnostics.listed.map { $0.file == nil && $0.position == nil ? Diagnostic.printable("\($0.severity.rawValue): \($0.shownMessage) [\($0.code)]") : $0.description }
                .joined(separator: "\n"))
        case .json:
            out(jsonDocument(diagnostics))
        }
        return ExitCode(status.rawValue)
    }

    /// `stop` for a version the schema file `schema` does not have.
    static func stopOnUnknownVersion(_ error: Diagnostic, schema: String, format: OutputFormat) -> ExitCode {
        stopOnUnknownVersion(error, schema: schema) { stop($0, format: format) }
    }

    /// `stopOnUnknownVersion(_:schema:format:)`, printed by `stop`, which returns the status to
    /// throw: for a command with formats of its own (`diff --format github`).
    static func stopOnUnknownVersion(_ error: Diagnostic, schema: String, stop: ([Diagnostic]) -> ExitCode) -> ExitCode {
        var error = error
        error.file = displayName(schema)
        return stop([error])
    }

    /// The name diagnostics give an input: its path, or `<stdin>` for `-`.
    static func displayName(_ path: String) -> String {
        path == "-" ? "<stdin>" : path
    }

    /// Reads every payload argument; a folder stands for the `*.json` files in it (sorted, not
    /// recursive). Unreadable ones become `io-error` diagnostics.
    static func readPayloads(_ paths: [String], limit: Int) -> (files: [InputFile], errors: [Diagnostic]) {
        var files: [InputFile] = []
        var errors: [Diagnostic] = []
        var expanded: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                expanded.append(path)
                continue
            }
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
                .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
            if names.isEmpty {
                errors.append(InputError(path: path, message: "is a folder with no .json files").diagnostic)
            }
            let folder = path.hasSuffix("/") ? path : path + "/"
            expanded += names.map { folder + $0 }
        }
        for path in expanded {
            switch InputFile.read(path, limit: limit) {
            case .success(let file): files.append(file)
            case .failure(let error): errors.append(error.diagnostic)
            }
        }
        return (files, errors)
    }
}
