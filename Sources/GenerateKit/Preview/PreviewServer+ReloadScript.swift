extension PreviewServer {
  /// The live-reload client. A preview build writes it to
  /// `__preview/reload.js` (`BuildOptions.previewScript`) and every page
  /// loads it; the server also answers `/__preview/reload.js` itself, for
  /// the page it shows before the first good build.
  ///
  /// It works as a classic script or an ES module and needs nothing the
  /// site's `Content-Security-Policy: default-src 'self'` forbids: the
  /// overlay is built with DOM methods and `textContent`, and styled through
  /// `element.style`, which CSP does not restrict (only `style` attributes
  /// and `<style>` elements are).
  public static let reloadScript = #"""
    // Live reload for `generate preview`. Never part of a published site.
    (() => {
      "use strict";

      const EVENTS_URL = "/__preview/events";
      const RECONNECT_MS = 1000;

      let serverID = null;
      let overlay = null;

      // The server renders the open pages first after an edit: say which
      // page this is, as a reload names it.
      function connect() {
        const here = address();
        const url = here === null ? EVENTS_URL : EVENTS_URL + "?page=" + encodeURIComponent(here);
        const source = new EventSource(url);
        source.addEventListener("hello", (event) => {
          // A different id means the server restarted while we were away;
          // the site may have been rebuilt in between.
          if (serverID !== null && serverID !== event.data) {
            location.reload();
            return;
          }
          serverID = event.data;
        });
        source.addEventListener("reload", (event) => {
          if (isNamed(event.data)) location.reload();
        });
        source.addEventListener("ok", hideOverlay);
        // The server's `error` events share their name with EventSource's
        // own connection errors; only the server's carry data.
        source.addEventListener("error", (event) => {
          if (event instanceof MessageEvent) {
            showOverlay(event.data);
            return;
          }
          reconnectIfClosed(source);
        });
      }

      // A reload names the pages whose file changed, as a JSON array of
      // addresses (`/albums/1-x/index.html`), or every page but a few
      // (`{"except": [...]}`: open pages already reloaded with the edit);
      // anything else means every page. A page whose file did not change
      // keeps its state.
      function isNamed(data) {
        let pages;
        try {
          pages = JSON.parse(data);
        } catch {
          return true;
        }
        const here = address();
        if (here === null) return true;
        if (Array.isArray(pages)) return pages.includes(here);
        if (pages !== null && Array.isArray(pages.except)) return !pages.except.includes(here);
        return true;
      }

      // This page's address as the server names pages
      // (`/albums/1-x/index.html`), or null when it cannot be decoded.
      function address() {
        let here;
        try {
          here = decodeURIComponent(location.pathname);
        } catch {
          return null;
        }
        return here.endsWith("/") ? here + "index.html" : here;
      }

      // While the server is down the browser retries by itself
      // (readyState CONNECTING). It gives up for good (CLOSED) when an
      // answer is not an event stream, e.g. a proxy's error page.
      function reconnectIfClosed(source) {
        if (source.readyState !== EventSource.CLOSED) return;
        source.close();
        setTimeout(connect, RECONNECT_MS);
      }

      function showOverlay(text) {
        hideOverlay();
        const host = document.createElement("div");
        host.dataset.generatePreview = "error";
        // A shadow root keeps the site's CSS out of the overlay.
        const root = host.attachShadow({ mode: "open" });

        const panel = document.createElement("div");
        panel.setAttribute("role", "alert");
        Object.assign(panel.style, {
          position: "fixed",
          inset: "0",
          zIndex: "2147483647",
          overflow: "auto",
          boxSizing: "border-box",
          padding: "24px",
          background: "rgba(20, 20, 24, 0.94)",
          color: "#f5f5f7",
          font: "14px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
        });

        const title = document.createElement("h2");
        title.textContent = "Build failed";
        Object.assign(title.style, { margin: "0 0 12px", font: "600 18px system-ui, sans-serif", color: "#ff6b6b" });

        const details = document.createElement("pre");
        details.textContent = text;
        Object.assign(details.style, { margin: "0 0 16px", whiteSpace: "pre-wrap", overflowWrap: "anywhere" });

        const note = document.createElement("p");
        note.textContent = "This page shows the last good build. It reloads when the error is fixed.";
        Object.assign(note.style, { margin: "0 0 16px", font: "14px system-ui, sans-serif", opacity: "0.8" });

        const dismiss = document.createElement("button");
        dismiss.type = "button";
        dismiss.textContent = "Dismiss";
        Object.assign(dismiss.style, { font: "14px system-ui, sans-serif", padding: "6px 14px" });
        dismiss.addEventListener("click", hideOverlay);

        panel.append(title, details, note, dismiss);
        root.append(panel);
        document.documentElement.append(host);
        overlay = host;
      }

      function hideOverlay() {
        if (overlay === null) return;
        overlay.remove();
        overlay = null;
      }

      connect();
    })();

    """#
}
