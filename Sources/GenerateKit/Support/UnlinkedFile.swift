import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A working file only this process can reach: made by `mkstemp` in
/// `folder` as `<name>.XXXXXX` and unlinked at once, so it is gone with its
/// descriptor, even when the build is killed. The index's spool and the
/// documents' store keep what they spill there.
///
/// Returns its descriptor, or -1 with `errno` set when the folder refuses it.
func makeUnlinkedFile(in folder: String, named name: String) -> Int32 {
  var template = Array(((folder as NSString).appendingPathComponent("\(name).XXXXXX")).utf8CString)
  let descriptor = template.withUnsafeMutableBufferPointer { buffer in
    buffer.baseAddress.map { mkstemp($0) } ?? -1
  }
  guard descriptor >= 0 else { return -1 }
  unlink(String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
  return descriptor
}
