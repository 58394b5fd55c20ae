import Foundation
import Mustache

@testable import GenerateKit

// The contexts pages are rendered over, as swift-mustache reads them: by
// name, as `CompiledRenderer` reads them.
extension RecordContext: MustacheParent {}
extension PageContext: MustacheParent {}
extension ObjectValue: MustacheParent {}
extension ListText: MustacheSequence, MustacheTransformable {
  public func transform(_ name: String) -> Any? { templateTransform(name) }
}
extension ValueList: MustacheSequence, MustacheTransformable {
  public func transform(_ name: String) -> Any? { templateTransform(name) }
}

/// swift-mustache, kept as the oracle `MustacheParser` and
/// `CompiledRenderer` are compared with: what it writes for the same
/// template texts is what pages must hold.
enum MustacheOracle {
  /// swift-mustache's library of a template set's texts, by the same names.
  static func library(_ set: TemplateSet) throws -> MustacheLibrary {
    var library = MustacheLibrary()
    for (name, text) in set.textByName {
      library.register(try MustacheTemplate(string: text), named: name)
    }
    return library
  }

  static func render(_ set: TemplateSet, _ object: Any, template: String) throws -> [UInt8]? {
    try library(set).render(object, withTemplate: template).map { Array($0.utf8) }
  }

  /// A record's `subtitle:`/`url:` template as swift-mustache rendered it:
  /// text, with no escaping.
  static func renderRecordTemplate(_ text: String, _ context: RecordContext) throws -> String {
    try MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + text).render(context)
  }
}
