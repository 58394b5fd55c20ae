import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Publishes a built site atomically: every file is written into a fresh
/// folder beside the output, and only a complete folder replaces the old
/// one. A failure at any point leaves the previous site as it was.
public struct SiteWriter {
  public var outputPath: String

  public init(outputPath: String) { self.outputPath = outputPath }

  var outputURL: URL { URL(fileURLWithPath: outputPath).standardizedFileURL }

  /// The folder beside the output where a build is staged.
  var stagingURL: URL {
    outputURL.deletingLastPathComponent().appendingPathComponent(".\(outputURL.lastPathComponent).staging-\(getpid())")
  }

  /// Removes staging folders that interrupted builds left behind.
  public func removeStaleFolders() throws {
    let parent = outputURL.deletingLastPathComponent()
    let prefixes = [".\(outputURL.lastPathComponent).staging-", ".\(outputURL.lastPathComponent).old-"]
    for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] {
      if prefixes.contains(where: name.hasPrefix) {
        try FileManager.default.removeItem(at: parent.appendingPathComponent(name))
      }
    }
  }

  /// Writes the files into a staging folder and swaps it in.
  public func publish(_ files: [(path: String, bytes: [UInt8])]) throws {
    let fileManager = FileManager.default
    let staging = stagingURL
    try? fileManager.removeItem(at: staging)
    do {
      try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
      var made = Set<String>()
      for file in files.sorted(by: { $0.path < $1.path }) {
        let url = staging.appendingPathComponent(file.path)
        let folder = url.deletingLastPathComponent().path
        if made.insert(folder).inserted {
          try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try Self.writeFile(file.bytes, to: url.path)
      }
      try swapIn(staging)
    } catch {
      try? fileManager.removeItem(at: staging)
      if let error = error as? DiagnosticsError { throw error }
      throw DiagnosticsError(.error(at: SourceLocation(file: outputPath), "cannot publish the site: \(error.localizedDescription)"))
    }
  }

  /// Plain POSIX writes: FileManager's atomic write costs a temporary file
  /// and a rename per file, which the staging folder already makes moot.
  static func writeFile(_ bytes: [UInt8], to path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else {
      throw DiagnosticsError(.error(at: SourceLocation(file: path), "cannot write file: \(String(cString: strerror(errno)))"))
    }
    defer { close(descriptor) }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
      }
      guard written > 0 else {
        throw DiagnosticsError(.error(at: SourceLocation(file: path), "cannot write file: \(String(cString: strerror(errno)))"))
      }
      offset += written
    }
  }

  private func swapIn(_ staging: URL) throws {
    let fileManager = FileManager.default
    let output = outputURL
    guard fileManager.fileExists(atPath: output.path) else {
      try fileManager.moveItem(at: staging, to: output)
      return
    }
    // Two renames on one file system: the old site is complete until the
    // first, the new one complete from the second.
    let old = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).old-\(getpid())")
    try fileManager.moveItem(at: output, to: old)
    try fileManager.moveItem(at: staging, to: output)
    try fileManager.removeItem(at: old)
  }
}
