/// A place in a source file, 1-based, as editors and compilers print it.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
  /// The file as the user should see it: relative to the working directory
  /// for inputs, relative to the site root for generated pages.
  public var file: String
  public var line: Int
  public var column: Int

  public init(file: String, line: Int = 1, column: Int = 1) {
    self.file = file
    self.line = line
    self.column = column
  }

  public var description: String { "\(file):\(line):\(column)" }
}
