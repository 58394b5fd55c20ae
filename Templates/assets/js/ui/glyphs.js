// The outline glyphs of ui/dom.js (`STROKED` there lists their names), on its
// 16-unit grid, drawn with a 1.5-unit currentColor stroke. Fetched the first
// time a facet's icon names one; Swift keeps the same names
// (Config/FacetIcons.swift), and a test checks that the lists agree.
export const STROKED = {
  globe: 'M8 1.75a6.25 6.25 0 1 0 0 12.5 6.25 6.25 0 0 0 0-12.5ZM1.75 8h12.5M8 1.75C6.1 3.45 5.25 5.65 5.25 8S6.1 12.55 8 14.25M8 1.75c1.9 1.7 2.75 3.9 2.75 6.25S9.9 12.55 8 14.25',
  calendar: 'M3.5 3h9A1.5 1.5 0 0 1 14 4.5v8a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 2 12.5v-8A1.5 1.5 0 0 1 3.5 3ZM2 6.75h12M5.25 1.5v3M10.75 1.5v3',
  person: 'M8 2.25a2.75 2.75 0 1 0 0 5.5 2.75 2.75 0 0 0 0-5.5ZM2.75 14.25c0-2.9 2.35-4.75 5.25-4.75s5.25 1.85 5.25 4.75',
  place: 'M8 14.5s4.75-4.4 4.75-8.25a4.75 4.75 0 0 0-9.5 0C3.25 10.1 8 14.5 8 14.5ZM8 4.5a1.75 1.75 0 1 0 0 3.5 1.75 1.75 0 0 0 0-3.5Z',
  folder: 'M1.75 4.5A1.25 1.25 0 0 1 3 3.25h3.25l1.5 1.75H13a1.25 1.25 0 0 1 1.25 1.25v6A1.25 1.25 0 0 1 13 13.5H3a1.25 1.25 0 0 1-1.25-1.25Z',
  star: 'M8 2 9.65 6.33 14.28 6.56 10.66 9.47 11.88 13.94 8 11.4 4.12 13.94 5.34 9.47 1.72 6.56 6.35 6.33Z',
  clock: 'M8 1.75a6.25 6.25 0 1 0 0 12.5 6.25 6.25 0 0 0 0-12.5ZM8 4.5V8l2.5 1.5',
}
