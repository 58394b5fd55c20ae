/// Lists (`"tags": ["fantasy", "comedy"]`, a CSV column declared under
/// `lists:`) in a profile: its kind is `.list`, so none of the rules that
/// read one value per record (a key, a reference, a title, a code) takes
/// it; the numbers are over the items, for the rules that ask what a list
/// holds (`CollectionInference.listFields`).
extension ColumnProfile {
  /// Profiles a list column: `empty` counts the records without an item,
  /// `distinct`, lengths and samples are over the items, `items` counts
  /// them all and `itemKind` is the kind they share.
  init(name: String, lists cells: some Collection<String>, sampleCount: Int = 3) {
    var items: [String] = []
    var empty = 0
    for cell in cells {
      let cellItems = Table.items(of: cell)
      if cellItems.isEmpty { empty += 1 }
      items += cellItems
    }
    self.init(name: name, values: items, sampleCount: sampleCount)
    itemKind = kind
    kind = .list
    rows = cells.count
    self.empty = empty
    self.items = items.count
  }
}
