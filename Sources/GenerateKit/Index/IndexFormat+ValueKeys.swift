/// The sort and range options (FORMAT.md "Sort and range files"): the
/// manifest's entries and the one file each option reads.
extension Manifest {
  /// An order results can be sorted in besides relevance (`sort:`).
  struct Sort: Codable, Equatable {
    var id: String
    var label: String
    /// Highest value first.
    var descending: Bool?
    /// The kinds whose documents have the option (the others sort last).
    var kinds: [String]
    /// A `ValueKeyFile`.
    var file: String
    /// On a large index: how many `ValueChunk` files hold the documents in
    /// value order, `<file less .<hash>.json>-<n>.<hash n>.json`, `n` from 0.
    var chunks: Int?
    /// With `chunks`: each chunk's hash (`IndexFiles.shardHashDigits` digits), in order.
    var chunkHashes: String?
  }

  /// A value results can be filtered to a span of (`range:`).
  struct Range: Codable, Equatable {
    var id: String
    var label: String
    /// `number`, `year`, `duration` or `date`: how a bound is typed and shown.
    var format: String
    /// A `ValueKeyFile` with a `scale`.
    var file: String
    /// Spans offered as tokens, from the values' quartiles: `[value, count]`.
    var offers: [Offer]

    struct Offer: Codable, Equatable {
      var value: String
      var count: Int

      init(value: String, count: Int) {
        self.value = value
        self.count = count
      }

      init(from decoder: any Decoder) throws {
        var array = try decoder.unkeyedContainer()
        value = try array.decode(String.self)
        count = try array.decode(Int.self)
      }

      func encode(to encoder: any Encoder) throws {
        var array = encoder.unkeyedContainer()
        try array.encode(value)
        try array.encode(count)
      }
    }
  }
}

/// `o/<name>.<hash>.json`: one rank per document, `width` characters each of
/// `ValueKeyFile.digits` (most significant first) in `ranks`; the largest
/// rank of that width means "no value". Ranks are dense: rank `r` is the
/// `r`-th smallest distinct value, which is `scale[r]` for numbers.
struct ValueKeyFile: Codable, Equatable {
  var width: Int
  var ranks: String
  /// The distinct values ascending (in the format's unit: seconds for a
  /// duration, days since 1970 for a date); absent for text.
  var scale: NumberList?

  /// 64 characters that JSON writes as they are, in ascending order of value.
  static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_".utf8)
}

/// `o/sort-<id>-<n>.<hash>.json`: the `n`-th run of documents in the
/// option's value order (ascending), as ascending document numbers and, for
/// each, its rank less `base` in `width` digits (`ValueKeyFile.digits`).
struct ValueChunk: Codable, Equatable {
  var base: Int
  var ids: DeltaList
  var ranks: String
  var width: Int
}

/// Numbers written as the data's numbers print (`Value.format`): `180`, `0.99`.
struct NumberList: Codable, Equatable, JSONFragment {
  var numbers: [Double]

  init(_ numbers: [Double]) { self.numbers = numbers }

  func write(into writer: inout JSONWriter) {
    writer.byte(UInt8(ascii: "["))
    for (index, number) in numbers.enumerated() {
      if index > 0 { writer.byte(UInt8(ascii: ",")) }
      for byte in Value.format(number).utf8 { writer.byte(byte) }
    }
    writer.byte(UInt8(ascii: "]"))
  }

  init(from decoder: any Decoder) throws { numbers = try [Double](from: decoder) }

  func encode(to encoder: any Encoder) throws { try numbers.encode(to: encoder) }
}
