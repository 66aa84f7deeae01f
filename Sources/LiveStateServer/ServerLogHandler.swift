import Foundation
import Logging

/// Writes log lines to standard error, formatting metadata only when a line is written.
///
/// swift-log's `StreamLogHandler` formats all its metadata again each time a key is set, and
/// Hummingbird sets a request id on every request's logger: with this handler a request that
/// logs nothing costs nothing.
struct ServerLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    /// Creates a handler; `LOG_LEVEL` (trace … critical) overrides `info`.
    init(label: String) {
        self.label = label
        logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let error = event.error.map { " error=\($0)" } ?? ""
        let time = Date().formatted(.iso8601)
        let text = "\(time) \(event.level) \(label):\(fields.isEmpty ? "" : " " + fields) \(event.message)\(error)\n"
        FileHandle.standardError.write(Data(text.utf8))
    }
}
