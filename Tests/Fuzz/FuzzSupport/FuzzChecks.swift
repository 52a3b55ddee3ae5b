import GalleryCore

/// What every parser's output must satisfy, whatever the input: a violation is a crash, so libFuzzer reports it
/// like any other finding.
public enum FuzzChecks {
    /// Parses `response` as `source` does and, when it parses, checks the page. An error is a fine answer to a
    /// broken input; a crash or a page that breaks the rules is not. `maxItems`: the parser's own cap.
    public static func parse(_ response: HTTPResponse, of request: PageRequest, with source: some GallerySource,
                             maxItems: Int) {
        if case .success(let page) = Result(catching: { () throws(GalleryError) in
            try source.parse(response, of: request)
        }) {
            check(page, maxItems: maxItems)
        }
        // What the feed may ask for ahead of the parse, from the main thread.
        if let ahead = source.nextRequestAhead(response, of: request) {
            precondition(URLText.isWebAddress(ahead.url), "a page asked for ahead that is not http(s)")
        }
    }

    public static func check(_ page: PageResult, maxItems: Int) {
        precondition(page.items.count <= maxItems, "more items than the parser lets a page have")
        for item in page.items {
            let urls = [item.fullImageURL, item.pageURL].compactMap { $0 } + item.thumbnails.map(\.url)
            precondition(urls.allSatisfy(URLText.isWebAddress), "a URL that is not http(s) left the parser")
            let texts = [item.title, item.fileName, item.author ?? ""]
            precondition(texts.allSatisfy(DisplayText.isClean), "a control character reached a displayed text")
            precondition((item.altText ?? "").unicodeScalars.allSatisfy { $0 == "\n" || DisplayText.isClean(String($0)) },
                         "a control character reached the alt text")
            precondition((item.altText?.count ?? 0) <= GalleryItem.maxAltTextLength + 1, "an alt text longer than its bound")
            precondition(item.published.map(GalleryItem.publishedRange.contains) ?? true, "a date outside GLib's years")
            _ = item.identityKeys
            _ = item.thumbnailURL(covering: 96)
            _ = item.largeImageURL(fitting: 1920, maxPixels: 100_000_000)
        }
        if let next = page.next {
            precondition(URLText.isWebAddress(next.url), "a next page that is not http(s)")
            precondition((next.body?.utf8.count ?? 0) <= 4096, "a request body that grew with the input")
        }
    }
}
