/// How much of a set of findings a listing shows: the CLI's text and JSON output, and the HTTP
/// sidecar's responses. A hostile payload can make findings without end (a key repeated 100,000
/// times in a 1 MiB body made 99,999 `duplicate-key` warnings and 11 MB of text), and a message
/// quotes keys from the input (a 10 MB key was printed whole). The listing keeps what a reader
/// can use; the findings themselves, which decide the exit status and the metrics, are kept whole.
extension Diagnostic {
    /// The most findings of one code a listing shows for one file; the rest are counted in one
    /// finding of that code.
    package static let listedPerCode = 100

    /// The most UTF-8 bytes of a message, or of a pointer in text, a listing shows: past it, the
    /// middle is left out.
    package static let shownBytes = 1_024

    /// `text` as a listing shows it: whole up to `shownBytes`, else its first 256 and last 128
    /// characters around the number of bytes left out. Both ends carry the words around a quoted
    /// key: `unknown key 'kkk…(9,999,232 bytes left out)…kkk' is ignored by app version 2`.
    package static func shown(_ text: String) -> String {
        guard text.utf8.count > shownBytes else { return text }
        let head = text.prefix(256)
        let tail = text.suffix(128)
        let leftOut = text.utf8.count - head.utf8.count - tail.utf8.count
        return "\(head)…(\(ValueText.grouped(leftOut)) bytes left out)…\(tail)"
    }

    /// The message a listing shows: `shown(message)`.
    package var shownMessage: String { Self.shown(message) }
}

extension Array<Diagnostic> {
    /// The findings as a listing shows them: in order, with at most `Diagnostic.listedPerCode`
    /// of one code for one file. The rest of that code and file are counted in one finding put
    /// after the last one shown, with their highest severity, so that a listing still shows the
    /// worst of what was found and `--fail-on` reads the same from it.
    package var listed: [Diagnostic] {
        guard count > Diagnostic.listedPerCode else { return self }
        var seen: [ListingGroup: Int] = [:]
        var leftOut: [ListingGroup: (count: Int, severity: Severity)] = [:]
        for finding in self {
            let group = ListingGroup(file: finding.file, code: finding.code)
            let number = seen[group, default: 0] + 1
            seen[group] = number
            if number > Diagnostic.listedPerCode {
                let sofar = leftOut[group] ?? (0, .info)
                leftOut[group] = (sofar.count + 1, Swift.max(sofar.severity, finding.severity))
            }
        }
        guard !leftOut.isEmpty else { return self }
        var listing: [Diagnostic] = []
        listing.reserveCapacity(count)
        var shown: [ListingGroup: Int] = [:]
        for finding in self {
            let group = ListingGroup(file: finding.file, code: finding.code)
            let number = shown[group, default: 0] + 1
            shown[group] = number
            guard number <= Diagnostic.listedPerCode else { continue }
            listing.append(finding)
            if number == Diagnostic.listedPerCode, let more = leftOut[group] {
                listing.append(Diagnostic(
                    code: finding.code, severity: more.severity,
                    message: "\(ValueText.grouped(more.count)) more \(finding.code) findings are not listed; the first \(Diagnostic.listedPerCode) are",
                    file: finding.file, scope: finding.scope))
            }
        }
        return listing
    }
}

/// The findings a listing counts together: one code's in one file.
private struct ListingGroup: Hashable {
    let file: String?
    let code: DiagnosticCode
}
