/// The validation step: every page and the sitemap go through libxml2,
/// then links are checked across the whole site.
struct SiteValidator {
  func validate(files: [(path: String, bytes: [UInt8])], pages: [String], baseURL: String) throws {
    // Filled in when the libxml2 validator lands.
  }
}
