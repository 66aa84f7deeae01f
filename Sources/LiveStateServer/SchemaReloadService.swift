import Dispatch
import Logging
import ServiceLifecycle
import UnixSignals

/// Reloads a `SchemaStore` on every SIGHUP until the service group shuts down.
///
/// Requests in flight keep the snapshot they started with; requests after the swap see the
/// new one. A reload that fails keeps the old snapshot and logs the errors.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public struct SchemaReloadService: Service {
    /// The store to reload.
    public let store: SchemaStore
    /// Where reloads are reported.
    public let logger: Logger

    /// Creates the service.
    /// - Parameters:
    ///   - store: The store to reload.
    ///   - logger: Where reloads are reported.
    public init(store: SchemaStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Waits for SIGHUP and reloads, until graceful shutdown.
    public func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        // Cancelled in a task group on graceful shutdown, rather than `cancelOnGracefulShutdown()`,
        // whose `merge` can deadlock against the task's lock when the group cancels it.
        let (store, logger) = (store, logger)
        await cancelWhenGracefulShutdown {
            for await _ in signals {
                logger.info("SIGHUP: reloading schemas", metadata: ["paths": "\(store.paths.joined(separator: ","))"])
                await store.reloadOnADispatchThread(logger: logger)
            }
        }
    }
}
