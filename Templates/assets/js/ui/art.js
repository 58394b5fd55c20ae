// A result's artwork, as Apple Music draws it: the record's picture when it has one, over its hue
// tile (site.css's gradients) with its initials, which show while the picture loads and stay when
// it fails; or its symbol (an emoji) large on a quiet fill. The picture's `error` is handled here,
// not in an inline `onerror`, which the site's CSP (`default-src 'self'`) would block.
import { h } from './dom.js'

/** What a row's tile shows: pure, so it is tested without a DOM. */
export function artworkOf(doc) {
  const initials = (doc.title.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 2).map((w) => [...w][0]).join('')
  return {
    className: `artwork hue-${doc.hue % 12}${doc.symbol ? ' artwork-symbol' : ''}`,
    text: doc.symbol || initials.toUpperCase(),
    // 48 px: the largest a row or suggestion draws it (3rem); the attributes reserve the square.
    image: doc.image ? { src: doc.image, alt: '', width: 48, height: 48, loading: 'lazy', decoding: 'async' } : null,
  }
}

/**
 * The tile. The picture's alt is empty: the row's title is right beside it, so a screen reader
 * hearing it again would learn nothing (and the tile is aria-hidden besides).
 */
export function artwork(doc) {
  const { className, text, image } = artworkOf(doc)
  const tile = h('span', { class: className, 'data-kind': doc.kind, 'aria-hidden': 'true', text })
  if (!image) return tile
  // A failed picture goes, leaving the tile with its initials: never a broken-image icon.
  const img = h('img', { ...image, onerror: () => img.remove() })
  tile.append(img)
  return tile
}
