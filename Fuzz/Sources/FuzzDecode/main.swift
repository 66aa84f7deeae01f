import FuzzCommon

/// libFuzzer entry point: selector byte + content-state through decoder, validator and budget (`FuzzHarness.decode`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.run(start, count) { FuzzHarness.decode($0, targets: FuzzEntry.targets) }
}
