/// The glyphs a facet's `icon:` may name. The browser draws them from
/// `PATHS` and `STROKED` in `Templates/assets/js/ui/dom.js`; a test reads
/// that file and checks both lists hold the same names, so they never drift.
/// Any other name still builds (the token shows the tag glyph), with a
/// warning at the facet.
enum FacetIcons {
  static let names: [String] = [
    "calendar", "clock", "close", "folder", "genre", "globe", "person", "place", "search", "star", "tag",
  ]
}
