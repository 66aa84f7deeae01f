import Dispatch
import Foundation
import LiveState
import LiveStateYAML
import Logging
import Synchronization

/// Holds the current `SchemaSnapshot` and swaps it whole on reload.
///
/// Readers take the snapshot under a lock that is held only to copy one reference, so a
/// request never waits for a reload. A reload loads every file into a new snapshot first and
/// swaps it in only if the load succeeded; on any error the old snapshot stays and the errors
/// are returned (and logged). Reloads run one at a time.
///
/// ```swift
/// let store = try SchemaStore(paths: ["schemas"])
/// let snapshot = store.snapshot          // immutable; keep it for the whole request
/// store.reload(logger: logger)           // on SIGHUP
/// ```
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public final class SchemaStore: Sendable {
    /// What a reload did.
    public enum ReloadOutcome: Sendable {
        /// The new snapshot is in place.
        case reloaded(SchemaSnapshot)
        /// The load failed; the snapshot that was current stays, and these are the errors.
        case kept(SchemaSnapshot, errors: [Diagnostic])

        /// The snapshot current after the reload.
        public var snapshot: SchemaSnapshot {
            switch self {
            case .reloaded(let snapshot), .kept(let snapshot, _): snapshot
            }
        }
    }

    /// The last reload's result, for `/health` and `/ready`.
    public struct ReloadStatus: Sendable {
        /// Whether the files loaded and the new snapshot is in place.
        public var succeeded: Bool
        /// The generation current after the reload.
        public var generation: Int
        /// When the reload ended.
        public var at: Date
        /// The errors of a reload that failed.
        public var errors: [Diagnostic]
    }

    /// The schema files and folders the store loads.
    public let paths: [String]
    /// The fleet file, or folder of them, loaded with the schemas.
    public let fleetPath: String?
    let loader: SchemaLoader
    private let current: Mutex<SchemaSnapshot>
    /// Held for the whole of a reload, so two reloads do not race; readers never take it.
    private let reloading = Mutex<Void>(())
    private let status = Mutex<ReloadStatus?>(nil)

    /// The last reload's result; `nil` before the first reload.
    public var lastReload: ReloadStatus? {
        status.withLock { $0 }
    }

    /// Loads the schemas for the first snapshot.
    /// - Parameters:
    ///   - paths: Schema files and folders.
    ///   - loader: The schema loader.
    ///   - fleetPath: A fleet file, or a folder of them named by schema id, loaded with the schemas.
    /// - Throws: `SchemaLoadError` when any schema or fleet file fails to load, two share an id,
    ///   or none is found.
    public convenience init(paths: [String], loader: SchemaLoader = .init(), fleetPath: String? = nil) throws(SchemaLoadError) {
        // Loaded before any stored property is set: a throwing designated initializer that
        // leaves a `Mutex` half-built crashes the 6.3 optimizer.
        let first = try SchemaSnapshot.load(from: paths, generation: 1, loader: loader, fleetPath: fleetPath)
        self.init(snapshot: first, paths: paths, loader: loader, fleetPath: fleetPath)
    }

    /// Serves a snapshot already loaded; `reload()` loads `paths` again.
    /// - Parameters:
    ///   - snapshot: The first snapshot.
    ///   - paths: Schema files and folders to load on reload.
    ///   - loader: The schema loader.
    ///   - fleetPath: The fleet file or folder to load on reload.
    public init(snapshot: SchemaSnapshot, paths: [String], loader: SchemaLoader = .init(), fleetPath: String? = nil) {
        self.paths = paths
        self.fleetPath = fleetPath
        self.loader = loader
        current = Mutex(snapshot)
    }

    /// The snapshot current now. Take it once per request and use it throughout.
    public var snapshot: SchemaSnapshot {
        current.withLock { $0 }
    }

    /// Loads the schema files again and swaps the new snapshot in if every file loaded.
    /// - Parameter logger: Where to report the outcome: one line on success, every error on failure.
    /// - Returns: Whether the snapshot changed, and the errors if not.
    @discardableResult
    public func reload(logger: Logger? = nil) -> ReloadOutcome {
        reloading.withLock { _ in
            let started = ContinuousClock.now
            let old = snapshot
            let outcome: ReloadOutcome
            do throws(SchemaLoadError) {
                let new = try SchemaSnapshot.load(from: paths, generation: old.generation + 1, loader: loader, fleetPath: fleetPath)
                current.withLock { $0 = new }
                outcome = .reloaded(new)
            } catch {
                outcome = .kept(old, errors: error.diagnostics)
            }
            let errors: [Diagnostic]
            if case .kept(_, let kept) = outcome { errors = kept } else { errors = [] }
            status.withLock { $0 = ReloadStatus(succeeded: errors.isEmpty, generation: outcome.snapshot.generation, at: Date(), errors: errors) }
            if let logger { Self.log(outcome, after: ContinuousClock.now - started, to: logger) }
            return outcome
        }
    }

    /// `reload(logger:)` for a task: reading and checking the files blocks, so it runs on a
    /// Dispatch thread, not on the event loop that runs the task (and serves requests).
    func reloadOnADispatchThread(logger: Logger) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.reload(logger: logger)
                done.resume()
            }
        }
    }

    private static func log(_ outcome: ReloadOutcome, after duration: Duration, to logger: Logger) {
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        switch outcome {
        case .reloaded(let snapshot):
            logger.info("schemas reloaded", metadata: [
                "generation": "\(snapshot.generation)", "schemas": "\(snapshot.ids.joined(separator: ","))",
                "ms": "\(Int(milliseconds.rounded()))",
            ])
            for warning in snapshot.warnings.listed { logger.warning("\(warning.line)", metadata: warning.logMetadata) }
        case .kept(let snapshot, let errors):
            logger.error("schema reload failed; keeping the loaded schemas", metadata: [
                "generation": "\(snapshot.generation)", "errors": "\(errors.count)",
            ])
            for error in errors.listed { logger.error("\(error.line)", metadata: error.logMetadata) }
        }
    }
}

extension Diagnostic {
    /// The finding's code and place as a log line's fields (`code`, `file`, `line`, `column`),
    /// beside its text: what a log query filters on.
    package var logMetadata: Logger.Metadata {
        var metadata: Logger.Metadata = ["code": "\(code)"]
        if let file { metadata["file"] = "\(file)" }
        if let position {
            metadata["line"] = "\(position.line)"
            metadata["column"] = "\(position.column)"
        }
        return metadata
    }
}
