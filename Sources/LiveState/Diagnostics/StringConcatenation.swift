extension String {
    /// `a + b + c + d` in one allocation (none when the result fits inline).
    ///
    /// Diagnostics are built on the decoder's path; `+` and `+=` grow the first operand once per
    /// step and cost a few hundred instructions each.
    static func concatenating(_ a: String, _ b: String, _ c: String = "", _ d: String = "") -> String {
        var a = a, b = b, c = c, d = d
        let total = a.utf8.count &+ b.utf8.count &+ c.utf8.count &+ d.utf8.count
        guard total > 0 else { return "" }
        return a.withUTF8 { a in
            b.withUTF8 { b in
                c.withUTF8 { c in
                    d.withUTF8 { d in
                        String(unsafeUninitializedCapacity: total) { buffer in
                            var written = 0
                            put(a, into: buffer, at: &written)
                            put(b, into: buffer, at: &written)
                            put(c, into: buffer, at: &written)
                            put(d, into: buffer, at: &written)
                            return written
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func put(_ part: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>, at written: inout Int) {
        guard let source = part.baseAddress, let target = buffer.baseAddress else { return }
        (target + written).update(from: source, count: part.count)
        written &+= part.count
    }
}
