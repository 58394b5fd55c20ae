/// A whole number as its column writes it (`31.889.923`, `12 345`:
/// `Table.numerals`), for templates: `{{population}}` prints the text as
/// written, and `plusone`, `minusone`, `equalzero`, `even` and `odd` read
/// the number, as they read a JSON number's.
struct WrittenNumber: CustomStringConvertible, TemplateTransformable {
  let text: String
  let value: Int

  var description: String { text }

  func templateTransform(_ name: String) -> Any? { value.templateTransform(name) }
}
