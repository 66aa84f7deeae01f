import Foundation

/// The built `livestate` binary, run from the package root with what it prints captured.
public enum LivestateBinary {
    /// The package's root folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where `swift build` put the running test bundle, and beside it the binary and the modules.
    public static var productsDirectory: URL {
        var directory = Bundle.main.bundleURL
        if directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
        return directory
    }

    /// The binary of the same build as the tests, or the debug build's.
    public static var url: URL {
        let candidate = productsDirectory.appendingPathComponent("livestate")
        if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        return packageRoot.appendingPathComponent(".build/debug/livestate")
    }

    /// A finished run.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// A run stopped because it did not end in time: a command that should finish did not (a
    /// server started where a refusal was expected, a hang).
    public struct TimedOut: Error, CustomStringConvertible {
        public var arguments: [String]
        public var seconds: Double
        public var description: String { "livestate \(arguments.joined(separator: " ")) did not end within \(seconds) s; it was stopped" }
    }

    /// Runs the binary to its end, or stops it after `timeout` seconds and throws `TimedOut`.
    /// - Parameters:
    ///   - arguments: The command line after the binary's name.
    ///   - stdin: What standard input reads (nothing by default).
    ///   - stdinPath: A file standard input reads instead (`/dev/zero`, which never ends).
    ///   - environment: Variables added to this process's environment.
    ///   - timeout: How long the run may take.
    public static func run(
        _ arguments: [String], stdin: Data? = nil, stdinPath: String? = nil, environment: [String: String] = [:], timeout: Double = 120
    ) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        process.currentDirectoryURL = packageRoot
        // Output goes to files, so a large output can never block the process on a full pipe.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        let inURL = scratch.appendingPathComponent("in")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: inURL.path, contents: stdin ?? Data())
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let input = try FileHandle(forReadingFrom: stdinPath.map(URL.init(fileURLWithPath:)) ?? inURL)
        defer {
            try? out.close()
            try? err.close()
            try? input.close()
        }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        if ended.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            if ended.wait(timeout: .now() + 5) == .timedOut { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw TimedOut(arguments: arguments, seconds: timeout)
        }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}
