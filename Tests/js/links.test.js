import test from 'node:test'
import assert from 'node:assert/strict'
import { safeLink } from '../../Templates/assets/js/engine/engine.js'

const site = 'https://music.example.org/music/'

test('a record link resolves against the site', () => {
  assert.equal(safeLink('albums/1-x/#track-3', site), 'https://music.example.org/music/albums/1-x/#track-3')
  assert.equal(safeLink('https://example.com/a', site), 'https://example.com/a')
  assert.equal(safeLink('mailto:shop@example.com', site), 'mailto:shop@example.com')
})

test('a link that would run script leads to the site instead', () => {
  for (const url of ['javascript:alert(1)', ' JavaScript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x']) {
    assert.equal(safeLink(url, site), 'https://music.example.org/music/', url)
  }
})
