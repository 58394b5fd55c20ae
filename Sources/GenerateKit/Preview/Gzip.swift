/// gzip (RFC 1952) around a single DEFLATE block (RFC 1951) that uses the
/// fixed Huffman codes and greedy LZ77 matching over a 32 KB window.
///
/// Written in Swift because Foundation on Linux does not expose zlib and the
/// package does not depend on a compression library. Fixed codes cost some
/// ratio against zlib's dynamic trees (text comes out roughly 10–25 % larger)
/// but need no code tables in the stream, which keeps this short enough to
/// check by eye. The preview server caches the result per file version.
enum Gzip {
  static func compress(_ input: [UInt8]) -> [UInt8] {
    var writer = BitWriter()
    writer.bytes = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]  // magic, deflate, no flags, no mtime, unknown OS
    writer.bytes.reserveCapacity(input.count / 2 + 32)
    writer.write(1, bits: 1)  // BFINAL: the only block
    writer.write(1, bits: 2)  // BTYPE 01: fixed Huffman codes
    input.withUnsafeBufferPointer { deflate($0, into: &writer) }
    writer.writeLiteral(256)  // end of block
    writer.flush()
    writer.appendLittleEndian(crc32(input))
    writer.appendLittleEndian(UInt32(truncatingIfNeeded: input.count))
    return writer.bytes
  }

  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
    }
    return crc ^ 0xFFFF_FFFF
  }

  private static let windowSize = 32_768
  private static let hashBits = 15
  private static let minimumMatch = 3
  private static let maximumMatch = 258
  /// How many earlier positions with the same 3-byte hash are tried; the
  /// usual speed/ratio trade (zlib's level 6 uses 128 with lazy matching).
  private static let maximumChain = 48

  private static func deflate(_ input: UnsafeBufferPointer<UInt8>, into writer: inout BitWriter) {
    let count = input.count
    var head = [Int32](repeating: -1, count: 1 << hashBits)
    var previous = [Int32](repeating: -1, count: windowSize)

    func hash(at index: Int) -> Int {
      let word = UInt32(input[index]) | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2]) << 16
      return Int((word &* 2_654_435_761) >> UInt32(32 - hashBits))
    }
    func insert(_ index: Int) {
      let key = hash(at: index)
      previous[index & (windowSize - 1)] = head[key]
      head[key] = Int32(index)
    }

    var index = 0
    while index < count {
      var bestLength = 0
      var bestDistance = 0
      if index + minimumMatch <= count {
        let limit = min(maximumMatch, count - index)
        var candidate = Int(head[hash(at: index)])
        var chain = maximumChain
        // A candidate further back than the window may have had its
        // `previous` slot reused by a newer position, so stop there.
        while candidate >= 0, index - candidate <= windowSize, chain > 0 {
          if input[candidate + bestLength] == input[index + bestLength] {
            var length = 0
            while length < limit, input[candidate + length] == input[index + length] { length += 1 }
            if length > bestLength {
              bestLength = length
              bestDistance = index - candidate
              if length == limit { break }
            }
          }
          let next = Int(previous[candidate & (windowSize - 1)])
          guard next < candidate else { break }
          candidate = next
          chain -= 1
        }
        insert(index)
      }
      if bestLength >= minimumMatch {
        writer.writeMatch(length: bestLength, distance: bestDistance)
        var covered = index + 1
        while covered < index + bestLength {
          if covered + minimumMatch <= count { insert(covered) }
          covered += 1
        }
        index += bestLength
      } else {
        writer.writeLiteral(Int(input[index]))
        index += 1
      }
    }
  }

  private static let crcTable: [UInt32] = (0..<256).map { value in
    var crc = UInt32(value)
    for _ in 0..<8 {
      crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1
    }
    return crc
  }

  /// Literal/length alphabet of RFC 1951 §3.2.6, bit-reversed because
  /// Huffman codes are packed starting from their most significant bit.
  fileprivate static let literalCodes: [(code: UInt32, length: Int)] = (0..<288).map { symbol in
    switch symbol {
    case 0...143: (reversed(UInt32(0x30 + symbol), length: 8), 8)
    case 144...255: (reversed(UInt32(0x190 + symbol - 144), length: 9), 9)
    case 256...279: (reversed(UInt32(symbol - 256), length: 7), 7)
    default: (reversed(UInt32(0xC0 + symbol - 280), length: 8), 8)
    }
  }

  fileprivate static let lengthBases: [Int] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
    227, 258,
  ]
  fileprivate static let lengthExtraBits: [Int] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  fileprivate static let distanceBases: [Int] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
    4097,
    6145, 8193, 12289, 16385, 24577,
  ]
  fileprivate static let distanceExtraBits: [Int] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
  ]

  fileprivate static func reversed(_ code: UInt32, length: Int) -> UInt32 {
    var result: UInt32 = 0
    var rest = code
    for _ in 0..<length {
      result = result << 1 | rest & 1
      rest >>= 1
    }
    return result
  }

  /// The largest index whose base is at most `value`.
  fileprivate static func bucket(of value: Int, in bases: [Int]) -> Int {
    var low = 0
    var high = bases.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if bases[middle] <= value { low = middle } else { high = middle - 1 }
    }
    return low
  }
}

/// Packs values least significant bit first, as DEFLATE streams are laid out.
private struct BitWriter {
  var bytes: [UInt8] = []
  private var pending: UInt64 = 0
  private var pendingCount = 0

  mutating func write(_ value: UInt32, bits: Int) {
    pending |= UInt64(value) << UInt64(pendingCount)
    pendingCount += bits
    while pendingCount >= 8 {
      bytes.append(UInt8(truncatingIfNeeded: pending))
      pending >>= 8
      pendingCount -= 8
    }
  }

  mutating func writeLiteral(_ symbol: Int) {
    let code = Gzip.literalCodes[symbol]
    write(code.code, bits: code.length)
  }

  mutating func writeMatch(length: Int, distance: Int) {
    let lengthIndex = Gzip.bucket(of: length, in: Gzip.lengthBases)
    writeLiteral(257 + lengthIndex)
    write(UInt32(length - Gzip.lengthBases[lengthIndex]), bits: Gzip.lengthExtraBits[lengthIndex])
    let distanceIndex = Gzip.bucket(of: distance, in: Gzip.distanceBases)
    write(Gzip.reversed(UInt32(distanceIndex), length: 5), bits: 5)
    write(UInt32(distance - Gzip.distanceBases[distanceIndex]), bits: Gzip.distanceExtraBits[distanceIndex])
  }

  mutating func flush() {
    if pendingCount > 0 {
      bytes.append(UInt8(truncatingIfNeeded: pending))
      pending = 0
      pendingCount = 0
    }
  }

  mutating func appendLittleEndian(_ value: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
    }
  }
}
