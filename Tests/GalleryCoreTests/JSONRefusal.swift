@testable import GalleryCore

/// Whether `parse` fails as JSON that cannot be read at all (cut off, or nested past the JSON reader's depth
/// limit), rather than for its shape. The reader stops at that depth, so a refusal there is work bounded by
/// the limit whatever the reply holds after it.
func isRefusedJSON<T>(_ parse: () throws -> T) -> Bool {
    do {
        _ = try parse()
        return false
    } catch {
        guard case .malformedResponse(_, let detail) = error as? GalleryError else { return false }
        return detail.contains("not valid JSON")
    }
}
