import GObjectBindings
import GalleryDemoServer
import GalleryHostileServer
import TestSupport
import XCTest
@testable import GalleryCore
#if canImport(Glibc)
import Glibc
#endif

/// Images are decoded by real `gallery-decoder` helper processes: the pixels come back in sealed memfds, a
/// helper that dies or lies costs one image, and the app goes on.
final class SandboxedDecodingTests: GLibTestCase {
    @MainActor
    private static func decode(_ bytes: Bytes, with decoder: ImageDecoder, maxPixelSize: Int? = 96)
        -> Result<ImageDecoder.Output, ImageLoadError>? {
        var result: Result<ImageDecoder.Output, ImageLoadError>?
        decoder.decode(bytes, maxPixelSize: maxPixelSize, cancellable: Cancellable()) { result = $0 }
        iterateMainLoop(until: { result != nil }, timeout: 120)
        return result
    }

    private static let png = try! Pixbuf.filled(width: 96, height: 64, rgba: 0x2ec27eff).encoded(as: "png")

    func testPixelsComeFromASealedHelperMappedWithoutACopy() throws {
        try MainActor.assumeIsolated {
            let decoder = ImageDecoder()
            let image = try XCTUnwrap(Self.decode(Self.png, with: decoder)).get().image
            XCTAssertEqual([image.pixbuf.width, image.pixbuf.height], [96, 64])
            let helpers = decoder.helperProcessIDs
            XCTAssertEqual(helpers.count, 1)
            XCTAssertFalse(helpers.contains(getpid()))
            XCTAssertTrue(try XCTUnwrap(decoder.protections).0.contains(.seccomp), "the helper's system-call filter")
            // The pixbuf's pixels are the helper's memfd, mapped here: not a copy in the app's heap.
            let address = image.pixbuf.withUnsafePixels { pixels, _, _ in UInt(bitPattern: pixels) }
            let maps = try XCTUnwrap(File.smallText(atPath: "/proc/self/maps")).split(separator: "\n")
            let mapping = try XCTUnwrap(maps.first { line in
                let range = line.prefix { $0 != " " }.split(separator: "-").compactMap { UInt($0, radix: 16) }
                return range.count == 2 && (range[0]..<range[1]).contains(address)
            })
            XCTAssertTrue(mapping.contains("/memfd:gallery-pixels"), String(mapping))
            XCTAssertTrue(mapping.contains(" r--s "), "read-only and shared: \(mapping)")
        }
    }

    func testWithoutNamespacesHelpersStillRunApartWithTheirFilter() throws {
        try MainActor.assumeIsolated {
            // No bubblewrap at all, and one that cannot start (as where namespaces are not allowed): the helper
            // runs without it, still a process of its own under seccomp.
            for bubblewrap in [nil, "/bin/false"] as [String?] {
                let decoder = ImageDecoder(sandbox: DecoderSandbox(bubblewrapPath: bubblewrap))
                XCTAssertNoThrow(try XCTUnwrap(Self.decode(Self.png, with: decoder)).get(), "\(bubblewrap ?? "none")")
                let (protections, namespaces) = try XCTUnwrap(decoder.protections)
                XCTAssertFalse(namespaces)
                XCTAssertTrue(protections.contains(.seccomp))
                XCTAssertFalse(decoder.helperProcessIDs.contains(getpid()))
            }
        }
    }

    func testAHelperKilledMidDecodeCostsAtMostARetryAndTheAppGoesOn() throws {
        try MainActor.assumeIsolated {
            let decoder = ImageDecoder()
            var result: Result<ImageDecoder.Output, ImageLoadError>?
            decoder.decode(Self.slowSVG, maxPixelSize: nil, cancellable: Cancellable()) { result = $0 }
            iterateMainLoop(until: { !decoder.helperProcessIDs.isEmpty }, timeout: 120)
            let started = try XCTUnwrap(decoder.helperProcessIDs.first)
            // The helper itself, inside bubblewrap where it runs: the last of the started process's descendants.
            let killed = Self.descendants(of: started).last ?? started
            XCTAssertNil(result, "the blurred 4096 px rendering is still running")
            kill(killed, SIGKILL)
            iterateMainLoop(until: { result != nil }, timeout: 120)
            // Retried once on a new helper, which renders it.
            let image = try XCTUnwrap(result).get().image
            XCTAssertEqual(max(image.pixbuf.width, image.pixbuf.height), ImageDecodeLimits.vectorPixelSize)
            XCTAssertEqual(decoder.helperStarts.count, 2)
            XCTAssertFalse(decoder.helperProcessIDs.contains(started))
            XCTAssertNoThrow(try XCTUnwrap(Self.decode(Self.png, with: decoder)).get())
        }
    }

    func testRasterHelpersLeaveTheSVGLoaderOutAndTheFirstSVGStartsAHelperWithIt() throws {
        try MainActor.assumeIsolated {
            let tinySVG = Bytes(#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20"/></svg>"#)
            let decoder = ImageDecoder()
            XCTAssertNoThrow(try XCTUnwrap(Self.decode(Self.png, with: decoder)).get())
            let raster = decoder.helperProcessIDs
            XCTAssertEqual(raster.count, 1)
            XCTAssertEqual(try Self.helpersLoading("librsvg", among: raster), [], "a raster helper never loads librsvg")
            XCTAssertEqual(try Self.helpersLoading("libcairo", among: raster), [], "nor cairo (X11, fontconfig…)")
            let rasterStarts = decoder.helperStarts.count
            let image = try XCTUnwrap(Self.decode(tinySVG, with: decoder)).get().image
            XCTAssertEqual([image.pixbuf.width, image.pixbuf.height], [40, 20])
            let vector = decoder.helperProcessIDs.filter { !raster.contains($0) }
            XCTAssertEqual(vector.count, 1, "the SVG went to a helper of its own")
            XCTAssertEqual(try Self.helpersLoading("librsvg", among: vector).count, 1)
            XCTAssertEqual(decoder.helperStarts.count, rasterStarts + 1)

            // Asked for an SVG all the same, a raster helper has no loader for it: its format is off.
            let pool = DecoderPool(sandbox: DecoderSandbox(), formats: [.png], size: 1)
            var failure: DecoderFailure?
            pool.decode(DecodeRequest(loaderType: "svg", maxPixelSize: 96, expectedSize: nil, maxPixels: nil, byteCount: 0),
                        bytes: { tinySVG }) { result in if case .failure(let error) = result { failure = error } }
            iterateMainLoop(until: { failure != nil }, timeout: 120)
            XCTAssertEqual(failure, .noLoader)
            pool.stopIdle()
        }
    }

    func testWhereBubblewrapFailsTheSVGHelperStartsWithoutItAtOnce() throws {
        try MainActor.assumeIsolated {
            let decoder = ImageDecoder(sandbox: DecoderSandbox(bubblewrapPath: "/bin/false"))
            var notes: [String] = []
            decoder.whenNamespaceSandboxFails { notes.append($0) }
            XCTAssertNoThrow(try XCTUnwrap(Self.decode(Self.png, with: decoder)).get())
            XCTAssertEqual(decoder.helperStarts.count, 2, "one start in bubblewrap, one without")
            XCTAssertNoThrow(try XCTUnwrap(Self.decode(Self.slowSVG, with: decoder, maxPixelSize: 64)).get())
            XCTAssertEqual(decoder.helperStarts.count, 3, "the SVG's helper knew: no start in bubblewrap")
            XCTAssertEqual(notes.count, 1, "said once")
        }
    }

    /// Those of the helpers `pids` (and their descendants: bubblewrap's helper) that have `library` mapped.
    private static func helpersLoading(_ library: String, among pids: [Int32]) throws -> [Int32] {
        try pids.filter { pid in
            try ([pid] + descendants(of: pid)).contains { process in
                try XCTUnwrap(File.smallText(atPath: "/proc/\(process)/maps")).contains(library)
            }
        }
    }

    func testRequestsSentAheadToOneHelperEachGetTheirOwnImage() {
        MainActor.assumeIsolated {
            // One helper, two requests in flight: the second waits in its socket while the first is decoded,
            // and each reply must be read by the worker that sent its request, or images swap.
            let feeder = Feeder(pool: DecoderPool(sandbox: DecoderSandbox(), size: 1), widths: Array(8..<128))
            feeder.pool.onAvailable = { [weak feeder] in feeder?.feed() }
            feeder.feed()
            iterateMainLoop(until: { feeder.decoded.count == feeder.widths.count }, timeout: 120)
            XCTAssertEqual(feeder.decoded, Dictionary(uniqueKeysWithValues: feeder.widths.map { ($0, $0) }))
            XCTAssertEqual(feeder.pool.startLog.count, 1, "one helper decoded them all")
            XCTAssertEqual(feeder.mostInFlight, DecoderPool.depth, "requests were sent ahead")
            feeder.pool.stopIdle()
        }
    }

    /// Gives the pool PNGs of distinct widths whenever it can take one, and records the width each came back as.
    @MainActor
    private final class Feeder {
        let pool: DecoderPool
        let widths: [Int]
        let images: [Bytes]
        var decoded: [Int: Int] = [:]
        var next = 0, mostInFlight = 0

        init(pool: DecoderPool, widths: [Int]) {
            (self.pool, self.widths) = (pool, widths)
            images = widths.map { try! Pixbuf.filled(width: $0, height: 5, rgba: 0x3584e4ff).encoded(as: "png") }
        }

        func feed() {
            while next < widths.count, pool.canStart {
                let (width, bytes) = (widths[next], images[next])
                next += 1
                let request = DecodeRequest(loaderType: "png", maxPixelSize: nil,
                                            expectedSize: .init(width: width, height: 5), maxPixels: nil, byteCount: 0)
                pool.decode(request, bytes: { bytes }) { [weak self] result in
                    self?.decoded[width] = (try? result.get().pixbuf.width) ?? -1
                }
                mostInFlight = max(mostInFlight, pool.busy)
            }
        }
    }

    /// An SVG whose rendering at 4096 px takes a while: a large blur over many shapes.
    private static let slowSVG: Bytes = {
        var svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="4096" height="4096">"#
            + #"<filter id="b"><feGaussianBlur stdDeviation="60"/></filter><g filter="url(#b)">"#
        for index in 0..<400 {
            svg += #"<circle cx="\#(index * 97 % 4096)" cy="\#(index * 61 % 4096)" r="\#(40 + index % 200)" fill="rgb(\#(index % 256),\#(index * 7 % 256),90)"/>"#
        }
        return Bytes(svg + "</g></svg>")
    }()

    func testALyingHelperIsStoppedAndItsImageIsAnError() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            // The honest fake first: the lies below are what fail, not the fake itself.
            // "frames": an animation's frames, well formed, to a request for a still image.
            for mode in ["honest", "unsealed", "size", "large", "frames", "crash"] {
                let path = folder.path + "/helper-\(mode)"
                folder.write(Array(FakeHelper.script(mode: mode).utf8), to: "helper-\(mode)")
                chmod(path, 0o755)
                let decoder = ImageDecoder(sandbox: DecoderSandbox(helperPath: path, bubblewrapPath: nil))
                let result = try XCTUnwrap(Self.decode(Self.png, with: decoder), mode)
                switch mode {
                case "honest":
                    XCTAssertEqual(try result.get().image.pixbuf.width, 8)
                case "crash":
                    XCTAssertEqual(result.failureValue, .unsafe(reason: "it crashed its decoder, or needs more memory than allowed"))
                    XCTAssertEqual(decoder.helperStarts.count, 2, "retried once")
                default:
                    XCTAssertEqual(result.failureValue, .unsafe(reason: "its decoder answered out of bounds"), mode)
                    XCTAssertEqual(result.failureValue?.message, "Could not decode this image safely: its decoder answered out of bounds")
                    XCTAssertTrue(decoder.helperProcessIDs.isEmpty, "\(mode): the liar was stopped")
                }
            }
        }
    }

    func testAGalleryOfImagesThatCrashTheirDecoderStartsHelpersAtABoundedRate() {
        MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            folder.write(Array(FakeHelper.script(mode: "crash").utf8), to: "helper")
            chmod(folder.path + "/helper", 0o755)
            var sandbox = DecoderSandbox(helperPath: folder.path + "/helper", bubblewrapPath: nil)
            sandbox.maxStartsPerWindow = 3
            sandbox.startWindowMicroseconds = 1_000_000
            let decoder = ImageDecoder(sandbox: sandbox)
            var results: [Result<ImageDecoder.Output, ImageLoadError>] = []
            for _ in 0..<6 {
                decoder.decode(Self.png, maxPixelSize: 96, cancellable: Cancellable()) { results.append($0) }
            }
            iterateMainLoop(until: { results.count == 6 }, timeout: 120)
            XCTAssertEqual(results.compactMap(\.failureValue).count, 6, "every image is its own error")
            let starts = decoder.helperStarts
            // More than one window's worth: held back, the decodes went on once the window moved (a helper takes
            // two requests, so one death may fail two images).
            XCTAssertGreaterThan(starts.count, sandbox.maxStartsPerWindow)
            XCTAssertLessThanOrEqual(starts.count, 12, "one retry per image at most")
            for (index, start) in starts.enumerated() {
                let inWindow = starts[index...].prefix { $0 - start <= sandbox.startWindowMicroseconds }
                XCTAssertLessThanOrEqual(inWindow.count, 3, "starts within one window")
            }
        }
    }

    func testSVGsCannotReachPastTheLimitsThroughWhatTheyEmbed() throws {
        try MainActor.assumeIsolated {
            let server = HostileServer()
            try server.start()
            let pipeline = ImagePipeline(client: HTTPClient())
            for size in [96, nil] as [Int?] {
                for bomb in [HostileImage.svgDataBomb, .svgNestedBomb] {
                    let failure = loadImage(server.imageURL(bomb), with: pipeline, maxPixelSize: size).failureValue()
                    XCTAssertEqual(failure, .tooLarge(width: 30000, height: 30000, frames: 1), "\(bomb)")
                }
                XCTAssertNoThrow(try XCTUnwrap(loadImage(server.imageURL(.svgICO), with: pipeline, maxPixelSize: size)).get())
                // External references are never fetched: the picture renders without them.
                XCTAssertNoThrow(try XCTUnwrap(loadImage(server.imageURL(.svgExternal), with: pipeline, maxPixelSize: size)).get())
            }
            XCTAssertFalse(server.requestLog.contains { $0.contains("svg-reference") }, "\(server.requestLog)")
            // Whatever the loaders allocated, the helpers stayed small; no ICO loader was ever loaded (its
            // format is off, and the system-call filter would stop the module's open).
            for pid in pipeline.decoder.helperProcessIDs.flatMap({ [$0] + Self.descendants(of: $0) }) {
                let maps = try XCTUnwrap(File.smallText(atPath: "/proc/\(pid)/maps"))
                XCTAssertFalse(maps.contains("libpixbufloader-ico"), "helper \(pid)")
                let status = try XCTUnwrap(File.smallText(atPath: "/proc/\(pid)/status"))
                let peak = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
                let kibibytes = try XCTUnwrap(Int(peak.split(separator: " ")[1]))
                XCTAssertLessThan(kibibytes, 400 * 1024, "helper \(pid)")
            }
        }
    }

    /// Every process under `pid` (bubblewrap's, then the helper), children before grandchildren.
    private static func descendants(of pid: Int32) -> [Int32] {
        let children = (File.smallText(atPath: "/proc/\(pid)/task/\(pid)/children") ?? "").split(separator: " ").compactMap { Int32($0) }
        return children + children.flatMap { descendants(of: $0) }
    }

    func testTheProtocolRefusesEveryFieldOutOfBounds() {
        let request = DecodeRequest(loaderType: "png", maxPixelSize: 96, expectedSize: .init(width: 10, height: 20),
                                    maxPixels: 1000, byteCount: 5)
        XCTAssertEqual(DecodeRequest(decoding: request.encoded()), request)
        var bad = request.encoded()
        bad[4] = UInt8(ascii: "/")
        XCTAssertNil(DecodeRequest(decoding: bad), "a loader name that is not a plain word")
        XCTAssertNil(DecodeRequest(decoding: Array(request.encoded().dropLast())))
        var unterminated = request.encoded()
        unterminated.replaceSubrange(4..<20, with: [UInt8](repeating: UInt8(ascii: "e"), count: 16))
        XCTAssertNil(DecodeRequest(decoding: unterminated), "a name that fills its field (found by make fuzz)")

        var reply = DecodeReply(status: .decoded)
        (reply.width, reply.height, reply.rowStride, reply.hasAlpha, reply.pixelBytes) = (10, 20, 40, true, 800)
        var length = 0
        XCTAssertEqual(DecodeReply(decoding: reply.encoded(), messageLength: &length), reply)
        for lie in [(\DecodeReply.rowStride, 39), (\.rowStride, 200), (\.pixelBytes, 801), (\.width, 0), (\.height, 70000)] {
            var lying = reply
            lying[keyPath: lie.0] = lie.1
            XCTAssertNil(DecodeReply(decoding: lying.encoded(), messageLength: &length), "\(lie)")
        }
        var animation = reply
        (animation.frameCount, animation.pixelBytes) = (3, 2400)
        XCTAssertEqual(DecodeReply(decoding: animation.encoded(), messageLength: &length), animation)
        animation.frameDelays = [20, 0, 655_350]
        XCTAssertEqual(DecodeReply.delays(decoding: animation.delayBytes), [20, 0, 655_350])
        animation.frameDelays = []
        for lie in [(\DecodeReply.pixelBytes, 800), (\.pixelBytes, 2401), (\.frameCount, DecoderProtocol.maxFrames + 1)] {
            var lying = animation
            lying[keyPath: lie.0] = lie.1
            XCTAssertNil(DecodeReply(decoding: lying.encoded(), messageLength: &length), "frames: \(lie)")
        }
        var framesRequest = request
        (framesRequest.maxFrames, framesRequest.maxFrameBytes) = (12, 1 << 20)
        XCTAssertEqual(DecodeRequest(decoding: framesRequest.encoded()), framesRequest)
        framesRequest.maxFrameBytes = 0
        XCTAssertNil(DecodeRequest(decoding: framesRequest.encoded()), "frames without the bytes they may take")
        var refusal = DecodeReply(status: .refused)
        refusal.pixelBytes = 4
        XCTAssertNil(DecodeReply(decoding: refusal.encoded(), messageLength: &length), "pixels without an image")
    }
}

/// A stand-in for `gallery-decoder` that speaks the protocol and lies as `mode` says.
private enum FakeHelper {
    static func script(mode: String) -> String {
        #"""
        #!/usr/bin/env python3
        import fcntl, os, signal, socket, struct, sys
        mode = "\#(mode)"
        s = socket.socket(fileno=3)
        def reply(status, w=0, h=0, stride=0, size=0, fds=None, frames=0):
            header = struct.pack("<IIIIIIIIQIIII", 0x44564741, status, w, h, stride, 3, w, h, size, 1, 0, frames, 0)
            if fds: socket.send_fds(s, [header], fds)
            else: s.sendall(header)
            s.sendall(struct.pack("<%dI" % frames, *([100] * frames)))
        def read(n):
            data = b""
            while len(data) < n:
                chunk = s.recv(min(n - len(data), 1 << 20))
                if not chunk: sys.exit(0)
                data += chunk
            return data
        reply(5)
        while True:
            header = read(64)
            read(struct.unpack("<Q", header[40:48])[0])
            if mode == "crash": os.kill(os.getpid(), signal.SIGSEGV)
            w, h = (4000, 2) if mode == "large" else (8, 8)
            stride, size = w * 3, w * 3 * h
            frames = 2 if mode == "frames" else 0
            size *= max(1, frames)
            fd = os.memfd_create("lie", os.MFD_ALLOW_SEALING)
            os.ftruncate(fd, size * 2 if mode == "size" else size)
            if mode != "unsealed":
                fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE)
            reply(0, w, h, stride, size, [fd], frames)
            os.close(fd)
        """#
    }
}
