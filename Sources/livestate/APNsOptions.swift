import ArgumentParser
import Dispatch
import Foundation
import LiveState
import LiveStateAPNs

extension APNsEnvironment: EnumerableFlag {}

/// The credentials and hosts `send` and `channels` share.
struct APNsOptions: ParsableArguments {
    @Option(help: "The APNs auth key file (AuthKey_KEYID.p8).")
    var key: String

    @Option(name: .customLong("key-id"), help: "The key's 10-character Key ID.")
    var keyID: String

    @Option(name: .customLong("team-id"), help: "The 10-character Team ID.")
    var teamID: String

    @Option(help: "The app's bundle id; the .push-type.liveactivity suffix is added (and checked if given).")
    var topic: String

    /// `--sandbox` or `--production`, as given. Optional so that `validate()`, not the parser,
    /// says that one is missing: the parser would name `--sandbox` as if it took a value.
    @Flag(help: "The environment, one of them required: --sandbox for Xcode builds, --production for TestFlight and the App Store.")
    var givenEnvironment: APNsEnvironment?

    /// The environment; `validate()` has made sure that one was given.
    var environment: APNsEnvironment { givenEnvironment ?? .sandbox }

    /// How the usage lines of `send` and `channels` write these options: the environment as
    /// the one choice it is, which the generated line shows as two flags both required.
    static let synopsis = "--key <key> --key-id <key-id> --team-id <team-id> --topic <topic> (--sandbox | --production)"

    @Option(name: .customLong("apns-host"), help: ArgumentHelp("Send pushes to HOST:PORT instead of Apple's host (a proxy or a test server); sandbox=HOST:PORT or production=HOST:PORT for one environment (repeatable).", visibility: .hidden))
    var pushHosts: [HostPort] = []

    @Option(name: .customLong("manage-host"), help: ArgumentHelp("Send channel requests to HOST:PORT instead of Apple's host; sandbox= or production= as for --apns-host.", visibility: .hidden))
    var manageHosts: [HostPort] = []

    @Option(name: .customLong("trust-root"), help: ArgumentHelp("Trust only the certificates in this PEM file (a proxy's or a test server's).", visibility: .hidden))
    var trustRoot: String?

    @Option(parsing: .unconditional, help: "Seconds one attempt may wait for APNs's answer, from 1 to 300; making a connection may take 10 of them.")
    var timeout: Int = 30

    mutating func validate() throws {
        guard givenEnvironment != nil else {
            throw ValidationError("give the environment: --sandbox for Xcode builds, or --production for TestFlight and the App Store")
        }
        guard (1 ... 300).contains(timeout) else {
            throw ValidationError("--timeout must be a whole number of seconds from 1 to 300, not \(timeout)")
        }
    }

    /// The hosts, Apple's unless overridden.
    func endpoints(_ environment: APNsEnvironment) -> APNsEndpoints {
        var endpoints = APNsEndpoints.apple(environment)
        // An entry for this environment wins over one for both.
        func pick(_ hosts: [HostPort]) -> HostPort? {
            hosts.last { $0.environment == environment } ?? hosts.last { $0.environment == nil }
        }
        if let push = pick(pushHosts) { (endpoints.pushHost, endpoints.pushPort) = (push.host, push.port) }
        if let manage = pick(manageHosts) { (endpoints.manageHost, endpoints.managePort) = (manage.host, manage.port) }
        return endpoints
    }

    /// The key; a key that cannot be read stops the command with status 2.
    func providerKey(format: OutputFormat = .text) throws -> ProviderKey {
        do {
            return try ProviderKey(contentsOf: key, keyID: keyID, teamID: teamID)
        } catch {
            throw Output.stop([Diagnostic(code: "bad-provider-key", severity: .error, message: error.message, file: error.file)], format: format)
        }
    }

    /// The HTTP/2 transport.
    func transport(format: OutputFormat = .text) throws -> HTTPClientTransport {
        var roots: String?
        if let trustRoot {
            guard let text = try? String(contentsOfFile: trustRoot, encoding: .utf8) else {
                throw Output.stop([Diagnostic(code: "io-error", severity: .error, message: "cannot be read", file: trustRoot)], format: format)
            }
            roots = text
        }
        do {
            return try HTTPClientTransport(
                trustRootsPEM: roots, timeout: .seconds(Int64(timeout)), connectTimeout: .seconds(Int64(min(timeout, 10))))
        } catch {
            throw Output.stop([Diagnostic(code: "io-error", severity: .error, message: "no certificate in it: \(error)", file: trustRoot ?? "--trust-root")],
                              format: format)
        }
    }
}

/// `HOST:PORT`, or `sandbox=HOST:PORT` / `production=HOST:PORT` for one environment.
struct HostPort: ExpressibleByArgument {
    var environment: APNsEnvironment?
    var host: String
    var port: Int

    init?(argument: String) {
        var address = Substring(argument)
        if let equals = address.firstIndex(of: "=") {
            guard let environment = APNsEnvironment(rawValue: String(address[..<equals])) else { return nil }
            self.environment = environment
            address = address[address.index(after: equals)...]
        }
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]),
              (1...65535).contains(port), colon != address.startIndex else { return nil }
        host = String(address[..<colon])
        self.port = port
    }
}

/// Runs async work from a synchronous command and waits for its result.
enum Blocking {
    private final class Box<T>: @unchecked Sendable { var value: T? }

    static func run<T: Sendable>(_ operation: @escaping @Sendable () async -> T) -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await operation()
            done.signal()
        }
        done.wait()
        return box.value!
    }
}
