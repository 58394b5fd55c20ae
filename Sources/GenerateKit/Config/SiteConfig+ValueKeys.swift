extension SiteConfig {
  /// One entry of a collection's `sort:` or `range:` (docs/configuration.md
  /// "Sort and ranges"): a value per record that results can be ordered by or
  /// filtered to a span of. The `id` names the option in the address
  /// (`?sort=length`, `token=length:<3:00`) and the index file; collections
  /// that give the same id share one option and one file.
  public struct ValueKey: Sendable {
    public var id: String
    public var label: String
    /// An expression over the record, or `title` (the record's title) or
    /// `popularity` (its popularity).
    public var by: Located<String>
    /// Sorts only: the order the option lists records in.
    public var descending: Bool
    /// How a value is read and shown (ranges; a sort reads numbers as numbers).
    public var format: ValueFormat
    public var location: SourceLocation
  }

  /// How a key's values are read from the data and written on tokens.
  public enum ValueFormat: String, Sendable, CaseIterable {
    /// Any number, shown as written.
    case number
    /// A whole year (`1975`).
    case year
    /// Milliseconds, shown and typed as `m:ss` (whole seconds).
    case duration
    /// An ISO 8601 date (`1975-06-30`, or its first 10 characters), kept as
    /// days since 1970-01-01 and shown as `YYYY-MM-DD`.
    case date
    /// Text, ordered by its normalised form (sorts only).
    case text
  }
}
