import FoundationEssentials

/// The parts of a MediaWiki Action API reply (`format=json&formatversion=2`) the Commons source reads.
/// Strict at the top level — a body that is not an API reply is an error — and lenient per page entry,
/// so one odd file cannot hide a whole page of uploads.
struct CommonsReply: Decodable {
    /// False while MediaWiki is still delivering prop data (imageinfo) for the current generator batch.
    var batchComplete: Bool
    /// Parameters to merge into the next request; nil when the listing is complete.
    var continuation: [String: String]?
    var query: Query?
    var error: CommonsAPIError?

    struct Query: Decodable {
        /// At most `CappedList.limit` pages are read from one reply (a real one has `CommonsSource.pageSize`).
        var pages: CappedList<Lenient<Page>>?
        /// From `list=users`, asked for alongside the listing to tell "no such user" from "no uploads".
        var users: CappedList<Lenient<User>>?
    }

    struct Page: Decodable {
        var pageid: Int
        var ns: Int?
        var title: String
        var imageinfo: [ImageInfo]?
    }

    struct User: Decodable {
        var missing: Bool
        var invalid: Bool

        private enum CodingKeys: String, CodingKey { case missing, invalid }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // formatversion=2 sends `true`; version 1 sent "" — presence is what counts.
            missing = container.contains(.missing) && (try? container.decode(Bool.self, forKey: .missing)) != false
            invalid = container.contains(.invalid) && (try? container.decode(Bool.self, forKey: .invalid)) != false
        }
    }

    /// One file version. Every field is optional and read on its own: a wrong-typed width must not lose
    /// the picture. Which fields are required is decided when the item is built.
    struct ImageInfo: Decodable {
        var timestamp: String?
        var url: String?
        var descriptionurl: String?
        var thumburl: String?
        var thumbwidth: Int?
        var thumbheight: Int?
        var width: Int?
        var height: Int?
        var size: Int?
        var mime: String?
        /// `iiprop=size` of an audio or video file: its length in seconds (MediaWiki's `duration`).
        var duration: Double?
        /// `extmetadata`'s `ImageDescription` (CommonsMetadata: the description page's {{Information}}), HTML.
        var imageDescription: String?

        private enum CodingKeys: String, CodingKey {
            case timestamp, url, descriptionurl, thumburl, thumbwidth, thumbheight, width, height, size, mime, extmetadata
            case duration
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func text(_ key: CodingKeys) -> String? {
                (try? container.decodeIfPresent(String.self, forKey: key)) ?? nil
            }
            func number(_ key: CodingKeys) -> Int? {
                (try? container.decodeIfPresent(Int.self, forKey: key)) ?? nil
            }
            timestamp = text(.timestamp)
            url = text(.url)
            descriptionurl = text(.descriptionurl)
            thumburl = text(.thumburl)
            thumbwidth = number(.thumbwidth)
            thumbheight = number(.thumbheight)
            width = number(.width)
            height = number(.height)
            size = number(.size)
            mime = text(.mime)
            duration = (try? container.decodeIfPresent(Double.self, forKey: .duration)) ?? nil
            imageDescription = (try? container.decodeIfPresent(ExtMetadata.self, forKey: .extmetadata))??.imageDescription
        }
    }

    /// `iiprop=extmetadata`: `{"ImageDescription": {"value": "<p>…</p>", "source": "commons-desc-page"}, …}`.
    /// Only the keys asked for are read; a value that is not a string (a number, or the object of every
    /// language that `iiextmetadatamultilang` asks for) reads as absent.
    struct ExtMetadata: Decodable {
        var imageDescription: String?

        private enum CodingKeys: String, CodingKey { case imageDescription = "ImageDescription" }
        private struct Field: Decodable { var value: String? }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            imageDescription = (try? container.decodeIfPresent(Field.self, forKey: .imageDescription))??.value
        }
    }

    private enum CodingKeys: String, CodingKey {
        case batchcomplete, `continue`, query, error, errors
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        batchComplete = container.contains(.batchcomplete)
            && (try? container.decode(Bool.self, forKey: .batchcomplete)) != false
        continuation = try container.decodeIfPresent([String: ContinueValue].self, forKey: .continue)?
            .mapValues(\.text)
        query = try container.decodeIfPresent(Query.self, forKey: .query)
        // `errorformat=bc` (the default) sends one `error`; the newer formats send an `errors` array.
        error = try container.decodeIfPresent(CommonsAPIError.self, forKey: .error)
            ?? container.decodeIfPresent([CommonsAPIError].self, forKey: .errors)?.first
        if !container.contains(.batchcomplete) && continuation == nil && query == nil && error == nil {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not a MediaWiki API reply"))
        }
    }

    /// Continuation values are strings; a number is accepted as its decimal text.
    private struct ContinueValue: Decodable {
        var text: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) {
                text = String(number)
            } else {
                text = try container.decode(String.self)
            }
        }
    }
}

/// An API error object: `{"code": "...", "info": "..."}` (or `"text"` in the newer error formats).
struct CommonsAPIError: Decodable, Equatable {
    var code: String
    var info: String

    private enum CodingKeys: String, CodingKey { case code, info, text }

    init(code: String, info: String) {
        self.code = code
        self.info = info
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decode(String.self, forKey: .code)
        info = (try? container.decodeIfPresent(String.self, forKey: .info))
            ?? (try? container.decodeIfPresent(String.self, forKey: .text)) ?? ""
    }
}
