extension StringProtocol {
    /// The longest run of whole characters from the start that takes at most `limit` bytes of UTF-8: how
    /// ids and file names from a feed are bounded without splitting a character (or an emoji sequence).
    func prefix(utf8Bytes limit: Int) -> String {
        guard utf8.count > limit else { return String(self) }
        var bytes = 0
        var end = startIndex
        for character in self {
            let size = character.utf8.count
            guard bytes + size <= limit else { break }
            bytes += size
            end = index(after: end)
        }
        return String(self[..<end])
    }
}
