import GalleryCore

/// What every parser's output must satisfy, whatever the input: a violation is a crash, so libFuzzer reports it
/// like any other finding.
public enum FuzzChecks {
    public static func check(_ page: PageResult) {
        precondition(page.items.count <= 1000, "more items than any page may have")
        for item in page.items {
            let urls = [item.fullImageURL, item.pageURL].compactMap { $0 } + item.thumbnails.map(\.url)
            precondition(urls.allSatisfy(URLText.isWebAddress), "a URL that is not http(s) left the parser")
            let texts = [item.title, item.fileName, item.author ?? ""]
            precondition(texts.allSatisfy(DisplayText.isClean), "a control character reached a displayed text")
            precondition((item.altText ?? "").unicodeScalars.allSatisfy { $0 == "\n" || DisplayText.isClean(String($0)) },
                         "a control character reached the alt text")
            _ = item.identityKeys
            _ = item.thumbnailURL(covering: 96)
            _ = item.largeImageURL(fitting: 1920, maxPixels: 100_000_000)
        }
        if let next = page.next { precondition(URLText.isWebAddress(next.url), "a next page that is not http(s)") }
    }
}
