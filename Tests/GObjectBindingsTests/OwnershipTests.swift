import CGLib
import CGtk
import GObjectBindings
import TestSupport
import XCTest

/// Who owns what across the C boundary, counted: an `ObjectRef` takes and drops exactly one GObject reference
/// for each transfer kind; every signal shape's closure box is released when its handler is disconnected and
/// when its object is finalized; a one-shot async callback is released after its one call back, also when
/// cancelled, and when it is never handed over; a main-loop source releases its closure when destroyed and
/// after firing. A leak shows as a captured token that stays alive; a double release crashes the test process
/// (and AddressSanitizer, in `make test`, names it).
final class OwnershipTests: GLibTestCase {
    private final class Token {}
    private final class Counter { var calls = 0 }

    private static func referenceCount(_ object: UnsafeMutableRawPointer) -> UInt32 {
        object.as(GObject.self).pointee.ref_count
    }

    // MARK: ObjectRef

    func testAnObjectRefTakesAndDropsExactlyOneReference() {
        let object = g_simple_action_new("go", nil)!.raw  // ours: 1
        XCTAssertEqual(Self.referenceCount(object), 1)

        do {
            let ref = ObjectRef(object, transfer: .none)
            XCTAssertEqual(Self.referenceCount(object), 2, ".none: a reference of its own")
            withExtendedLifetime(ref) {}
        }
        XCTAssertEqual(Self.referenceCount(object), 1, ".none: dropped again")

        g_object_ref(object)  // the reference a transfer-full function would have returned
        do {
            let ref = ObjectRef(object, transfer: .full)
            XCTAssertEqual(Self.referenceCount(object), 2, ".full: adopts the caller's reference, adds none")
            withExtendedLifetime(ref) {}
        }
        XCTAssertEqual(Self.referenceCount(object), 1, ".full: dropped")

        do {
            let ref = ObjectRef(object, transfer: .floating)
            XCTAssertEqual(Self.referenceCount(object), 2, ".floating on an object that is not floating: ref_sink adds one")
            withExtendedLifetime(ref) {}
        }
        XCTAssertEqual(Self.referenceCount(object), 1)
        g_object_unref(object)
    }

    func testAFloatingReferenceBecomesTheObjectRefsOwn() {
        // GtkAdjustment is a GInitiallyUnowned (floating when new) that needs no display.
        let object = gtk_adjustment_new(0, 0, 1, 1, 1, 1)!.raw
        g_object_ref(object)  // the test's own, to look at the object after the wrapper went
        XCTAssertEqual(Self.referenceCount(object), 2)
        do {
            let ref = ObjectRef(object, transfer: .floating)
            XCTAssertEqual(g_object_is_floating(object), 0, "sunk")
            XCTAssertEqual(Self.referenceCount(object), 2, "the floating reference became the wrapper's: none added")
            withExtendedLifetime(ref) {}
        }
        XCTAssertEqual(Self.referenceCount(object), 1, "the wrapper's reference dropped")
        g_object_unref(object)
    }

    // MARK: Signals, every shape

    /// Connects one handler of each shape the bindings offer to `object` (a `SignalTestObject`), each
    /// capturing its own token; returns the connections and weak references to the tokens.
    @MainActor
    private static func connectEveryShape(to object: ObjectRef, counter: Counter)
        -> (connections: [SignalConnection], tokens: [() -> Token?]) {
        var tokens: [() -> Token?] = []
        func token() -> Token {
            let token = Token()
            tokens.append { [weak token] in token }
            return token
        }
        let plain = token(), emitter = token(), pointer = token(), emitterPointer = token(), event = token(), doubles = token()
        let boolean = token()
        // The counter is captured weakly, as the app's handlers capture their owners: only the token is held.
        let connections = [
            object.connect("plain") { [weak counter] in withExtendedLifetime(plain) { counter?.calls += 1 } },
            object.connectWithEmitter("plain") { [weak counter] (_: SignalEmitter) in
                withExtendedLifetime(emitter) { counter?.calls += 1 }
            },
            object.connect("pointer") { [weak counter] (_: UnsafeMutableRawPointer?) in
                withExtendedLifetime(pointer) { counter?.calls += 1 }
            },
            object.connectWithEmitter("pointer") { [weak counter] (_: SignalEmitter, _: UnsafeMutableRawPointer?) in
                withExtendedLifetime(emitterPointer) { counter?.calls += 1 }
            },
            object.connectEvent("event") { [weak counter] _ in
                withExtendedLifetime(event) { counter?.calls += 1 }
                return false
            },
            object.connect("doubles") { [weak counter] (_: Double, _: Double) in
                withExtendedLifetime(doubles) { counter?.calls += 1 }
            },
            object.connectBoolean("boolean") { [weak counter] in
                withExtendedLifetime(boolean) { counter?.calls += 1 }
                return false
            },
        ]
        return (connections, tokens)
    }

    func testEverySignalShapesClosureIsReleasedWhenDisconnected() {
        MainActor.assumeIsolated {
            let object = SignalTestObject.make()
            let counter = Counter()
            let (connections, tokens) = Self.connectEveryShape(to: object, counter: counter)
            SignalTestObject.emitAll(object)
            XCTAssertEqual(counter.calls, 7, "each handler ran once")
            XCTAssertEqual(tokens.filter { $0() != nil }.count, 7, "held while connected")
            XCTAssertTrue(connections.allSatisfy(\.isConnected))
            for connection in connections { connection.disconnect() }
            XCTAssertEqual(tokens.compactMap { $0() }.count, 0, "every box released at disconnect")
            XCTAssertTrue(connections.allSatisfy { !$0.isConnected })
            for connection in connections { connection.disconnect() }  // twice: harmless
            SignalTestObject.emitAll(object)
            XCTAssertEqual(counter.calls, 7, "and never called again")
            XCTAssertEqual(Self.referenceCount(object.pointer), 1, "no connection holds the object")
        }
    }

    func testEverySignalShapesClosureIsReleasedWhenTheObjectIsFinalized() {
        MainActor.assumeIsolated {
            let counter = Counter()
            var tokens: [() -> Token?] = []
            var connections: [SignalConnection] = []
            var finalized = false
            do {
                let object = SignalTestObject.make()
                g_object_weak_ref(object.object, { data, _ in data!.assumingMemoryBound(to: Bool.self).pointee = true },
                                  &finalized)
                (connections, tokens) = Self.connectEveryShape(to: object, counter: counter)
                XCTAssertEqual(tokens.filter { $0() != nil }.count, 7)
            }
            XCTAssertTrue(finalized, "the wrapper held the only reference")
            XCTAssertEqual(tokens.compactMap { $0() }.count, 0, "every box released with the object")
            XCTAssertTrue(connections.allSatisfy { !$0.isConnected })
            for connection in connections { connection.disconnect() }  // after the object is gone: harmless
        }
    }

    // MARK: One-shot async callbacks

    func testACancelledAsyncCallbackRunsOnceAndIsReleased() {
        MainActor.assumeIsolated {
            weak var captured: Token?
            var calls = 0
            var cancelledError = false
            let file = ObjectRef(g_file_new_for_path("/nonexistent"), transfer: .full)
            let cancellable = Cancellable()
            cancellable.cancel()
            do {
                let token = Token()
                captured = token
                AsyncCallback { _, result in
                    withExtendedLifetime(token) { calls += 1 }
                    var contents: UnsafeMutablePointer<CChar>?
                    do throws(GLibError) {
                        _ = try GLibError.check { error in
                            g_file_load_contents_finish(file.opaque, result, &contents, nil, nil, error)
                        }
                        g_free(contents)
                    } catch {
                        cancelledError = error.isCancelled
                    }
                }.pass { g_file_load_contents_async(file.opaque, cancellable.pointer, $0, $1) }
            }
            XCTAssertNotNil(captured, "held by GIO until it calls back")
            // Once the closure is released it cannot be called again: the count is final then.
            XCTAssertTrue(iterateMainLoop(until: { calls > 0 && captured == nil }, timeout: 60))
            XCTAssertEqual(calls, 1)
            XCTAssertTrue(cancelledError)
            XCTAssertNil(captured, "released after the one call back")
        }
    }

    func testAnAsyncCallbackNeverHandedOverReleasesItsClosure() {
        MainActor.assumeIsolated {
            weak var captured: Token?
            var calls = 0
            do {
                let token = Token()
                captured = token
                let callback = AsyncCallback { _, _ in withExtendedLifetime(token) { calls += 1 } }
                _ = consume callback
            }
            XCTAssertNil(captured)
            XCTAssertEqual(calls, 0)
        }
    }

    // MARK: Main-loop sources

    func testSourcesReleaseTheirClosureAfterFiringOnceOrWhenDestroyed() {
        MainActor.assumeIsolated {
            weak var firedToken: Token?, cancelledToken: Token?, stoppedToken: Token?
            var fired = 0, ticks = 0
            var handles: [MainLoopSource] = []
            do {
                let token = Token()
                firedToken = token
                handles.append(MainLoopSource.idle { withExtendedLifetime(token) { fired += 1 } })
            }
            do {
                let token = Token()
                cancelledToken = token
                let source = MainLoopSource.after(milliseconds: 60_000) { withExtendedLifetime(token) { fired += 100 } }
                handles.append(source)
                XCTAssertNotNil(cancelledToken)
                source.cancel()
            }
            XCTAssertNil(cancelledToken, "released when destroyed, at once, though its handle is still held")
            do {
                let token = Token()
                stoppedToken = token
                handles.append(MainLoopSource.every(milliseconds: 1) {
                    withExtendedLifetime(token) { ticks += 1 }
                    return ticks < 3
                })
            }
            XCTAssertNotNil(firedToken, "held until it fires")
            // Once the closures are released they cannot run again: the counts are final then.
            XCTAssertTrue(iterateMainLoop(until: { fired == 1 && ticks == 3 && firedToken == nil && stoppedToken == nil },
                                          timeout: 60))
            XCTAssertEqual(fired, 1, "ran once")
            XCTAssertEqual(ticks, 3)
            XCTAssertNil(firedToken, "released after firing once, though its handle is still held")
            XCTAssertNil(stoppedToken, "released when its closure said stop")
            for handle in handles { handle.cancel() }  // after they ended: harmless
        }
    }
}

/// A GObject subclass with one signal of each shape the bindings connect: `plain` (no arguments), `pointer`
/// (one pointer), `event` (one pointer, returns gboolean), `doubles` (two doubles), `boolean` (no arguments,
/// returns gboolean). Registered at run time,
/// so the ownership tests need neither a display nor a widget.
enum SignalTestObject {
    private static let type: GType = {
        let type = g_type_register_static_simple(
            g_type_from_name("GObject"), "GalleryViewerSignalTestObject", guint(MemoryLayout<GObjectClass>.size), nil,
            guint(MemoryLayout<GObject>.size), nil, GTypeFlags(rawValue: 0))
        func add(_ name: String, returns: String, _ parameters: [String]) {
            var types = parameters.map { g_type_from_name($0) }
            g_signal_newv(name, type, G_SIGNAL_RUN_LAST, nil, nil, nil, nil, g_type_from_name(returns),
                          guint(types.count), &types)
        }
        add("plain", returns: "void", [])
        add("pointer", returns: "void", ["gpointer"])
        add("event", returns: "gboolean", ["gpointer"])
        add("doubles", returns: "void", ["gdouble", "gdouble"])
        add("boolean", returns: "gboolean", [])
        return type
    }()

    static func make() -> ObjectRef {
        ObjectRef(g_object_new_with_properties(type, 0, nil, nil)!.raw, transfer: .full)
    }

    /// Emits each signal once (with `g_signal_emitv`: `g_signal_emit_by_name` is variadic).
    static func emitAll(_ object: ObjectRef) {
        emit(object, "plain", [])
        emit(object, "pointer", [.pointer(nil)])
        emit(object, "event", [.pointer(nil)], returns: "gboolean")
        emit(object, "doubles", [.double(1.5), .double(-2)])
        emit(object, "boolean", [], returns: "gboolean")
    }

    private enum Argument {
        case pointer(UnsafeMutableRawPointer?)
        case double(Double)
    }

    private static func emit(_ object: ObjectRef, _ signal: String, _ arguments: [Argument], returns: String? = nil) {
        var values = [GValue](repeating: GValue(), count: arguments.count + 1)
        g_value_init(&values[0], type)
        g_value_set_object(&values[0], object.pointer)
        for (index, argument) in arguments.enumerated() {
            switch argument {
            case .pointer(let pointer):
                g_value_init(&values[index + 1], g_type_from_name("gpointer"))
                g_value_set_pointer(&values[index + 1], pointer)
            case .double(let value):
                g_value_init(&values[index + 1], g_type_from_name("gdouble"))
                g_value_set_double(&values[index + 1], value)
            }
        }
        if let returns {
            var result = GValue()
            g_value_init(&result, g_type_from_name(returns))
            g_signal_emitv(&values, g_signal_lookup(signal, type), 0, &result)
            g_value_unset(&result)
        } else {
            g_signal_emitv(&values, g_signal_lookup(signal, type), 0, nil)
        }
        for index in values.indices { g_value_unset(&values[index]) }
    }
}
