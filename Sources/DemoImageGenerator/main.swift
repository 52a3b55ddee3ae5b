import ArgumentParser
import GalleryDemoServer

/// `gallery-demo-images`: renders the demo gallery's images (build step behind `make demo-data`).
struct GenerateDemoImages: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery-demo-images",
        abstract: "Render the images of the offline demo gallery (full size, 150 px and 300 px thumbnails), its videos and sound.",
        discussion: "Files already made for the same catalog and renderer are kept, so re-runs are quick.")

    @Option(help: "Data directory holding demo/users.json (default: the source tree's data/).")
    var data: String?

    @Option(help: "Images directory to fill (default: <data>/demo/images).")
    var output: String?

    @Option(help: "Parallel jobs (default: number of CPUs).")
    var jobs: Int = DemoImageGeneration.defaultJobs

    @Flag(help: "Print every file as it is rendered.")
    var verbose = false

    func run() throws {
        let dataDirectory = data ?? DemoGalleryLocation.sourceTreeDataDirectory
        let catalog = try DemoCatalog(contentsOf: DemoGalleryLocation.catalogPath(in: dataDirectory))
        let outputDirectory = output ?? DemoGalleryLocation.imagesDirectory(in: dataDirectory)
        let printLine: @Sendable (String) -> Void = { line in print(line) }
        let report = try DemoImageGeneration.run(catalog: catalog, outputDirectory: outputDirectory, jobs: jobs,
                                                 log: verbose ? printLine : nil)
        let media = try DemoMediaGeneration.run(imagesDirectory: outputDirectory)
        let megabytes = Double(report.totalBytes) / 1_048_576
        print("gallery-demo-images: \(report.rendered) rendered, \(report.skipped) up to date, "
              + "\(report.removed) stale removed, \(media) videos and sounds encoded; \(formatted(megabytes)) MB in \(outputDirectory); "
              + "\(formatted(report.seconds)) s")
    }

    private func formatted(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

GenerateDemoImages.main()
