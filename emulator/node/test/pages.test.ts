/**
 * Only product pages on the product origins, with their policy: in every mode
 * a test can run the server in (Vite dev, --dist, and the static build as
 * `npm run preview` serves it), every path that could answer with a document
 * is asked for on both origins (every HTML file the mode could reach, in
 * each of its URL forms, and paths a fallback would answer), and the paths
 * answered with HTML must be exactly the product pages' (emulator/node/pages/page-policy.ts),
 * each with its policy headers.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { inlineScriptHashes, PRODUCT_PAGES, pageAt } from '../pages/page-policy.ts'
import { startRingside, type RingsideServer } from '../server.ts'
import { REPO_ROOT } from '../package-info.ts'
import { freePortPair } from './support.ts'
import { policyProblems } from '../../../e2e/support/policy-check.ts'
import { SERVER_PAGE_TIMING } from '../../../shared/crm/api-paths.ts'
import { PREVIEW_ORIGINS } from '../../../tools/build/static-headers.ts'

const DOCUMENT = /\.(html?|xhtml)$/i

/** Every document file under `dir` (dot folders included: the server must refuse them too), as URL paths. */
function documentPaths(dir: string, base = dir): string[] {
  const out: string[] = []
  if (!existsSync(dir)) return out
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === '.git') continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...documentPaths(path, base))
    else if (DOCUMENT.test(entry.name)) out.push(`/${relative(base, path).split('\\').join('/')}`)
  }
  return out
}

/** A file path in every form a page server may answer it under: the file, its folder with and without the slash. */
function urlForms(file: string): string[] {
  const forms = [file]
  if (/\/index\.html?$/i.test(file)) {
    const dir = file.replace(/index\.html?$/i, '')
    forms.push(dir, dir.length > 1 ? dir.slice(0, -1) : dir)
  } else forms.push(file.replace(DOCUMENT, ''))
  return forms
}

/** Paths a history or directory fallback would answer with a page. */
const FALLBACK_PROBES = ['/', '/no-such-page', '/no-such-page/', '/contacts/1', '/deep/no/such.html', '/widget/deeper/', '/oauth/', '/index.htm', '/?x=1']

function candidates(roots: readonly string[]): string[] {
  const files = roots.flatMap((root) => documentPaths(root))
  const pages = PRODUCT_PAGES.flatMap((page) => urlForms(`/${page.file}`))
  return [...new Set([...files.flatMap(urlForms), ...pages, ...FALLBACK_PROBES])]
}

interface Answer {
  path: string
  origin: string
  headers: Headers
}

/** The paths of `origins` that answer 200 with HTML (after redirects on the same origin). */
async function htmlAnswers(origins: readonly string[], paths: readonly string[]): Promise<Answer[]> {
  const answers: Answer[] = []
  for (const origin of origins) {
    for (const path of paths) {
      const response = await fetch(`${origin}${path}`, { redirect: 'follow' })
      const type = response.headers.get('content-type') ?? ''
      await response.arrayBuffer()
      if (response.status === 200 && /^(text\/html|application\/xhtml\+xml)/i.test(type)) {
        answers.push({ path: new URL(response.url).pathname, origin, headers: response.headers })
      }
    }
  }
  return answers
}

/** The product page an answer is, by its final path (null: not a product page). */
function pageOf(answer: Answer) {
  return pageAt(answer.path)
}

function expectPolicy(answers: readonly Answer[], ownOrigins: readonly string[]): void {
  for (const answer of answers) {
    const headers = Object.fromEntries(answer.headers.entries())
    expect(policyProblems(headers, pageOf(answer)!, ownOrigins), `${answer.origin}${answer.path}`).toEqual([])
  }
}

const EXPECTED = PRODUCT_PAGES.map((page) => page.path).sort()
const finalPaths = (answers: readonly Answer[]) => [...new Set(answers.map((answer) => pageOf(answer)?.path ?? answer.path))].sort()

describe('only product pages, each with its policy', () => {
  let server: RingsideServer | undefined
  let child: ChildProcess | undefined
  afterAll(async () => {
    await server?.close()
    child?.kill()
  })

  for (const mode of ['dist', 'vite'] as const) {
    it(`the server with ${mode === 'dist' ? '--dist' : 'Vite (npm start)'}: HTML only at the product pages, on both origins`, { timeout: 90_000 }, async () => {
      const port = await freePortPair()
      server = await startRingside({ port, data: null, pages: mode })
      const origins = [`http://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`]
      const roots = mode === 'dist' ? [resolve(REPO_ROOT, 'dist')] : [REPO_ROOT]
      // Both origins run the same page server: every candidate on the harness origin, the pages' forms and the probes on the widget's.
      const answers = [...(await htmlAnswers(origins.slice(0, 1), candidates(roots))), ...(await htmlAnswers(origins.slice(1), candidates([])))]
      expect(finalPaths(answers)).toEqual(EXPECTED)
      expectPolicy(answers, origins)
      // Every page the server serves tells the page so (it then never falls back to a database of its own).
      for (const answer of answers) expect(answer.headers.get('server-timing'), answer.path).toMatch(new RegExp(`^${SERVER_PAGE_TIMING};`))
      // The test pages' build is never reachable through the server, under any path.
      const testPages = documentPaths(resolve(REPO_ROOT, 'dist-test')).map((path) => `/dist-test${path}`)
      expect(await htmlAnswers(origins.slice(0, 1), testPages)).toEqual([])
      // Vite dev's inline scripts (the React refresh preamble) run by their hash, and only they.
      const harness = await fetch(`${origins[0]}/`)
      const hashes = inlineScriptHashes(await harness.text())
      expect(hashes.length > 0).toBe(mode === 'vite')
      for (const hash of hashes) expect(harness.headers.get('content-security-policy')).toContain(hash)
      await server.close()
      server = undefined
    })
  }

  it('the static build as `npm run preview` serves it (its headers file): HTML only at the product pages', { timeout: 30_000 }, async () => {
    const port = await freePortPair()
    child = spawn(process.execPath, ['tools/test/serve-dist.mjs', String(port), String(port + 1)], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
    await new Promise<void>((ready) => child!.stdout!.once('data', () => ready()))
    const origins = [`http://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`]
    const answers = await htmlAnswers(origins, candidates([resolve(REPO_ROOT, 'dist')]))
    expect(finalPaths(answers)).toEqual(EXPECTED)
    // A static host's pages carry no server mark: they keep browser-only mode.
    for (const answer of answers) expect(answer.headers.get('server-timing'), answer.path).toBeNull()
    // The headers file names `npm run preview`'s origins; this run's ports are others, so only the rest is checked.
    expectPolicy(
      answers,
      answers.flatMap((answer) => ((/frame-ancestors ([^;]*)/.exec(answer.headers.get('content-security-policy') ?? '')?.[1] ?? '').split(' ').filter((origin) => PREVIEW_ORIGINS.includes(origin)))),
    )
  })
})
