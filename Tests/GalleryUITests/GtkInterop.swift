import CGtk
@_spi(GtkInterop) import GtkBindings

// The bindings show no GTK type; code that pokes GTK directly (tests, benchmarks) takes the object from the
// reference a wrapper holds, which the GtkInterop SPI lets it see.
extension Widget {
    /// The GtkWidget itself (transfer none: the wrapper keeps its reference).
    var widget: UnsafeMutablePointer<GtkWidget> { ref.typed() }
}
