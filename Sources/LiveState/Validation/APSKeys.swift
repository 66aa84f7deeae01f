/// The keys an `aps` dictionary may hold, and what the validator says of any other.
enum APSKeys {
    /// The keys of Live Activity pushes, in the bit order `EnvelopeWalk` tracks them in.
    static let liveActivity: [StaticString] = [
        "timestamp", "event", "content-state", "stale-date", "dismissal-date", "relevance-score", "alert",
        "attributes-type", "attributes", "input-push-token", "input-push-channel",
    ]

    /// The index in `liveActivity` of the key `key` spells, compared unescaped.
    static func liveActivityIndex(of key: JSONString, in reader: JSONReader) -> Int? {
        liveActivity.firstIndex { reader.matches(key, $0) }
    }

    /// The standard APNs keys that do nothing for a Live Activity, each with what to say of it:
    /// the consequence and the fix.
    static let noEffect: [String: String] = {
        var messages: [String: String] = [
            "sound": "aps.sound is not a Live Activity key, and whether the device plays it from there is not documented; Apple's examples put it in the alert: "
                + #""alert": {"title": …, "body": …, "sound": "default"}"#,
            "badge": "badge is for the app icon and ordinary notifications; a Live Activity push does not use it; leave it out",
            "content-available": "content-available is for background notifications; a Live Activity push does not use it "
                + "(the device applies the content-state without the app); leave it out",
            "mutable-content": "mutable-content is for a notification service extension's ordinary notifications; "
                + "a Live Activity push does not use it; leave it out",
        ]
        for name in ["thread-id", "category", "target-content-id", "interruption-level", "filter-criteria", "url-args"] {
            messages[name] = "'\(name)' is a key of ordinary notifications; a Live Activity push does not use it; leave it out"
        }
        return messages
    }()

    /// Every key APNs documents for `aps`: what a misspelled key is compared with.
    static let all: [String] = liveActivity.map(\.description) + noEffect.keys.sorted()

    /// The finding for an `aps` key that is not a Live Activity key: `no-effect-aps-key` for a
    /// standard APNs key, otherwise `unknown-aps-key`, with the key it is likely a typo of.
    static func otherKey(_ name: String) -> (DiagnosticCode, String) {
        if let message = noEffect[name] { return (.noEffectAPSKey, message) }
        let message = "aps key '\(name)' is not an APNs key; APNs and the device ignore it"
        if let hint = all.first(where: { isTypo(name, of: $0) }) {
            return (.unknownAPSKey, message + "; did you mean '\(hint)'?")
        }
        return (.unknownAPSKey, message + " (data for the app belongs beside aps)")
    }

    /// Whether `name` is one edit (insertion, deletion or substitution) from `key`, or differs
    /// from it only in case and in `-` or `_` separators (`contentState`, `Stale_Date`).
    static func isTypo(_ name: String, of key: String) -> Bool {
        func folded(_ text: String) -> [UInt8] {
            text.utf8.compactMap { byte in
                byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") ? nil : (65...90).contains(byte) ? byte + 32 : byte
            }
        }
        guard name != key else { return false }
        if folded(name) == folded(key) { return true }
        let a = Array(name.utf8), b = Array(key.utf8)
        guard abs(a.count - b.count) <= 1 else { return false }
        var i = 0
        while i < min(a.count, b.count), a[i] == b[i] { i += 1 }
        // After the first difference the rest must match with one byte skipped on the longer side, or on both.
        if a.count == b.count { return a[(i + 1)...] == b[(i + 1)...] }
        return a.count > b.count ? a[(i + 1)...] == b[i...] : a[i...] == b[(i + 1)...]
    }
}
