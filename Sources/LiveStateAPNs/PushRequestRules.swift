import Foundation
import LiveState
import LiveStateTooling

/// The rules APNs applies to a request's path and headers, checked before anything is sent:
/// each one APNs answers with a 400 reason (`DiagnosticCode+Send.swift` names their codes).
package enum PushRequestRules {
    /// The topic suffix of Live Activity pushes.
    static let topicSuffix = ".push-type.liveactivity"

    /// The `apns-topic` for a bundle id given with or without the suffix.
    /// - Parameter bundle: `com.example.app` or `com.example.app.push-type.liveactivity`.
    /// - Returns: The bundle id, or a `bad-topic` finding.
    static func bundleID(from topic: String) -> (bundle: String?, problem: Diagnostic?) {
        var bundle = topic
        if bundle.hasSuffix(topicSuffix) { bundle.removeLast(topicSuffix.utf8.count) }
        if bundle.hasSuffix(topicSuffix) {
            return (nil, finding(.badTopic, "the topic ends in '\(topicSuffix)' more than once; give the bundle id (the suffix is added)"))
        }
        if let other = bundle.range(of: ".push-type.") {
            return (nil, finding(.badTopic, "the topic names push type '\(Diagnostic.quoted(bundle[other.upperBound...]))'; Live Activities use '\(topicSuffix.dropFirst())' (give the bundle id; the suffix is added)"))
        }
        // A bundle id is labels of letters, digits and hyphens between dots; it goes into a
        // broadcast's and a channel's :path as it is, where `#` or `?` would end the path.
        let labels = bundle.split(separator: ".", omittingEmptySubsequences: false)
        guard !bundle.isEmpty, labels.allSatisfy({ label in
            !label.isEmpty && label.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "-")
            }
        }) else {
            return (nil, finding(.badTopic, "the topic must be the app's bundle id, such as com.example.app (letters, digits and "
                + "hyphens between dots), not '\(Diagnostic.quoted(topic))'"))
        }
        return (bundle, nil)
    }

    /// The bundle id of a topic, for a sender or a channel client being made.
    /// - Throws: `SenderSetupError` (`bad-topic`) when the topic is not a bundle id.
    static func requireBundleID(from topic: String) throws(SenderSetupError) -> String {
        let (bundle, problem) = bundleID(from: topic)
        guard let bundle else { throw SenderSetupError(code: DiagnosticCode.badTopic, message: problem?.message ?? "bad bundle id") }
        return bundle
    }

    /// Checks a push's target and headers.
    /// - Parameters:
    ///   - target: The device token or channel.
    ///   - headers: The optional headers.
    /// - Returns: The findings: errors, and a warning for a broadcast at priority 1.
    static func check(_ target: PushTarget, _ headers: PushHeaders) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        switch target {
        case .device(let token):
            if let problem = PushHistory.Target.problem(withToken: token) { findings.append(finding(.badDeviceToken, problem)) }
        case .broadcast(let channel):
            if let problem = PushHistory.Target.problem(withChannel: channel) { findings.append(finding(.badChannelID, problem)) }
        }
        let priorities = target.isBroadcast ? [1, 5, 10] : [5, 10]
        if let priority = headers.priority, !priorities.contains(priority) {
            let allowed = target.isBroadcast ? "1, 5 or 10" : "5 or 10"
            findings.append(finding(.badPriority, "apns-priority must be \(allowed), not \(priority)"))
        } else if target.isBroadcast, headers.priority == nil {
            // A device push without one is sent at 10; Apple's broadcast document requires it.
            findings.append(finding(.badPriority, "a broadcast needs apns-priority: 10 (immediate; counts against the budget), 5 or 1"))
        } else if target.isBroadcast, headers.priority == 1 {
            findings.append(finding(.broadcastPriorityOne, "apns-priority 1 is in Apple's broadcast document, but its ActivityKit push "
                + "article names only 5 and 10 for Live Activity updates: whether a device updates the activity at 1 is not "
                + "documented; send 5 (or 10) unless you have seen 1 work"))
        }
        if let expiration = headers.expiration {
            if expiration < 0 {
                findings.append(finding(.badExpiration, "apns-expiration must be UNIX seconds (0: one attempt, never stored), not \(expiration)"))
            } else if SubsecondUnit(of: expiration) != nil {
                let said = SubsecondUnit.said("apns-expiration", expiration)
                findings.append(finding(.badExpiration, "\(said.text); APNs takes UNIX seconds: send \(said.seconds.map(String.init) ?? "the date in UNIX seconds")"))
            }
        } else if target.isBroadcast {
            findings.append(finding(.missingExpiration, "a broadcast needs apns-expiration (UNIX seconds; 0 for a channel that stores no message)"))
        }
        if let id = headers.apnsID, !isLowercaseUUID(id) {
            findings.append(finding(.badAPNsID, "apns-id must be a lower-case UUID such as 123e4567-e89b-12d3-a456-426614174000, not '\(Diagnostic.quoted(id))'"))
        }
        if let id = headers.requestID, !isLowercaseUUID(id) {
            findings.append(finding(.badAPNsID, "apns-request-id must be a lower-case UUID, not '\(Diagnostic.quoted(id))'"))
        }
        if let collapse = headers.collapseID {
            if let problem = headerValueProblem(collapse) {
                findings.append(finding(.badCollapseID, "apns-collapse-id \(problem)"))
            } else if collapse.utf8.count > 64 {
                findings.append(finding(.badCollapseID, "apns-collapse-id is \(collapse.utf8.count) bytes; APNs takes at most 64"))
            }
        }
        return findings
    }

    /// Why a header value given by the user cannot be sent as it is, or `nil`: an HTTP/2 field
    /// value may not hold CR, LF or NUL (a CR LF would end the header and start another), nor
    /// begin or end with a space or a tab. Every other control character is refused too, and an
    /// empty value, which is better left out. The reason follows the header's name.
    /// - Parameter value: The value, as given.
    static func headerValueProblem(_ value: String) -> String? {
        let bytes = Array(value.utf8)
        if bytes.isEmpty { return "is empty; leave the header out to send none" }
        if let index = bytes.firstIndex(where: { $0 < 0x20 || $0 == 0x7F }) {
            let names: [UInt8: String] = [0x00: "NUL", 0x09: "a tab", 0x0A: "LF", 0x0D: "CR"]
            let name = names[bytes[index]] ?? "a control character"
            return "holds \(name) (byte \(index + 1) is 0x\(String(bytes[index], radix: 16, uppercase: true).leftPadded(to: 2))): a header value may not hold control characters, "
                + "and a CR or LF would end the header and start another; '\(Diagnostic.quoted(value))' is not one"
        }
        // The other characters every printed line escapes (C1 controls, the line and paragraph
        // separators, the bidirectional controls): a header holding one prints as a forged
        // line or a terminal command in a dry run, and the help promises no control characters.
        if let scalar = value.unicodeScalars.first(where: Diagnostic.isControl) {
            return "holds the control character U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)): a header value may not hold "
                + "control characters; '\(Diagnostic.quoted(value))' is not one"
        }
        if bytes.first == 0x20 || bytes.last == 0x20 {
            return "begins or ends with a space, which HTTP/2 does not allow in a header value; '\(Diagnostic.quoted(value))' is not one"
        }
        return nil
    }

    /// A start that no answer came to, after its request may have reached APNs (the
    /// connection was made): `start-unconfirmed`. APNs may have taken it, and each start shows
    /// another activity, so the sender does not send it again.
    static func startUnconfirmed(_ error: String, file: String?) -> Diagnostic {
        var found = finding(.startUnconfirmed, "no answer came to this start (\(Diagnostic.quoted(error))) after the request may have "
            + "reached APNs, so it was not sent again: each start APNs takes shows another activity. Check the device, or wait "
            + "for the activity's update token, before starting it again")
        found.file = file
        return found
    }

    /// After `ExpiredProviderToken`: a `clock-behind` finding when the rejected token is younger
    /// than the cache's minimum lifetime, or `nil`. APNs calls a token expired when its `iat` is
    /// more than an hour old by APNs's clock, so a token minted minutes ago means this machine's
    /// clock is behind, and a new token would be just as old: the key is not at fault.
    /// - Parameters:
    ///   - issuedAt: The rejected token's `iat`.
    ///   - seconds: How long ago it was minted.
    ///   - minimumLifetime: How long a token is kept at least (`ProviderTokenCache`).
    static func clockProblem(tokenIssuedAt issuedAt: Date, age seconds: TimeInterval, minimumLifetime: TimeInterval) -> Diagnostic? {
        guard seconds < minimumLifetime else { return nil }
        let age = Int(seconds)
        return finding(.clockBehind, "APNs answered ExpiredProviderToken to a provider token issued \(age) s ago "
            + "(iat \(Int(issuedAt.timeIntervalSince1970))); APNs expires a token an hour after its iat by APNs's clock, so "
            + "this machine's clock is behind by more than an hour: set it right (NTP); the key is not at fault, and a new "
            + "token would be just as old")
    }

    /// 8-4-4-4-12 lower-case hex digits: a UUID's form (`Field.StringFormat.uuid`), lower case.
    static func isLowercaseUUID(_ text: String) -> Bool {
        Field.StringFormat.uuid.problem(text) == nil && !text.utf8.contains { (0x41...0x46).contains($0) }
    }

    static func finding(_ code: DiagnosticCode, _ message: String) -> Diagnostic {
        Diagnostic(code: code, severity: code.sendSeverity, message: message, file: "<request>")
    }
}
