#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one test of "does this name this machine's loopback interface", for
/// the address the preview listens on and the `Host` headers it answers.
enum Loopback {
  /// Whether `host` — a name or an address, with no port and no brackets —
  /// is `localhost` (any case), an IPv4 address in 127.0.0.0/8 written as
  /// four decimal numbers, or `::1` in any of its IPv6 spellings (an
  /// IPv4-mapped `::ffff:127.x.y.z` too). A trailing root dot is allowed
  /// on names and IPv4 addresses, as in DNS.
  static func isLoopback(_ host: some StringProtocol) -> Bool {
    var name = String(host)
    if name.hasSuffix("."), !name.contains(":") { name.removeLast() }
    if name.lowercased() == "localhost" { return true }
    var ipv4 = in_addr()
    if inet_pton(AF_INET, name, &ipv4) == 1 {
      return UInt32(bigEndian: ipv4.s_addr) >> 24 == 127
    }
    var ipv6 = in6_addr()
    guard inet_pton(AF_INET6, name, &ipv6) == 1 else { return false }
    let bytes = withUnsafeBytes(of: ipv6) { Array($0) }
    let mapped: [UInt8] = Array(repeating: 0, count: 10) + [0xff, 0xff]
    return bytes == Array(repeating: 0, count: 15) + [1] || (bytes.starts(with: mapped) && bytes[12] == 127)
  }
}
