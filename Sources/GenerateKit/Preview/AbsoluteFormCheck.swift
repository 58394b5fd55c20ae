import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Refuses a request whose target names a host (`GET http://evil.example/
/// HTTP/1.1`) unless it names the loopback host and port being served.
///
/// That absolute form is what a client sends a proxy. The conversion to
/// Hummingbird's request keeps only its path and takes the name from the
/// `Host` header, so past that point `GET http://evil.example/` with
/// `Host: 127.0.0.1:8000` looks like a plain `GET /` for this server — a
/// preview answering as if it were `evil.example`, to whatever (a proxy, a
/// cache, a rebinding page) sent the request there. `HostCheck` only sees the
/// header; this sees the target, before the conversion: it sits right after
/// NIO's request decoder. A refused request gets `421 Misdirected Request`
/// and the connection is closed (what followed on it is not read).
///
/// An absolute target naming this server (`http://127.0.0.1:PORT/x`, or
/// `localhost`, `[::1]`, with the port served) goes on as `/x`, its `Host`
/// header still checked by `HostCheck`. A target with a scheme but no
/// `//host` (`foo:/index.html`, which the conversion would also turn into a
/// path), or a host alone, gets 400.
final class AbsoluteFormCheck: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  /// Set once a request is refused: its body and anything after it are
  /// dropped until the connection closes.
  private var refusing: (status: HTTPResponseStatus, message: String, isHead: Bool)?
  private var closing = false

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if closing { return }
    let part = unwrapInboundIn(data)
    switch part {
    case .head(let head):
      if let refusal = Self.refusal(of: head.uri, servedPort: context.channel.localAddress?.port) {
        refusing = (refusal.status, refusal.message, head.method == .HEAD)
        return
      }
    case .body:
      if refusing != nil { return }
    case .end:
      if let refused = refusing {
        closing = true
        respond(context: context, refused)
        return
      }
    }
    context.fireChannelRead(data)
  }

  private func respond(
    context: ChannelHandlerContext, _ refused: (status: HTTPResponseStatus, message: String, isHead: Bool)
  ) {
    let body = ByteBuffer(string: refused.message + "\n")
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
    headers.add(name: "Content-Length", value: String(body.readableBytes))
    headers.add(name: "X-Content-Type-Options", value: "nosniff")
    headers.add(name: "Cache-Control", value: "no-store")
    headers.add(name: "Connection", value: "close")
    let head = HTTPResponseHead(version: .http1_1, status: refused.status, headers: headers)
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    if !refused.isHead { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
  }

  /// Why a request target is refused here, or nil to let it through:
  /// origin form (`/x`) and `*` always go on (the responder judges them).
  static func refusal(of target: String, servedPort: Int?) -> (status: HTTPResponseStatus, message: String)? {
    if target.hasPrefix("/") || target == "*" { return nil }
    guard let schemeEnd = target.range(of: "://") else {
      // A scheme and no `//host`, or a host alone (`CONNECT`'s form):
      // nothing this server answers, and the conversion could make a path
      // of it.
      return target.contains(":")
        ? (.badRequest, "Bad Request: the request target must be a path (/...)") : nil
    }
    let misdirected: (HTTPResponseStatus, String) = (
      .misdirectedRequest,
      "Misdirected Request: this preview answers only for itself, not for the host a request target names"
    )
    guard target[..<schemeEnd.lowerBound].lowercased() == "http", let servedPort else { return misdirected }
    let rest = target[schemeEnd.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    // `user@host` is never this server: a name that would be read as the
    // host by one parser and as user information by another.
    guard !authority.contains("@"), HostCheck.isLoopbackName(String(authority)),
      Self.port(of: authority) == servedPort
    else { return misdirected }
    return nil
  }

  /// The port an authority names (80 for `http` without one), or nil when
  /// it is not a number.
  static func port(of authority: Substring) -> Int? {
    let afterHost =
      authority.hasPrefix("[")
      ? authority.firstIndex(of: "]").map { authority[authority.index(after: $0)...] } ?? ""
      : authority.firstIndex(of: ":").map { authority[$0...] } ?? ""
    guard let colon = afterHost.first else { return 80 }
    guard colon == ":" else { return nil }
    return Int(afterHost.dropFirst())
  }
}

/// Hummingbird's HTTP/1 channel with `AbsoluteFormCheck` between NIO's
/// request decoder and the conversion to Hummingbird's request, where the
/// target is still whole.
struct PreviewHTTP1Channel: HTTPChannelHandler {
  typealias Value = HTTP1Channel.Value
  let inner: HTTP1Channel
  var responder: Responder { inner.responder }

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
      let operations = channel.pipeline.syncOperations
      let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
      try operations.addHandler(AbsoluteFormCheck(), position: .after(decoder))
      return value
    }
  }

  func handle(value: Value, logger: Logger) async {
    await inner.handle(value: value, logger: logger)
  }
}
