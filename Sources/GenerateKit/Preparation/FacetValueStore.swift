/// Every document's facet values, flat: each distinct value once, and per
/// document and facet the numbers of its values. A list of strings per
/// document and facet (an array header and a String each) was 140 bytes a
/// record at 300k records with two facets (`docs/scale.md`); here it is 8
/// bytes a value, 4 a list.
struct FacetValueStore: Sendable {
  let facetCount: Int
  /// The distinct values, in the order first met.
  private(set) var names: [String] = []
  private var numbers: [String: UInt32] = [:]
  /// The values' numbers, list after list.
  private var values: [UInt32] = []
  /// Per document and facet (`document * facetCount + facet`), where its list ends in `values`.
  private var ends: [UInt32] = []

  init(facetCount: Int) { self.facetCount = facetCount }

  /// Adds the next document's lists, one per facet.
  mutating func append(_ lists: [[String]]) {
    precondition(lists.count == facetCount, "one list per facet")
    for list in lists {
      for name in list {
        let number = numbers[name] ?? UInt32(names.count)
        if number == names.count {
          numbers[name] = number
          names.append(name)
        }
        values.append(number)
      }
      ends.append(UInt32(values.count))
    }
  }

  /// The values lists are made of are looked up no more once every
  /// document is in.
  mutating func finish() {
    numbers = [:]
    values.shrinkToFit()
    ends.shrinkToFit()
  }

  var documentCount: Int { facetCount == 0 ? 0 : ends.count / facetCount }

  /// Document `document`'s values of facet `facet`, in the order found.
  func values(of document: Int, facet: Int) -> [String] {
    let slot = document * facetCount + facet
    guard slot < ends.count else { return [] }
    let start = slot == 0 ? 0 : Int(ends[slot - 1])
    return values[start..<Int(ends[slot])].map { names[Int($0)] }
  }
}

extension Array {
  /// Drops spare capacity (an array grown by appending has up to twice its size).
  fileprivate mutating func shrinkToFit() {
    guard capacity > count + 16 else { return }
    var copy: [Element] = []
    copy.reserveCapacity(count)
    copy.append(contentsOf: self)
    self = copy
  }
}
