import Dispatch
import Foundation
import LiveStateYAML
import Logging
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `livestate serve --watch`: reloads a `SchemaStore` when a schema or fleet file changes, as
/// SIGHUP does.
///
/// It polls: every `interval` it reads the size and modification time of every file the store
/// loads (the `*.yaml`/`*.yml` files of its folders, its fleet files) and reloads when any was
/// added, removed or changed. A symbolic link is followed to the file it leads to, whose path
/// counts too: a Kubernetes ConfigMap mounts `pizza.yaml -> ..data/pizza.yaml` with
/// `..data -> ..2026_11_01_12_00_00.123`, and updates by swapping the `..data` link. Polling
/// works the same on every file system and in every container, where file events do not always
/// arrive. A reload swaps the snapshot whole: requests in flight finish on the old generation,
/// and a file that does not load keeps the loaded set (reported on `/health`).
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
            let changed = Self.changedFiles(from: seen, to: now)
            seen = now
            logger.info("schema files changed: reloading", metadata: [
                "paths": "\(store.paths.joined(separator: ","))", "changed": "\(changed)",
            ])
            await store.reloadOnADispatchThread(logger: logger)
        }
    }

    /// Each watched file's path, the path its links lead to, and that file's size and
    /// modification time, sorted by path: the files a reload reads, listed as the loaders list them.
    static func fingerprint(of store: SchemaStore) -> [String] {
        var files = SchemaLoader.files(named: store.paths)
        if let fleetPath = store.fleetPath {
            files += SchemaSnapshot.fleetFiles(at: fleetPath).map(\.file)
        }
        return files.sorted().map { path in
            let target = resolved(path)
            let attributes = try? FileManager.default.attributesOfItem(atPath: target)
            let size = (attributes?[.size] as? NSNumber)?.intValue ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            return "\(path)\t\(target)\t\(size)\t\(modified)"
        }
    }

    /// The files added, removed or changed between two fingerprints, for the log: the first
    /// five paths, and how many more.
    static func changedFiles(from old: [String], to new: [String]) -> String {
        let paths = Set(old).symmetricDifference(new).map { String($0.prefix { $0 != "\t" }) }
        let sorted = Set(paths).sorted()
        let listed = sorted.prefix(5).joined(separator: ",")
        return sorted.count > 5 ? listed + " and \(sorted.count - 5) more" : listed
    }

    /// `path` with every symbolic link in it followed, or `path` itself when it leads nowhere.
    static func resolved(_ path: String) -> String {
        guard let target = realpath(path, nil) else { return path }
        defer { free(target) }
        return String(cString: target)
    }
}
