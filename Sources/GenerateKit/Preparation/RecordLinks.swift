/// The rules for paths and links made from record data: a page path must
/// stay inside the site whatever a record holds, and a link must not run
/// script when clicked.
enum RecordLinks {
  /// Names the site itself writes at its root; a page may not take them.
  static let reserved: Set<String> = [
    "index.html", "404.html", "assets", "idx", "robots.txt", "sitemap.xml", ".nojekyll", "_headers",
    "__preview",
    OutputFolder.markerName,
  ]

  /// The longest folder or file name a page path may hold, in UTF-8 bytes:
  /// `NAME_MAX` on Linux and macOS alike, so a longer one fails only when
  /// the page is written, at a staging path instead of the record.
  static let maximumSegmentBytes = 255

  /// The longest page path, in UTF-8 bytes: well under `PATH_MAX` (4,096)
  /// with the output folder's own path before it.
  static let maximumPathBytes = 2048

  /// A rendered page path, cleaned (`/artists/1-x/` → `artists/1-x/`), or
  /// why it cannot be one.
  static func pagePath(_ rendered: String) -> Result<String, Problem> {
    var path = Substring(rendered)
    while let first = path.first, first == " " || first == "\t" { path.removeFirst() }
    while let last = path.last, last == " " || last == "\t" { path.removeLast() }
    while path.hasPrefix("/") { path.removeFirst() }
    if path.isEmpty { return .failure(Problem("the page path is empty")) }
    if let scalar = path.unicodeScalars.first(where: isControl) {
      return .failure(Problem("the page path contains the control character U+\(hex(scalar.value))"))
    }
    for character in ["\\", "?", "#"] where path.contains(character) {
      return .failure(Problem("the page path contains '\(character)'"))
    }
    if path.utf8.count > maximumPathBytes {
      return .failure(
        Problem(
          "the page path is \(path.utf8.count) bytes long, over the \(maximumPathBytes) bytes a page path may have"
        ))
    }
    let segments = path.split(separator: "/", omittingEmptySubsequences: false)
    for (index, segment) in segments.enumerated() {
      let isLast = index == segments.count - 1
      if segment.isEmpty && !isLast { return .failure(Problem("the page path has an empty segment ('//')")) }
      if segment.utf8.count > maximumSegmentBytes {
        return .failure(
          Problem(
            "the page path has a name of \(segment.utf8.count) bytes ('\(segment.prefix(20))…'), over the \(maximumSegmentBytes) bytes a file or folder name may have"
          ))
      }
      let decoded = String(segment).removingPercentEncodingIfValid
      if decoded == "." || decoded == ".." {
        return .failure(Problem("the page path has a '\(decoded)' segment, which would leave its folder"))
      }
    }
    if let first = segments.first, reserved.contains(String(first)) {
      return .failure(Problem("the page path starts with '\(first)', which the site itself uses"))
    }
    return .success(String(path))
  }

  /// Whether a rendered link may be used as it is: relative to the site,
  /// or http, https or mailto.
  static func checkLink(_ rendered: String) -> Problem? {
    if let scalar = rendered.unicodeScalars.first(where: isControl) {
      return Problem("the link contains the control character U+\(hex(scalar.value))")
    }
    // Browsers ignore leading spaces before a scheme.
    let link = rendered.drop { $0 == " " }
    if link.hasPrefix("//") {
      return Problem("the link '\(rendered)' leaves the site without a scheme; write https://…")
    }
    guard let colon = link.firstIndex(of: ":") else { return nil }
    let scheme = link[..<colon]
    let isScheme =
      scheme.first?.isLetter == true
      && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    // A colon after a slash, `?` or `#` is part of a relative path.
    guard isScheme else { return nil }
    if ["http", "https", "mailto"].contains(scheme.lowercased()) { return nil }
    return Problem(
      "the link '\(rendered)' uses the scheme '\(scheme):'; only http, https and mailto links leave the site")
  }

  struct Problem: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
  }

  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

extension String {
  fileprivate var removingPercentEncodingIfValid: String {
    guard contains("%") else { return self }
    var bytes: [UInt8] = []
    var iterator = utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next(), let low = iterator.next(), let a = high.hexDigitValue,
        let b = low.hexDigitValue
      else { return self }
      bytes.append(a << 4 | b)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
