import Foundation
import Testing

/// Compares text a test made with a committed golden file, or rewrites the file when asked.
public enum Golden {
    /// Checks `text` against the golden file, recording an issue at the first line that differs.
    /// - Parameters:
    ///   - text: What the test made.
    ///   - file: The committed golden file (in the source tree, not a bundle copy).
    ///   - update: The environment variable that, set to `1`, rewrites the file instead.
    ///   - rerun: The command that rewrites it, for the issue's message.
    /// - Throws: When the file cannot be read or written.
    public static func check(_ text: String, at file: URL, update: String, rerun: String,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        if ProcessInfo.processInfo.environment[update] == "1" {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file, options: .atomic)
            return
        }
        let committed = try String(contentsOf: file, encoding: .utf8)
        if committed == text { return }
        let left = committed.split(separator: "\n", omittingEmptySubsequences: false)
        let right = text.split(separator: "\n", omittingEmptySubsequences: false)
        let shared = min(left.count, right.count)
        let line = (0..<shared).first { left[$0] != right[$0] } ?? shared
        let committedLine = line < left.count ? String(left[line]) : "<end of file>"
        let madeLine = line < right.count ? String(right[line]) : "<end of file>"
        Issue.record("""
            \(file.lastPathComponent) differs from what the test made at line \(line + 1):
              committed: \(committedLine)
              made:      \(madeLine)
            Run \(update)=1 \(rerun), and review the diff.
            """, sourceLocation: sourceLocation)
    }
}
