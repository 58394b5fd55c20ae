import CStemmer
import NIOConcurrencyHelpers

/// Snowball's stemmer for one language (Debian's libstemmer, 2.2.0): the only
/// file that calls the C library. A `sb_stemmer` keeps its working buffer
/// inside, so one may not be shared by two threads; the index stems terms on
/// every core, so each language keeps a small pool — a caller takes an idle
/// stemmer (or makes one), stems, and gives it back. The pool never holds more
/// stemmers than threads stemmed at once (a few KB each), kept for the process.
final class Snowball: Sendable {
  /// Snowball's name for the algorithm (`spanish`).
  let algorithm: String

  private struct Handle: @unchecked Sendable {
    let pointer: OpaquePointer
  }
  private let idle = NIOLockedValueBox<[Handle]>([])

  private init(algorithm: String) {
    self.algorithm = algorithm
  }

  private static let made = NIOLockedValueBox<[String: Snowball]>([:])

  /// The stemmer for a Snowball algorithm name, nil when libstemmer has none.
  static func named(_ algorithm: String) -> Snowball? {
    made.withLockedValue { made in
      if let known = made[algorithm] { return known }
      guard let first = sb_stemmer_new(algorithm, "UTF_8") else { return nil }
      let stemmer = Snowball(algorithm: algorithm)
      stemmer.idle.withLockedValue { $0.append(Handle(pointer: first)) }
      made[algorithm] = stemmer
      return stemmer
    }
  }

  /// The word's stem (the word itself should libstemmer fail to allocate).
  func stem(_ word: String) -> String {
    let taken = idle.withLockedValue { $0.popLast() }
    guard let handle = taken ?? sb_stemmer_new(algorithm, "UTF_8").map(Handle.init) else { return word }
    defer { idle.withLockedValue { $0.append(handle) } }
    var bytes = Array(word.utf8)
    return bytes.withUnsafeMutableBufferPointer { buffer in
      guard let out = sb_stemmer_stem(handle.pointer, buffer.baseAddress, Int32(buffer.count)) else {
        return word
      }
      let length = Int(sb_stemmer_length(handle.pointer))
      return String(decoding: UnsafeBufferPointer(start: out, count: length), as: UTF8.self)
    }
  }
}
