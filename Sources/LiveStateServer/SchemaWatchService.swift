import Dispatch
import Foundation
import Logging
import ServiceLifecycle

/// `livestate serve --watch`: reloads a `SchemaStore` when a schema or fleet file changes, as
/// SIGHUP does.
///
/// It polls: every `interval` it reads the size and modification time of every file the store
/// loads (the `*.yaml`/`*.yml` files of its folders, its fleet files) and reloads when any was
/// added, removed or changed. Polling works the same on every file system and in every
/// container, where file events do not always arrive. A reload swaps the snapshot whole:
/// requests in flight finish on the old generation, and a file that does not load keeps the
/// loaded set (reported on `/health`).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public struct SchemaWatchService: Service {
    /// The store to reload.
    public let store: SchemaStore
    /// How often the files are looked at.
    public let interval: Duration
    /// Where reloads are reported.
    public let logger: Logger

    /// Creates the service.
    /// - Parameters:
    ///   - store: The store to reload.
    ///   - interval: How often the files are looked at; one second by default.
    ///   - logger: Where reloads are reported.
    public init(store: SchemaStore, interval: Duration = .seconds(1), logger: Logger) {
        self.store = store
        self.interval = interval
        self.logger = logger
    }

    /// Polls until graceful shutdown.
    public func run() async throws {
        var seen = Self.fingerprint(of: store)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            let now = Self.fingerprint(of: store)
            guard now != seen else { continue }
            seen = now
            logger.info("schema files changed: reloading", metadata: ["paths": "\(store.paths.joined(separator: ","))"])
            await store.reloadOnADispatchThread(logger: logger)
        }
    }

    /// Each watched file's path, size and modification time, sorted by path.
    static func fingerprint(of store: SchemaStore) -> [String] {
        var files: [String] = []
        for path in store.paths {
            files += Self.files(at: path, extensions: [".yaml", ".yml"])
        }
        if let fleetPath = store.fleetPath {
            files += Self.files(at: fleetPath, extensions: [".csv", ".json", ".yaml", ".yml"])
        }
        return files.sorted().map { path in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            let size = (attributes?[.size] as? NSNumber)?.intValue ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            return "\(path)\t\(size)\t\(modified)"
        }
    }

    /// The file `path`, or the files of folder `path` with one of `extensions`.
    static func files(at path: String, extensions: [String]) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [path] }
        guard isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let prefix = path.hasSuffix("/") ? path : path + "/"
        return names.filter { name in !name.hasPrefix(".") && extensions.contains { name.hasSuffix($0) } }.map { prefix + $0 }
    }
}
