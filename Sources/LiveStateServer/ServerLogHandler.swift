import Foundation
@_spi(Scanner) import LiveState
import Logging

/// Writes log lines to standard error, formatting metadata only when a line is written: text
/// (`time level label: key=value … message`) or one JSON object per line (`time`, `level`,
/// `label`, `message`, then every metadata key), for log collectors. Times are UTC to the
/// millisecond. A text line stays one line: a control character in a value (a request's
/// decoded query, say) is written escaped (`\u{A}`, `\u{1B}`), as findings write one
/// (`Diagnostic.printable`), so a client cannot forge a line.
///
/// swift-log's `StreamLogHandler` formats all its metadata again each time a key is set, and
/// Hummingbird sets a request id on every request's logger: with this handler a request that
/// logs nothing costs nothing.
public struct ServerLogHandler: LogHandler {
    /// How lines are written.
    public enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    let label: String
    let format: Format
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]

    /// Creates a handler.
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - format: Text or JSON lines.
    ///   - level: The lowest level written; `nil` reads `LIVESTATE_LOG_LEVEL`, then `LOG_LEVEL`
    ///     (trace … critical), else `info`.
    public init(label: String, format: Format = .text, level: Logger.Level? = nil) {
        self.label = label
        self.format = format
        let environment = ProcessInfo.processInfo.environment
        logLevel = level ?? (environment["LIVESTATE_LOG_LEVEL"] ?? environment["LOG_LEVEL"]).flatMap(Logger.Level.init(rawValue:)) ?? .info
    }

    init(label: String) {
        self.init(label: label, format: .text)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        if format == .json {
            var members: [Value.Member] = [
                .init("time", .string(Self.now())), .init("level", .string(event.level.rawValue)),
                .init("label", .string(label)), .init("message", .string("\(event.message)")),
            ]
            for (key, value) in merged.sorted(by: { $0.key < $1.key }) { members.append(.init(key, .string("\(value)"))) }
            if let error = event.error { members.append(.init("error", .string("\(error)"))) }
            var writer = JSONWriter(capacity: 256)
            writer.write(.object(members))
            FileHandle.standardError.write(Data(writer.bytes + [UInt8(ascii: "\n")]))
            return
        }
        let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\(Diagnostic.printable("\($0.value)"))" }.joined(separator: " ")
        let error = event.error.map { " error=" + Diagnostic.printable("\($0)") } ?? ""
        let text = "\(Self.now()) \(event.level) \(label):\(fields.isEmpty ? "" : " " + fields) \(Diagnostic.printable("\(event.message)"))\(error)\n"
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// The time now, UTC, to the millisecond: `2026-12-06T20:02:49.123Z`.
    static func now() -> String {
        Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
