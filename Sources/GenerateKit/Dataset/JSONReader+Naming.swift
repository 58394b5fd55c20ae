/// Which record and field a failure of the reader was in, worked out only
/// once it has failed: the record is read again from its start up to the
/// failure, following just the punctuation, so good input pays nothing.
extension JSONReader {
  /// `error`, thrown while reading record `ordinal` (which starts at
  /// `start`), with the record and the field being read named first:
  /// `record 3: field 'name' holds invalid UTF-8 …`.
  func naming(_ error: DiagnosticsError, record ordinal: Int, from start: Int) -> DiagnosticsError {
    guard error.diagnostics.count == 1, var diagnostic = error.diagnostics.first else { return error }
    let place = Self.place(in: bytes, from: start, to: failedAt)
    let record = "record \(ordinal)"
    switch place {
    case .field(let name):
      if let failedPredicate {
        diagnostic.message = "\(record): field '\(name)' \(failedPredicate)"
      } else {
        diagnostic.message = "\(record): field '\(name)': \(diagnostic.message)"
      }
    case .name(let object):
      let whose = object.map { " in field '\($0)'" } ?? ""
      if let failedPredicate {
        diagnostic.message = "\(record): a field's name\(whose) \(failedPredicate)"
      } else {
        diagnostic.message = "\(record): a field's name\(whose): \(diagnostic.message)"
      }
    case .after(let name):
      diagnostic.message = "\(record), after field '\(name)': \(diagnostic.message)"
    case .record:
      diagnostic.message = "\(record): \(diagnostic.message)"
    }
    var named = error
    named.diagnostics = [diagnostic]
    return named
  }

  /// Where `offset` is in the value starting at `start`.
  enum Place: Equatable {
    /// In the value of this field (dotted as columns are: `artist.name`).
    case field(String)
    /// In a member's name, of the object this field holds (nil: the record).
    case name(String?)
    /// Between members, past this field.
    case after(String)
    /// In the record but no field: its braces, or not an object at all.
    case record
  }

  /// Follows strings, braces, brackets, colons and commas from `start` to
  /// `offset`, keeping each open object's current member name.
  static func place(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to offset: Int) -> Place {
    struct Frame {
      var isObject: Bool
      var name: String?
      /// In an object: before a member's name (after `{` or `,`).
      var wantsName = true
    }
    var stack: [Frame] = []
    var index = start
    let end = min(offset, bytes.count)
    func dotted(_ frames: ArraySlice<Frame>) -> String? {
      let names = frames.filter(\.isObject).compactMap(\.name)
      return names.isEmpty ? nil : names.joined(separator: ".")
    }
    while index < end {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        var close = index + 1
        while close < bytes.count && bytes[close] != UInt8(ascii: "\"") {
          close += bytes[close] == UInt8(ascii: "\\") ? 2 : 1
        }
        let isName = stack.last.map { $0.isObject && $0.wantsName } ?? false
        if offset <= close {
          // The failure is inside this string.
          return isName ? .name(dotted(stack.dropLast())) : dotted(stack[...]).map { .field($0) } ?? .record
        }
        if isName {
          stack[stack.count - 1].name = String(
            decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<min(close, bytes.count)]),
            as: UTF8.self)
          stack[stack.count - 1].wantsName = false
        }
        index = close + 1
        continue
      case UInt8(ascii: "{"): stack.append(Frame(isObject: true))
      case UInt8(ascii: "["): stack.append(Frame(isObject: false))
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if !stack.isEmpty { stack.removeLast() }
      case UInt8(ascii: ","):
        if let last = stack.last, last.isObject { stack[stack.count - 1].wantsName = true }
      default: break
      }
      index += 1
    }
    guard let last = stack.last else { return .record }
    if last.isObject && last.wantsName {
      // Between members: after the last one read, if any.
      if last.name != nil, let previous = dotted(stack[...]) { return .after(previous) }
      return dotted(stack.dropLast()).map { .field($0) } ?? .record
    }
    return dotted(stack[...]).map { .field($0) } ?? .record
  }
}
