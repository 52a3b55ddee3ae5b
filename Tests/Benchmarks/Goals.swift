/// Every threshold `make bench` checks, in one place, each with the reason for its number.
///
/// Calibrated on the project's machines (2 cores, 24 GiB, Debian 12, Xvfb 1280×1024, release build) from
/// repeated runs; "measured" below is the range seen then. Time limits leave about 2× headroom over the
/// medians, because a concurrent build on the other core can slow a run that much; memory is repeatable to
/// ±0.2 MiB, so its limits leave room for legitimate growth only, and are tight enough that one leaked
/// pixbuf per image fails them.
enum Goals {
    // MARK: 1. Main loop never blocks

    /// Issue 14's goal, checked in every scenario that watches the main loop while the app is in use: no piece
    /// of the app's own work on the main thread — one callback, one frame's layout and paint — takes more than
    /// a 60 Hz frame. The wall-clock gaps beside it (the goals below) also hold whatever else the shared 2-core
    /// machine runs: time waiting for a core, and for the X server or a lock a preempted thread holds (see
    /// MainLoopProbe and ARCHITECTURE's "Swift 6 and the GLib main loop" for what was found and removed).
    ///
    /// Measured as the main-thread CPU time between two of the probe's firings that only one window in a
    /// thousand exceeds (`MainLoopProbe.Summary.workMilliseconds`), not the single worst window, because on
    /// the project's virtual machines the thread's CPU clock also counts time the host takes from the vCPU: a
    /// fixed loop of 1.85 ms of work measured up to 7.4 ms of thread CPU time in about one run in a thousand
    /// while both cores were busy, and the worst window of a held-End run over 100,000 items (21 ms of CPU
    /// time) held 6 of perf's 1 ms samples of the main thread, where the windows without the host's steal
    /// held about as many samples as milliseconds. The worst window is still reported beside the goal. Work
    /// that recurs (every page, every bind) is in far more than one window in a thousand and fails the goal
    /// as before. A scenario of a few hundred windows that repeats the same rounds or runs (`newview`:
    /// 9.9–16.1 ms worst in five runs, 26.3 ms in one; `thumbnails`: 8.6 ms in one full run, 16.4 ms in the
    /// next; `mainloop`, `throughput`, `sandbox`) takes the median round's worst window instead: a piece of
    /// work every round makes is in it, one inflated window is not. The scenarios that run once (`scroll`,
    /// `zoom`, `hostile`, `playback`…) keep their worst.
    static let mainThreadWorkMilliseconds = 16.0

    /// 100 ms is where a delay stops feeling instant (a click, a key, a scroll step): one callback or frame
    /// taking that long is a visible freeze. Measured 38–48 ms while the large view filtered its image on every
    /// paint; 24–37 ms since it paints a scaled copy 1:1 (now ImageCanvas's rest render).
    static let worstGapMilliseconds = 100.0

    /// At most 1% of the probe's intervals (~600 over three rounds) may stretch past two 60 Hz frames
    /// (33 ms, rounded down). The large view scales each image once per size and then copies it 1:1 on every
    /// frame (now ImageCanvas's rest render): measured p99 16–17 ms. Filtering the 1280 px image with CAIRO_FILTER_GOOD on every
    /// paint, as it once did, measured 31.0–37.4 ms and failed this goal.
    static let p99GapMilliseconds = 30.0

    // MARK: 2. Time to thumbnails

    /// Search to the visible rows' thumbnails painted. At 0 ms latency everything is local work: feed,
    /// rows, seven decodes, a frame; measured medians 78–155 ms. At 100 ms the floor is three round trips
    /// (the feed, then seven thumbnails through five connections in two rounds) = 300 ms; measured
    /// 380–430 ms. The limits are the floor plus about twice the local work.
    static let timeToThumbnailsMilliseconds: [Int: Double] = [0: 300, 100: 600]

    // MARK: 2b. Relaunch from the disk cache (CacheScenario)

    /// A launch with the server gone and nothing kept but the HTTP cache (the first screen's kept thumbnails
    /// removed), from opening the cache to the first screen painted from disk: the index (65–200 ms), window,
    /// feed parse, six decodes by helpers started after the first frame (as the app starts them), a frame.
    /// Measured medians 110–148 ms with helpers started before the window, 230–260 ms as the app does.
    static let offlineFirstScreenMilliseconds = 350.0
    /// The same with the server up at 100 ms latency: the index, one round trip for the feed, the thumbnails
    /// from disk. Measured medians 320–365 ms, against 490–630 ms for the first launch.
    static let relaunchFirstScreenMilliseconds = 650.0
    /// Issue 28's launch to content: a relaunch shows its gallery's saved first page with the thumbnails kept at
    /// quit, server up or gone, from opening the cache (in-process: after GTK's start; LaunchScenario has the
    /// process's) to the end of the first frame that showed the gallery's page (not fading in), every visible
    /// row made and showing its picture. Nothing waits for the feed, the HTTP cache's index (140–220 ms here)
    /// or a decode: both files are read on a worker while the window is made and taken from it as the launch's
    /// search begins; that first screen's rows are made at once (not a few a frame) and shown without a
    /// cross-fade. Measured medians 55–66 ms, server up or gone (the saved page's parse, on a worker,
    /// reaches the first frame or the next), of which building the window and making the search 25–41 ms.
    /// Before this stop's changes 108–138 ms; without the kept thumbnails 195–300 ms.
    static let relaunchKeptFirstScreenMilliseconds = 100.0
    /// The real release app from its spawn (LaunchScenario) to its first screen painted with every visible
    /// picture (as above), from the gallery's saved first page and its kept thumbnails, server up or gone.
    /// Measured medians 183–224 ms, of which 156–217 ms to the first frame: the process's start, its
    /// registration on the session bus and GTK opening the display and reading its theme (45–75 ms), then
    /// building the window and laying out and painting it the first time (fonts, icons, styles met the first
    /// time in the process). Not the 100 ms from the spawn: GTK 3 alone is not at its first frame by then.
    static let launchPicturesMilliseconds = 400.0
    /// ... and after that first frame: what the app's own launch path adds (the saved page's parse reaching the
    /// next frame). Measured medians 0–8 ms; the HTTP cache's index took 100–300 ms.
    static let launchPicturesAfterFirstFrameMilliseconds = 50.0
    /// Reading the index of a cache trimmed to its start size (HTTPCache.defaultMaxEntriesAfterTrim: 4,000
    /// entries), which a relaunch's first thumbnails wait for. Measured 91–147 ms.
    static let trimmedIndexReadMilliseconds = 300.0

    // MARK: 3. Throughput

    /// Thumbnails through the loader at 0 ms latency: measured medians 90–155 ms for 100 and 320–530 ms
    /// for 360 (700–1000 images/s: HTTP, decoding at 96 px on two cores, completions). 2.3× headroom.
    static let throughputWallMilliseconds: [Int: Double] = [100: 350, 360: 1200]
    /// The goal: the pipeline (scheduler, tasks, memory cache) costs at most 30% over the bare client
    /// and decoder doing the same fetches and decodes in the same run — although the pipeline keeps one of
    /// libsoup's six connections per host free for page requests.
    static let throughputOverFloor = 1.3

    // MARK: 4. Memory (MiB of VmRSS; baseline with the window open ≈ 90 MiB)

    /// 360 models and 96 px thumbnails (6.5 MiB of pixels) without widgets: measured +18 MiB. Keeping every
    /// thumbnail's downloaded bytes as well would add ~10 MiB and fail.
    static let thumbnailsGrowthMegabytes = 30.0
    /// 360 GtkListBox rows (GtkListBox makes them all eagerly): measured +25.5 MiB, ~70 KiB per row.
    static let rowsGrowthMegabytes = 40.0
    /// A dozen 1900–4000 px images viewed: RSS growth beyond the decoded images the cache holds (decode
    /// buffers malloc keeps, surfaces). Measured 31.6 MiB; one leaked full-resolution decode (a 4000 px
    /// photo is 32 MB at full size) would fail.
    static let largeBeyondCacheMegabytes = 48.0
    /// Viewing the same dozen again must come from the cache: measured 0.0 MiB. A re-decode or a leak of
    /// one 1280 px image (3 MiB) per view fails.
    static let reopenGrowthMegabytes = 4.0
    /// Once a full cache's worth has gone through the cache, memory must level off: growth between the
    /// first and last third of the readings (~100 images apart) measured 2.9 MiB (35 KiB per image). A leak
    /// of 160 KiB per image — a fifth of an average image — fails.
    static let plateauGrowthMegabytes = 16.0
    /// Highest reading of the whole scenario: measured 297 MiB (baseline 90 + cache 96 + rows + malloc's
    /// retained decode buffers, which it returns later).
    static let peakMegabytes = 400.0

    // MARK: 5. Scrolling

    /// A scroll step that freezes the list for more than 100 ms is a visible stutter. Measured 22–42 ms
    /// (each step repaints the viewport: 12–30 ms under Xvfb).
    static let scrollWorstGapMilliseconds = 100.0
    /// From the last scroll step to the bottom rows painted, at 100 ms latency: fetches in flight finish
    /// (≤ 100 ms), then seven rows in two rounds (200 ms). Measured 225–310 ms; 4.4 s with a FIFO scheduler.
    static let scrollSettleMilliseconds = 600.0

    // MARK: 6. Long galleries (issue 7)

    /// End held to the last page of 10,000 items: the goal. Memory must follow the screen, not the
    /// gallery: the window's baseline (~90 MiB) plus the thumbnail cache plus a compact model per item.
    static let tenThousandPeakMegabytes = 200.0
    /// The same for 100,000 items: ten times the models, the same screen.
    static let hundredThousandPeakMegabytes = 250.0
    /// While End is held, the main loop must keep up with a 60 Hz display (p99) and never visibly freeze.
    static let longScrollP99GapMilliseconds = 16.0
    static let longScrollWorstGapMilliseconds = 50.0
    /// A jump (End, a scrollbar drag) to rows never seen, on loopback: the view rests (50 ms), then a
    /// screenful of thumbnails is fetched and decoded and painted.
    static let jumpMilliseconds = 150.0
    /// A new search with 100,000 rows loaded clears them at once.
    static let newSearchStallMilliseconds = 50.0

    // MARK: 7. The large view: zoom and pan (issue 8)

    /// The goal: no frame over 16 ms (one 60 Hz frame) while a 4000 px photo is zoomed or panned,
    /// counted from the frame clock's before-paint to after-paint for every frame painted while the view
    /// moves. Checked three ways, because the machine is two cores shared with the X server, the decoding
    /// worker and other builds: the main thread's CPU time in every frame (the app's own work: measured
    /// 2.3–4.5 ms worst) and the wall time of 99 % of the frames stay under 16 ms; the worst wall time may
    /// reach two frames (measured 6–23 ms at load 2: the CPU time shows the rest was waiting for a core).
    static let zoomPanFrameMilliseconds = 16.0
    static let zoomPanWorstFrameMilliseconds = 33.0
    /// The full-resolution decode and its surface are made on worker threads; the main loop keeps up.
    static let zoomPanWorstGapMilliseconds = 50.0

    // MARK: 7b. Keeping a gallery (`--download`, DownloadScenario)

    /// Saving a gallery goes at least at 0.9× the rate of what bounds it, on the same URLs: at 20 ms a request,
    /// the network, so `curl --parallel --parallel-max 6` (handed the image URLs: the app reads the feed pages
    /// too); on bare loopback, the CPU a libsoup 2.4 client spends per request, so the bare libsoup client
    /// (`gallery-soup-floor --gallery`: the same pages in order and their images, nothing parsed or checked),
    /// which itself reaches only about half of curl's rate there, out of reach of any libsoup 2.4 client.
    static let downloadRateVersusBound = 0.9

    // MARK: 7c. Playing a video (PlaybackScenario)

    /// From the player being asked to the first frame of a 720p H.264 video in the sink, on loopback.
    static let playbackFirstFrameMilliseconds = 400.0
    /// The same against a bare `playbin` reading the file from disk into the same sink, in the same run: what
    /// the app's own path (its client, appsrc, the allowlist) adds.
    static let playbackVersusBare = 1.5
    /// CPU per second of playback (the whole process) against that bare pipeline's.
    static let playbackCPUVersusBare = 1.25
    /// Resident memory while a 10-minute video plays: the peak after its first minute at most this much over
    /// the first minute's (appsrc's queue and GStreamer's are bounded; nothing grows with the length played).
    static let playbackMemoryGrowthMegabytes = 8.0

    // MARK: 8. Hostile input

    /// The bound for the whole app while a gallery of decompression bombs, huge bodies and broken
    /// feeds loads: refused from their headers, such images cost nothing; what remains is the window
    /// (≈ 90 MiB), the caches and the ordinary images.
    static let hostilePeakMegabytes = 400.0

    // MARK: 9. Following (FollowCheckScenario)

    /// Issue 28's goal: a full check of 500 followed galleries holds at most this much more resident memory than
    /// before it (one feed, one page and one transaction per gallery in flight, six at a time).
    static let followCheckMemoryAboveIdleMiB = 50.0

    // MARK: 10. Decoding in sandboxed helpers (SandboxScenario)

    /// Issue 26's goal: 360 thumbnails decoded by the `gallery-decoder` helpers take at most this many times the
    /// same fetches decoded in this process on GTask workers, medians of the same run. With seven runs a side, runs
    /// of the scenario measured 1.08–1.35; with twenty-one, 1.24 and 1.25: close to the limit. The helpers' extra
    /// CPU (measured with perf: half again the in-process total) is the process boundary's — the app's and the
    /// helpers' system calls, memfd mappings and thread hand-offs, and the helpers' starts — not the decoding.
    static let sandboxOverInProcess = 1.3
    /// Issue 26's bound for the hostile SVGs and raster bombs decoded by the helpers, app and helpers summed.
    static let sandboxHostilePeakMegabytes = 400.0
}
