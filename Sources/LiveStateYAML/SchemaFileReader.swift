#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads schema files and lists schema directories with a size bound checked before reading.
enum SchemaFileReader {
    /// Why a path could not be read: a message such as `is a directory`.
    struct Failure: Error {
        var message: String
    }

    /// What a path is.
    enum Kind {
        case directory
        case other
    }

    /// Whether `path` is a directory.
    /// - Throws: `Failure` when the path cannot be examined (missing, no permission).
    static func kind(of path: String) throws(Failure) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(message: errorMessage(errno)) }
        return info.st_mode & mode_t(S_IFMT) == mode_t(S_IFDIR) ? .directory : .other
    }

    /// Reads a whole file, refusing one larger than `maxBytes`.
    ///
    /// A regular file's size is checked with `stat` before anything is read. Other files
    /// (pipes, `/dev/stdin`) are read up to `maxBytes + 1` bytes, so memory stays bounded too.
    /// A negative limit counts as 0.
    /// - Parameters:
    ///   - path: The file.
    ///   - maxBytes: The largest size accepted.
    ///   - kind: What the file is, for messages: `schema file`, `fleet file`.
    /// - Returns: The file's bytes.
    /// - Throws: `Failure` for a missing, unreadable or too large file, or a directory.
    static func read(_ path: String, maxBytes requested: Int, kind: String = "schema file") throws(Failure) -> [UInt8] {
        let maxBytes = max(0, requested)
        // One byte past the limit tells a file that is too large; `Int.max` must not overflow.
        let bound = maxBytes < Int.max ? maxBytes + 1 : Int.max
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(message: errorMessage(errno)) }
        let type = info.st_mode & mode_t(S_IFMT)
        if type == mode_t(S_IFDIR) {
            throw Failure(message: "is a directory, not a \(kind)")
        }
        var capacity = bound
        if type == mode_t(S_IFREG) {
            let size = Int(info.st_size)
            if size > maxBytes {
                throw tooLarge(size, maxBytes, kind: kind)
            }
            capacity = size + 1
        }
        let bytes = try readPrefix(path, count: bound, capacity: capacity)
        if bytes.count > maxBytes {
            throw tooLarge(bytes.count, maxBytes, atLeast: true, kind: kind)
        }
        return bytes
    }

    /// Reads at most `count` bytes of `path`, to its end or to `count`, whatever it is: a
    /// regular file, a device, a pipe.
    ///
    /// A named pipe (FIFO) is opened without waiting for a writer, which a plain `open` does
    /// for ever: with none, it reads as empty. Once open, reads wait as usual, so a pipe that
    /// has a writer (`<(curl …)`) is read whole.
    /// - Parameters:
    ///   - path: The file.
    ///   - count: The most bytes to read.
    ///   - capacity: The bytes to make room for first (the file's size and one, when known).
    /// - Throws: `Failure` when the file cannot be opened or read.
    static func readPrefix(_ path: String, count: Int, capacity: Int? = nil) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { throw Failure(message: errorMessage(errno)) }
        defer { close(descriptor) }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }

        var bytes = [UInt8](repeating: 0, count: min(capacity ?? count, count, 1 << 16))
        var read = 0
        while read < count {
            if read == bytes.count {
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, count - bytes.count)))
            }
            let got = bytes.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress! + read, buffer.count - read)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw Failure(message: errorMessage(errno))
            }
            if got == 0 { break }
            read += got
        }
        bytes.removeLast(bytes.count - read)
        return bytes
    }

    /// The `*.yaml` and `*.yml` files directly in a directory, sorted by name, hidden files skipped.
    /// - Parameter directory: The directory.
    /// - Returns: Their paths, `directory/name`: the files (a link is followed), and the named
    ///   pipes, sockets and devices apart (`notRegular`), which are not read.
    /// - Throws: `Failure` when the directory cannot be listed.
    static func schemaFiles(in directory: String) throws(Failure) -> (files: [String], notRegular: [(path: String, what: String)]) {
        guard let stream = opendir(directory) else { throw Failure(message: errorMessage(errno)) }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(cString: $0)
                }
            }
            if !name.hasPrefix("."), name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                names.append(name)
            }
        }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        var files: [String] = []
        var notRegular: [(path: String, what: String)] = []
        for path in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).map({ prefix + $0 }) {
            // A named pipe whose writer stays open, read as a schema, held every reload (and a
            // server's shutdown) until the writer closed it; a device never ends. One named on
            // the command line is read (`<(…)`), one found in a directory is not.
            var info = stat()
            let type = stat(path, &info) == 0 ? info.st_mode & mode_t(S_IFMT) : mode_t(S_IFREG)
            switch type {
            // (A directory is read as a file, and refused as one: an error, as before.)
            case mode_t(S_IFREG), mode_t(S_IFDIR): files.append(path)
            case mode_t(S_IFIFO): notRegular.append((path, "a named pipe"))
            case mode_t(S_IFSOCK): notRegular.append((path, "a socket"))
            default: notRegular.append((path, "a device"))
            }
        }
        return (files, notRegular)
    }

    private static func tooLarge(_ size: Int, _ maxBytes: Int, atLeast: Bool = false, kind: String) -> Failure {
        Failure(message: "is \(atLeast ? "more than " : "")\(atLeast ? maxBytes : size) bytes, over the limit of \(maxBytes) bytes for a \(kind)")
    }

    private static func errorMessage(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        let message = String(cString: text)
        return "cannot read: " + message.prefix(1).lowercased() + message.dropFirst()
    }
}

/// POSIX `read`, under a name that `SchemaFileReader.read` does not shadow.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
    #elseif canImport(Musl)
    Musl.read(descriptor, buffer, count)
    #else
    Darwin.read(descriptor, buffer, count)
    #endif
}

/// Reads an input file whole with a size bound checked before reading, as schema and fleet
/// files are read: for other tools' inputs (the Swift files `import swift` reads).
public enum BoundedFileReader {
    /// Reads `path`.
    /// - Parameters:
    ///   - path: The file.
    ///   - maxBytes: The largest size accepted.
    ///   - kind: What the file is, for messages: `Swift file`.
    /// - Returns: The bytes, or the sentence saying why they could not be read
    ///   (`is a directory, not a Swift file`, `is 9000000 bytes, over the limit of …`).
    public static func read(_ path: String, maxBytes: Int, kind: String) -> Result<[UInt8], BoundedFileError> {
        do {
            return .success(try SchemaFileReader.read(path, maxBytes: maxBytes, kind: kind))
        } catch {
            return .failure(BoundedFileError(message: error.message))
        }
    }
}

extension BoundedFileReader {
    /// Reads at most `count` bytes of `path`, refusing a directory: for inputs whose size the
    /// reader reports itself (a payload one byte past its limit is the scanner's `json-limit`).
    /// A named pipe with no writer reads as empty rather than waiting for one.
    /// - Parameters:
    ///   - path: The file.
    ///   - count: The most bytes to read.
    ///   - kind: What the file is, for messages: `payload file`.
    /// - Returns: The bytes, or the sentence saying why they could not be read.
    public static func read(_ path: String, upTo count: Int, kind: String) -> Result<[UInt8], BoundedFileError> {
        do {
            if try SchemaFileReader.kind(of: path) == .directory {
                return .failure(BoundedFileError(message: "is a directory, not a \(kind)"))
            }
            return .success(try SchemaFileReader.readPrefix(path, count: max(0, count)))
        } catch {
            return .failure(BoundedFileError(message: error.message))
        }
    }
}

/// Why `BoundedFileReader` could not read a file.
public struct BoundedFileError: Error, Sendable {
    /// The sentence, without the path: `is a directory, not a Swift file`.
    public var message: String
}
