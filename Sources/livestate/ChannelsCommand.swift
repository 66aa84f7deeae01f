import ArgumentParser
import Foundation
import LiveState
import LiveStateAPNs

/// `livestate channels`: the app's broadcast channels.
struct ChannelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channels",
        abstract: "Create, list, read and delete the app's broadcast channels (iOS 18).",
        discussion: """
            Channel requests go to APNs's management host (port 2195 sandbox, 2196 production) \
            with the same key flags as send. Exit status: 0 done, 1 APNs answered an error or did \
            not answer, or the channel id is not base64 (bad-channel-id, as send refuses it), 2 \
            usage, key or I/O errors.
            """,
        subcommands: [Create.self, List.self, Read.self, Delete.self]
    )

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a channel and print its id.",
            usage: "livestate channels create \(APNsOptions.synopsis) [<options>]")
        @OptionGroup var apns: APNsOptions
        @Option(name: .customLong("storage-policy"), help: "none (no message stored; broadcasts need --expiration 0) or latest (the most recent message is stored).")
        var storagePolicy: StoragePolicyArgument = .none
        @Flag(name: .customLong("dry-run"), help: "Print the request and send nothing.")
        var dryRun = false

        func run() throws {
            let policy: BroadcastChannels.StoragePolicy = storagePolicy == .none ? .noMessageStored : .mostRecentMessageStored
            try ChannelsCommand.perform(apns, dryRun: dryRun, request: { await $0.createRequest(policy) }) { channels in
                try await channels.create(policy)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the app's channel ids, one per line.",
            usage: "livestate channels list \(APNsOptions.synopsis) [<options>]")
        @OptionGroup var apns: APNsOptions
        @Flag(name: .customLong("dry-run"), help: "Print the request and send nothing.")
        var dryRun = false

        func run() throws {
            try ChannelsCommand.perform(apns, dryRun: dryRun, request: { await $0.listRequest() }) { channels in
                try await channels.list().joined(separator: "\n")
            }
        }
    }

    struct Read: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a channel's storage policy and push type.",
            usage: "livestate channels read \(APNsOptions.synopsis) [<options>] <id>")
        @OptionGroup var apns: APNsOptions
        @OptionGroup var channel: OneChannel

        func run() throws {
            let id = channel.id
            try ChannelsCommand.perform(apns, dryRun: channel.dryRun, channelID: id, request: { await $0.channelRequest("GET", id) }) { channels in
                let channel = try await channels.read(id)
                let policy = channel.storagePolicy.map { $0 == .noMessageStored ? "none" : "latest" } ?? "unknown"
                return "\(channel.id)\nstorage-policy: \(policy)\npush-type: \(channel.pushType ?? "unknown")"
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a channel (for good; stored messages may still arrive).",
            usage: "livestate channels delete \(APNsOptions.synopsis) [<options>] <id>")
        @OptionGroup var apns: APNsOptions
        @OptionGroup var channel: OneChannel

        func run() throws {
            let id = channel.id
            try ChannelsCommand.perform(apns, dryRun: channel.dryRun, channelID: id, request: { await $0.channelRequest("DELETE", id) }) { channels in
                try await channels.delete(id)
                return "deleted \(id)"
            }
        }
    }

    /// The channel `read` and `delete` act on.
    struct OneChannel: ParsableArguments {
        @Argument(help: "The channel id (base64).")
        var id: String
        @Flag(name: .customLong("dry-run"), help: "Print the request and send nothing.")
        var dryRun = false
    }

    struct ChannelFailure: Error {
        var message: String
    }

    enum StoragePolicyArgument: String, ExpressibleByArgument, CaseIterable {
        case none
        case latest
    }

    /// Runs one channel request: prints the request (`--dry-run`) or what `operation` returns;
    /// an error answer exits 1.
    static func perform(_ apns: APNsOptions, dryRun: Bool, channelID: String? = nil, request: @escaping @Sendable (BroadcastChannels) async -> APNsRequest,
                        operation: @escaping @Sendable (BroadcastChannels) async throws -> String) throws {
        let key = try apns.providerKey()
        let transport = try apns.transport()
        defer { Blocking.run { try? await transport.shutdown() } }
        let channels: BroadcastChannels
        do {
            channels = try BroadcastChannels(bundleID: apns.topic, environment: apns.environment, endpoints: apns.endpoints(apns.environment),
                                             tokens: ProviderTokenCache(key: key), transport: transport)
        } catch {
            Output.err(Diagnostic.printable("error: \(error)"))
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        if let channelID, let problem = BroadcastChannels.problem(withChannelID: channelID) {
            Output.err(Diagnostic.printable("error: \(problem.message) [\(problem.code)]"))
            throw ExitCode(ExitStatus.findings.rawValue)
        }
        if dryRun {
            Output.out(Blocking.run { await request(channels) }.withholdingCredentials.rendered)
            return
        }
        let result: Result<String, ChannelFailure> = Blocking.run {
            do { return .success(try await operation(channels)) } catch { return .failure(ChannelFailure(message: "\(error)")) }
        }
        switch result {
        case .success(let text): if !text.isEmpty { Output.out(text) }
        case .failure(let error):
            Output.err(Diagnostic.printable("error: \(error.message)"))
            throw ExitCode(ExitStatus.findings.rawValue)
        }
    }
}
