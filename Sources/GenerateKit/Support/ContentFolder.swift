/// The name of a folder addressed by the content of all its files
/// (`assets/1a2b3c4d5e/`): it changes when any of them does, so every file
/// in it can be cached for ever. The index names each file by its own bytes
/// instead (`Index/FORMAT.md` "Stable names"), so that a data edit renames
/// only what it changed. Each file adds its 16-digit hash, with the text
/// that names it where the names matter.
struct ContentFolder {
  private var hashed: [UInt8] = []

  /// Adds `before`, the 16-digit hash of `bytes`, then `after`.
  mutating func add<Bytes: Sequence>(_ bytes: Bytes, before: String = "", after: String = "")
  where Bytes.Element == UInt8 {
    hashed += Array((before + ContentHash.hex(bytes, digits: 16) + after).utf8)
  }

  /// `prefix/hash/`.
  func name(_ prefix: String) -> String {
    "\(prefix)/\(ContentHash.hex(hashed))/"
  }
}
