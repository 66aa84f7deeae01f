import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP socket connected to a port on 127.0.0.1, for tests that speak raw HTTP to a server
/// (a body sent a byte at a time, a `Content-Length` never followed by its body).
public enum LoopbackSocket {
    /// A socket connected to `port` on 127.0.0.1, or `nil` when it cannot be made or connected.
    /// The caller closes it.
    public static func connect(port: Int) -> Int32? {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// What the server at `port` answers `request`, read until it closes the connection; `nil`
    /// when no connection can be made. The request should ask for the close (HTTP/1.0, or
    /// `Connection: close`) unless the server closes anyway.
    public static func exchange(port: Int, _ request: String) -> String? {
        guard let client = connect(port: port) else { return nil }
        defer { close(client) }
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        _ = request.withCString { send(client, $0, strlen($0), flags) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let read = recv(client, &buffer, buffer.count, 0)
            if read <= 0 { break }
            answer += buffer[0..<read]
        }
        return String(decoding: answer, as: UTF8.self)
    }
}
