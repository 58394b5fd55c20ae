/// The build's steps, in the order they run. Progress lines (`[3/6] …`), the
/// step count and the step named in a failure are all derived from here.
public enum BuildStep: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
  case loading
  case preparing
  case indexing
  case rendering
  case validating
  case publishing

  /// What the progress line says while the step runs.
  public var name: String {
    switch self {
    case .loading: "Loading data"
    case .preparing: "Preparing documents"
    case .indexing: "Building index"
    case .rendering: "Rendering pages"
    case .validating: "Validating pages"
    case .publishing: "Publishing"
    }
  }

  /// 1-based, as the progress line prints it.
  public var number: Int { rawValue + 1 }

  public static var count: Int { allCases.count }

  public var description: String { name }
}
