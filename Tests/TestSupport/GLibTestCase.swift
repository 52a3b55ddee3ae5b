import CGLib
import GObjectBindings
import XCTest
import Synchronization

/// Base class for tests that run GLib, GTK or libsoup code: any GLib/GTK warning or critical logged during a
/// test fails that test with the message.
///
/// G_DEBUG=fatal-criticals alone is not enough here: it raises SIGTRAP, and the Swift runtime's backtracer
/// catches SIGTRAP, prints a backtrace and lets the process go on, so the test would still pass.
open class GLibTestCase: XCTestCase {
    override open func setUp() {
        super.setUp()
        GLibLogRecorder.install()
        GLibLogRecorder.messages.withLock { $0.removeAll() }
    }

    override open func tearDown() {
        // Deliver what is already pending (e.g. a finalizer's warning) before looking.
        MainActor.assumeIsolated { drainMainLoop() }
        for message in GLibLogRecorder.messages.withLock({ $0 }) {
            XCTFail("GLib logged during the test: \(message)")
        }
        super.tearDown()
    }
}

enum GLibLogRecorder {
    static let messages = Mutex<[String]>([])
    private static let installed = Mutex(false)

    static func install() {
        let first = installed.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        g_log_set_writer_func(recordAndWrite, nil, nil)
    }

    /// Records warnings and worse (from any thread), then writes as GLib would.
    private static let recordAndWrite: GLogWriterFunc = { level, fields, count, data in
        let serious = level.rawValue & (G_LOG_LEVEL_ERROR.rawValue | G_LOG_LEVEL_CRITICAL.rawValue
                                         | G_LOG_LEVEL_WARNING.rawValue)
        if serious != 0, let fields {
            var domain = "?"
            var text = ""
            for index in 0..<Int(count) {
                let field = fields[index]
                guard let key = field.key.map({ String(cString: $0) }), let value = field.value else { continue }
                let string = field.length < 0 ? String(cString: value.assumingMemoryBound(to: CChar.self))
                    : String(decoding: UnsafeRawBufferPointer(start: value, count: Int(field.length)), as: UTF8.self)
                if key == "GLIB_DOMAIN" { domain = string }
                if key == "MESSAGE" { text = string }
            }
            messages.withLock { $0.append("\(domain): \(text)") }
        }
        return g_log_writer_default(level, fields, count, data)
    }
}
