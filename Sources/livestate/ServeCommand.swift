import ArgumentParser
import Dispatch
import Foundation
import LiveState
import LiveStateServer

/// `livestate serve`: the HTTP validation sidecar.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve validation, encoding and compatibility checks over HTTP (JSON), on loopback by default.",
        discussion: """
            Endpoints: GET /health, GET /openapi.json, GET /v1/schemas, GET /v1/schemas/{id}/diff, \
            POST /v1/schemas/{id}/validate?version=N|all, POST /v1/schemas/{id}/encode?version=N. \
            Bodies over --max-body-bytes get 413. SIGHUP reloads the schemas; a reload that fails \
            keeps the schemas already loaded and logs why. SIGTERM and SIGINT stop the server after \
            the requests in flight. Exit status: 0 after a clean stop, 2 when the schemas do not \
            load or the address cannot be bound.
            """
    )

    @Option(help: "The address to listen on. The sidecar has no authentication: keep it on loopback.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(help: "The folder of schema files (*.yaml, *.yml), or one schema file.")
    var schemas = "schemas"

    @Option(help: "A folder of fleet files named by schema id (delivery.csv), or one such file: validate?version=all answers then give shares of devices. Reloaded with the schemas.")
    var fleet: String?

    @Option(name: .customLong("max-body-bytes"), help: "The largest request body accepted, in bytes.")
    var maxBodyBytes = 64 * 1024

    @Flag(help: "Print the OpenAPI document of the endpoints and exit.")
    var openapi = false

    @Flag(name: .customLong("echo-route"), help: .hidden)
    var echoRoute = false

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535, not \(port)")
        }
        guard maxBodyBytes > 0 else {
            throw ValidationError("--max-body-bytes must be positive, not \(maxBodyBytes)")
        }
    }

    func run() throws {
        if openapi {
            FileHandle.standardOutput.write(Data(OpenAPIDocument.json.utf8))
            return
        }
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
            Output.err("livestate serve needs macOS 15 or later")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        let store: SchemaStore
        do {
            store = try SchemaStore(paths: [schemas], fleetPath: fleet)
        } catch {
            Output.printText(error.diagnostics)
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        Output.printText(store.snapshot.warnings)
        if !["127.0.0.1", "localhost", "::1"].contains(host) {
            Output.err("warning: listening on \(host): the sidecar has no authentication")
        }
        let server = LiveStateServer(
            store: store,
            configuration: .init(host: host, port: port, maxBodyBytes: maxBodyBytes, echoRoute: echoRoute))
        let ids = store.snapshot.ids.joined(separator: ", ")
        let host = host
        // ArgumentParser runs this command synchronously; the server runs in a task until it stops,
        // on NIO's event loops rather than the cooperative pool (no thread hop per request).
        LiveStateServer.runTasksOnEventLoops()
        let stopped = DispatchSemaphore(value: 0)
        Task {
            do {
                try await server.run { port in
                    Output.err("livestate serve: listening on http://\(host):\(port) with schemas \(ids)")
                }
            } catch {
                Output.err("livestate serve: error: \(error)")
                Foundation.exit(ExitStatus.usage.rawValue)
            }
            stopped.signal()
        }
        stopped.wait()
    }
}
