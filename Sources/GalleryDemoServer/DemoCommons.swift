/// The demo users as Wikimedia Commons' MediaWiki Action API answers for them:
/// `/w/api.php?action=query&generator=allimages&gaiuser=USER&prop=imageinfo&list=users&ususers=USER&…
/// &format=json&formatversion=2`, in the shapes of API:Allimages, API:Imageinfo and API:Users. Every picture
/// is one uploaded file, newest first (`gaisort=timestamp&gaidir=older`); a reply with more files to come
/// carries `continue` (`gaicontinue` names the next file), which the client merges into its next request.
/// An unknown user is `missing` in the users list, with no pages, as MediaWiki answers. Every seventh upload
/// is a WebM video or an Ogg sound (`DemoMedia.commonsUpload`), with its length and mime type.
public enum DemoCommons {
    /// allimages' default `gailimit`, and its ceiling for clients without the apihighlimits right.
    static let defaultLimit = 10
    static let maxLimit = 500

    /// The MediaWiki form of a demo user's name: first letter capital.
    public static func username(of user: String) -> String { DemoPosts.displayName(user) }

    static func query(_ query: [String: String], catalog: DemoCatalog, baseURL: String) -> ServerResponse {
        guard query["action"] == "query" else {
            return apiError("badvalue", "Unrecognized value for parameter \"action\": \(query["action"] ?? "").")
        }
        guard query["format"] == "json" else {
            return apiError("badvalue", "The demo server writes format=json only.")
        }
        guard query["generator"] == "allimages", let name = query["gaiuser"] else {
            return apiError("badvalue", "The demo server lists one user's uploads: generator=allimages&gaiuser=USER.")
        }
        let limit = min(maxLimit, max(1, query["gailimit"].flatMap { Int($0) } ?? defaultLimit))
        let user = catalog.user(named: name)
        var members: [(String, JSONValue)] = [("batchcomplete", true)]
        var start = 0
        if let token = query["gaicontinue"] {
            // "TIMESTAMP|FILE NAME" of the first file of the page asked for.
            guard let bar = token.firstIndex(of: "|"), let user,
                  let index = user.items.firstIndex(where: { uploadIsNamed($0, token[token.index(after: bar)...]) }) else {
                return apiError("badcontinue", "Invalid continue param. You should pass the original value returned by the previous query.")
            }
            start = index
        }
        let items = user.map { Array($0.items.dropFirst(start).prefix(limit)) } ?? []
        if let user, start + items.count < user.items.count {
            let next = user.items[start + items.count]
            members.append(("continue", .object([("gaicontinue", .string("\(timestampDigits(next.published))|\(uploadName(next))")),
                                                 ("continue", "gaicontinue||users")])))
        }
        var queryMembers: [(String, JSONValue)] = []
        // The users list comes with the first reply; continued replies leave it out, as `continue` says.
        if query["gaicontinue"] == nil, query["list"] == "users" {
            let asked = query["ususers"] ?? name
            queryMembers.append(("users", .array([user.map {
                .object([("userid", .int(userID(of: $0.name))), ("name", .string(username(of: $0.name)))])
            } ?? .object([("name", .string(asked)), ("missing", true)])])))
        }
        if !items.isEmpty {
            queryMembers.append(("pages", .array(items.map { page($0, query: query, baseURL: baseURL) })))
        }
        if !queryMembers.isEmpty { members.append(("query", .object(queryMembers))) }
        let text = JSONValue.object(members).render()
        return json(user?.feedIsBroken == true ? String(text.prefix(text.count / 2)) : text)
    }

    static func userID(of user: String) -> Int { Int(DemoPosts.word("commons:" + user, length: 7, alphabet: "123456789"))! }

    /// "20240601120000": allimages' continuation writes the upload time in MediaWiki's TS_MW form.
    static func timestampDigits(_ seconds: Int) -> String {
        String(RFC822Date.iso8601(secondsSince1970: seconds).prefix(19).filter(\.isNumber))
    }

    private static func page(_ item: DemoItem, query: [String: String], baseURL: String) -> JSONValue {
        let media = DemoMedia.commonsUpload(item)
        let thumbnail = item.thumbnailSize(longSide: 300)
        let properties = Set((query["iiprop"] ?? "timestamp").split(separator: "|").map(String.init))
        var info: [(String, JSONValue)] = []
        if properties.contains("timestamp") {
            info.append(("timestamp", .string(String(RFC822Date.iso8601(secondsSince1970: item.published).prefix(19)) + "Z")))
        }
        // `size` (bytes) is left out: the demo server knows a file's length only once it has read it.
        if properties.contains("size") {
            if let media {
                // A sound has no frame (MediaWiki says 0 × 0); a video or sound has its length in seconds.
                let frame = media.size ?? (0, 0)
                info += [("width", .int(frame.width)), ("height", .int(frame.height)), ("duration", .double(media.duration))]
            } else {
                info += [("width", .int(item.width)), ("height", .int(item.height))]
            }
        }
        // A video's thumbnail is a still frame (the demo's: the item's picture); a sound has none.
        if query["iiurlwidth"] != nil && properties.contains("url") && media?.isSound != true {
            // The demo's thumbnails are 300 px on the long side, whatever width is asked for.
            info += [("thumburl", .string(baseURL + item.imagePath(thumbnailLongSide: 300))),
                     ("thumbwidth", .int(thumbnail.width)), ("thumbheight", .int(thumbnail.height))]
        }
        if properties.contains("url") {
            info += [("url", .string(baseURL + (media?.path ?? item.imagePath()))), ("descriptionurl", .string(baseURL + item.pagePath))]
        }
        if properties.contains("mime") { info.append(("mime", .string(media?.mediaType ?? item.format.mediaType))) }
        if properties.contains("extmetadata"), let altText = item.altText {
            info.append(("extmetadata", .object([("ImageDescription", .object([
                ("value", .string(XMLEscaping.html(altText))), ("source", "commons-desc-page"),
            ]))])))
        }
        return .object([("pageid", .int(item.id)), ("ns", 6), ("title", .string("File:" + uploadName(item))),
                        ("imagerepository", "local"), ("imageinfo", .array([.object(info)]))])
    }

    /// Whether `item`'s upload is called `name`: a name is made only for the few that are media, so finding
    /// where a continuation starts costs a comparison per upload, not a new string per upload.
    private static func uploadIsNamed(_ item: DemoItem, _ name: Substring) -> Bool {
        DemoMedia.commonsUpload(item) == nil ? item.fileName == name : uploadName(item) == name
    }

    /// The upload's file name: the picture's, or for a video or sound the same name with its own extension.
    public static func uploadName(_ item: DemoItem) -> String {
        guard let media = DemoMedia.commonsUpload(item), let dot = item.fileName.lastIndex(of: ".") else { return item.fileName }
        return item.fileName[..<dot] + "." + (media.fileName.split(separator: ".").last.map(String.init) ?? "")
    }

    static func apiError(_ code: String, _ info: String) -> ServerResponse {
        // MediaWiki sends API errors with status 200 and a `MediaWiki-API-Error` header.
        var response = json(JSONValue.object([("error", .object([("code", .string(code)), ("info", .string(info))]))]).render())
        response.headers.append(("MediaWiki-API-Error", code))
        return response
    }

    static func json(_ text: String, status: UInt32 = 200) -> ServerResponse {
        .text(text, status: status, contentType: "application/json; charset=utf-8")
    }
}
