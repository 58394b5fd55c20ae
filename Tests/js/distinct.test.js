// Distinct results on the Gapminder example (Data/gapminder/site.yml: `distinct: country`):
// COUNTRIES_SITE=/tmp/countries node --test Tests/js/  (the test command sets it)
import test from 'node:test'
import assert from 'node:assert/strict'
import { open, manifestName } from './support/fixture.mjs'

const SITE = process.env.COUNTRIES_SITE
const skip = !SITE ? 'COUNTRIES_SITE is not set: set it to a site built from Data/gapminder/site.yml'
  : !manifestName(SITE) ? `COUNTRIES_SITE=${SITE} has no index` : false

test('each country shows once, its best-ranked year, and totals count countries', { skip }, async () => {
  const { engine } = open(SITE)
  for (const q of ['afr', 'africa', 'europe', 'a']) {
    const typed = await engine.suggest(q)
    const titles = typed.docs.map((d) => d.title)
    assert.deepEqual(titles, [...new Set(titles)], `${q}: ${titles}`)
    const r = await engine.search(q, { limit: 500 })
    const all = r.docs.map((d) => d.title)
    assert.deepEqual(all, [...new Set(all)], q)
    assert.equal(r.total, all.length, `${q}: the total counts countries`)
    assert.equal(r.totals.countries, r.total)
  }
  const africa = await engine.search('africa', { limit: 500 })
  assert.equal(africa.total, 52, 'Gapminder has 52 African countries, 12 years each')
  // A country stands for itself by its latest year, even where its population later fell (South Africa after 2002).
  for (const doc of africa.docs) assert.match(doc.subtitle, /in 2007:/, `${doc.title}: ${doc.subtitle}`)
  assert.ok(africa.docs.some((d) => d.title === 'South Africa'))
})

test('a scope still collapses to one result per country', { skip }, async () => {
  const { engine } = open(SITE)
  const r = await engine.search('south', { scope: 'y2007', limit: 50 })
  assert.deepEqual(r.docs.map((d) => d.title).sort(), ['South Africa'])
  assert.match(r.docs[0].subtitle, /2007/)
})
