import CGLib

/// A GError as a Swift error. The GError is copied and freed on construction.
public struct GLibError: Error, Equatable, Sendable, CustomStringConvertible {
    public let domain: GQuark
    public let code: Int32
    public let message: String

    public init(domain: GQuark, code: Int32, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }

    /// Takes ownership of `error` and frees it.
    public init(consuming error: UnsafeMutablePointer<GError>) {
        domain = error.pointee.domain
        code = error.pointee.code
        message = string(error.pointee.message) ?? tr("Unknown error")
        g_error_free(error)
    }

    public var description: String { message }

    public var domainName: String { string(g_quark_to_string(domain)) ?? "?" }

    public func matches(_ domain: GQuark, _ code: Int32) -> Bool { self.domain == domain && self.code == code }

    public func matches(_ code: GIOErrorEnum) -> Bool { matches(gv_io_error_quark(), Int32(code.rawValue)) }

    public var isCancelled: Bool { matches(G_IO_ERROR_CANCELLED) }

    public static var cancelled: GLibError {
        GLibError(domain: gv_io_error_quark(), code: Int32(G_IO_ERROR_CANCELLED.rawValue), message: "Operation was cancelled")
    }

    /// Calls a C function that reports failure through a `GError **` argument and turns a set error into a throw.
    public static func check<T>(
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T
    ) throws(GLibError) -> T {
        var error: UnsafeMutablePointer<GError>?
        let result = body(&error)
        if let error { throw GLibError(consuming: error) }
        return result
    }
}
