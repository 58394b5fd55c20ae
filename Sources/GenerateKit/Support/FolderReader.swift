import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one `readdir` loop, for the walkers that need more than
/// `FileManager` gives (an entry's type or `stat` without following links).
enum FolderReader {
  #if canImport(Darwin)
    typealias Stream = UnsafeMutablePointer<DIR>
  #else
    typealias Stream = OpaquePointer
  #endif

  /// Calls `body` with each name in an open folder and its `d_type`
  /// (`DT_UNKNOWN` where the file system does not say), in `readdir`
  /// order, without `.` and `..`.
  static func forEachEntry(of directory: Stream, _ body: (_ name: String, _ type: UInt8) -> Void) {
    while let entry = readdir(directory) {
      let name = withUnsafePointer(to: &entry.pointee.d_name) {
        String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
      }
      if name == "." || name == ".." { continue }
      body(name, entry.pointee.d_type)
    }
  }
}
