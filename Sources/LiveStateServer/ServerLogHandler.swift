import Foundation
@_spi(Scanner) import LiveState
import Logging

/// Writes log lines to standard error, formatting metadata only when a line is written: text
/// (`time level label: key=value … message`) or one JSON object per line (`time`, `level`,
/// `label`, `message`, then every metadata key), for log collectors. Times are UTC to the
/// millisecond. A text line stays one line: a control character in a value (a request's
/// decoded query, say) is written escaped (`\n`, `\u{1B}`), so a client cannot forge a line.
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
        let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.oneLine("\($0.value)"))" }.joined(separator: " ")
        let error = event.error.map { " error=" + Self.oneLine("\($0)") } ?? ""
        let text = "\(Self.now()) \(event.level) \(label):\(fields.isEmpty ? "" : " " + fields) \(Self.oneLine("\(event.message)"))\(error)\n"
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// The time now, UTC, to the millisecond: `2026-12-06T20:02:49.123Z`.
    static func now() -> String {
        Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// `text` with its control characters escaped (`\n`, `\r`, `\t`, `\u{1B}`), so that it
    /// stays on one line; the text itself when it has none, as nearly every value does.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where isControl(scalar): escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// C0 and C1 controls, DEL, and the line and paragraph separators some viewers break on.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
