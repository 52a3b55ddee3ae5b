import CLibFuzzer
#if canImport(Glibc)
import Glibc
#endif

/// Runs libFuzzer with the process's arguments, calling `body` with each input; exits with libFuzzer's status.
/// A fuzz target's main.swift is one call to this.
public func runFuzzer(_ body: @escaping @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, body))
}

/// The input as a buffer (libFuzzer passes a null pointer for the empty input).
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
}
