import CZlib

/// gzip (RFC 1952) through the system's zlib, the library libxml2 already
/// links: dynamic Huffman trees and lazy matching, 10–25 % smaller on text
/// than a hand-written fixed-code encoder. The preview server caches the
/// result per file version, so the default level is cheap enough.
enum Gzip {
  /// nil only if zlib cannot allocate its state.
  static func compress(_ input: [UInt8]) -> [UInt8]? {
    var stream = z_stream()
    // 15-bit window plus 16: a gzip header and trailer instead of zlib's.
    guard generate_deflateInit2(&stream, Z_DEFAULT_COMPRESSION, 15 + 16, 8) == Z_OK else { return nil }
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
    let status = input.withUnsafeBufferPointer { source in
      output.withUnsafeMutableBufferPointer { destination in
        // zlib does not write through `next_in`; the type is historical.
        stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
        stream.avail_in = uInt(source.count)
        stream.next_out = destination.baseAddress
        stream.avail_out = uInt(destination.count)
        return deflate(&stream, Z_FINISH)
      }
    }
    // `deflateBound` leaves room for everything, so one call finishes.
    guard status == Z_STREAM_END else { return nil }
    output.removeLast(output.count - Int(stream.total_out))
    return output
  }
}
