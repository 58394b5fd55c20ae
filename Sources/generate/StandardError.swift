import ArgumentParser
import Foundation
import GenerateKit

/// What the commands write to standard error, and how each one fails: its
/// lines there, then exit status 1.
enum StandardError {
  /// The lines, each ended by a newline, in one write.
  static func write(_ lines: [String]) {
    FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
  }

  /// Writes the lines; the exit status to throw.
  static func failure(_ lines: [String]) -> ExitCode {
    write(lines)
    return .failure
  }

  /// Writes the diagnostics, then `closing` on a line of its own; the exit
  /// status to throw.
  static func failure(_ diagnostics: [Diagnostic], closing: String? = nil) -> ExitCode {
    let shown = DiagnosticPrinter().lines(for: diagnostics).joined(separator: "\n")
    return failure([shown] + (closing.map { [$0] } ?? []))
  }
}
