public enum AppVersion {
    public static let string = "0.1.0"
    public static let applicationID = "io.github.galleryviewer.GalleryViewer"
}
