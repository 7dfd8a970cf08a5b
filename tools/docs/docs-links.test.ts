/**
 * No relative link of the manual (README.md, docs/) leads nowhere: every file it names exists in the
 * repository, and every `#anchor` is a heading of the target page as GitHub renders it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { anchorsOf, brokenLinks, githubSlug, linksOf, manualPages, unlinkedPages } from './docs-links.ts'

/** The repository root, seen from this file's folder: the one thing to change if the folder moves. */
const ROOT = resolve(import.meta.dirname, '../..')

test('every relative link of README.md and docs/ leads to a file of the repository, and every #anchor to a heading there', () => {
  const pages = manualPages(ROOT)
  expect(pages).toContain('README.md')
  expect(pages.length, 'the manual has pages under docs/').toBeGreaterThan(4)
  expect(brokenLinks(ROOT, pages)).toEqual([])
})

test('every page under docs/ is linked from README.md or another page of the manual', () => {
  expect(unlinkedPages(ROOT)).toEqual([])
})

const HEADING_IDS: [heading: string, id: string][] = [
  ['Server mode (`npm start`)', 'server-mode-npm-start'],
  ['Paths: date versions and the 404', 'paths-date-versions-and-the-404'],
  ['Server mode at 100,000 contacts', 'server-mode-at-100000-contacts'],
  ['2. Drivers: how the kit operates a widget', '2-drivers-how-the-kit-operates-a-widget'],
  ['3a. Validator choice and handshake cost', '3a-validator-choice-and-handshake-cost'],
  ['Calling extensions — recordings, inbound_calls', 'calling-extensions--recordings-inbound_calls'],
  ['Écran d’accueil', 'écran-daccueil'],
]

test.each(HEADING_IDS)('the heading %j gets GitHub’s id %j', (heading, id) => {
  expect(githubSlug(heading)).toBe(id)
})

test('a page’s anchors: repeated headings numbered as GitHub numbers them, markup dropped, HTML ids kept', () => {
  const anchors = anchorsOf('# Notes\n\n## Notes\n\n## Notes\n\n### *Emphasis* and `code` and [a link](x.md)\n\n<a id="kept"></a>\n\nSetext\n------\n')
  expect([...anchors].sort()).toEqual(['emphasis-and-code-and-a-link', 'kept', 'notes', 'notes-1', 'notes-2', 'setext'])
})

test('links in code spans and code blocks are not links; links and images elsewhere are', () => {
  const text = '[a](one.md) `[b](two.md)`\n\n```\n[c](three.md)\n```\n\n    [d](four.md)\n\n![e](five.png) <a href="six.md">six</a>\n\n[ref]\n\n[ref]: seven.md#top\n'
  expect(linksOf(text).map((link) => link.target)).toEqual(['one.md', 'five.png', 'six.md', 'seven.md#top'])
})

test('a missing file, a missing anchor, a folder anchor and a link out of the repository are each reported with their line', () => {
  const root = mkdtempSync(join(tmpdir(), 'docs-links-'))
  mkdirSync(join(root, 'docs'))
  mkdirSync(join(root, 'src'))
  writeFileSync(join(root, 'src', 'code.ts'), 'export {}\n')
  writeFileSync(join(root, 'docs', 'a.md'), '# Page A\n\n## Sub part\n\nSee [top](#page-a), [B](b.md#the-end), [nothing](#nowhere).\n')
  writeFileSync(
    join(root, 'README.md'),
    [
      '# Front',
      '',
      '[ok](docs/a.md#sub-part) [ok too](src/code.ts#L1) [site](https://example.com/x.md) [self](#front) [dir](src/)',
      '',
      '[gone](docs/gone.md) [bad anchor](docs/a.md#sub) [code anchor](src/code.ts#top)',
      '',
      '[out](../elsewhere.md) [folder anchor](src/#x) [encoded](docs/a.md#sub%20part)',
    ].join('\n'),
  )
  expect(manualPages(root)).toEqual(['README.md', 'docs/a.md'])
  expect(unlinkedPages(root)).toEqual([])
  writeFileSync(join(root, 'docs', 'orphan.md'), '# Nobody links here\n\n[back](../README.md)\n')
  expect(unlinkedPages(root)).toEqual(['docs/orphan.md'])
  expect(brokenLinks(root)).toEqual([
    'README.md:5: docs/gone.md — docs/gone.md does not exist',
    'README.md:5: docs/a.md#sub — #sub: no heading of docs/a.md has that anchor',
    'README.md:5: src/code.ts#top — #top: src/code.ts is not Markdown, and only line anchors (#L10) work there',
    'README.md:7: ../elsewhere.md — ../elsewhere.md leaves the repository',
    'README.md:7: src/#x — #x: src is a folder, which has no anchors',
    'README.md:7: docs/a.md#sub%20part — #sub part: no heading of docs/a.md has that anchor',
    'docs/a.md:5: b.md#the-end — docs/b.md does not exist',
    'docs/a.md:5: #nowhere — #nowhere: no heading of docs/a.md has that anchor',
  ])
})
