import { afterAll, expect, test } from 'vitest'
import { buildCommand, type CliOptions } from '../start-command.ts'
import { startRingside, StartupError } from '../server.ts'
import { DEFAULT_REDIRECT_URLS, REDIRECT_URLS_PATH } from '../../../shared/crm/redirect-urls.ts'
import { freePortPair, removeScratchDirs, scratchDir } from './support.ts'

afterAll(() => removeScratchDirs())

const listOf = async (origin: string) => ((await (await fetch(`${origin}${REDIRECT_URLS_PATH}`)).json()) as { redirectUrls: string[] }).redirectUrls

test('--redirect-url registers its URLs on fresh and on saved data, keeps them across a restart and a reset, and refuses what the CRM would not take', { timeout: 30_000 }, async () => {
  const data = scratchDir('redirect-urls')
  const mine = 'http://localhost:4555/oauth/callback'
  const first = await startRingside({ port: await freePortPair(), data, pages: 'none', redirectUrls: [mine] })
  let origin = first.url.slice(0, -1)
  expect(await listOf(origin)).toEqual([...DEFAULT_REDIRECT_URLS, mine])
  expect(first.notes.join('\n')).toContain(`--redirect-url: registered ${mine}`)
  // A reset keeps what the command line registered.
  await fetch(`${origin}/_ringside/v1/reset`, { method: 'POST' })
  expect(await listOf(origin)).toEqual([...DEFAULT_REDIRECT_URLS, mine])
  await first.close()

  // Saved data keeps its list; another --redirect-url adds to it.
  const other = 'https://app.example/cb'
  const second = await startRingside({ port: await freePortPair(), data, pages: 'none', redirectUrls: [other] })
  origin = second.url.slice(0, -1)
  expect(await listOf(origin)).toEqual([...DEFAULT_REDIRECT_URLS, mine, other])
  await second.close()

  await expect(startRingside({ port: await freePortPair(), data: null, pages: 'none', redirectUrls: ['http://127.0.0.1:3000/cb'] })).rejects.toThrow(StartupError)
})

test('the command line takes --redirect-url, several at once or repeated, and refuses an http URL off localhost', () => {
  const parse = (...args: string[]) => buildCommand().exitOverride().configureOutput({ writeErr: () => {} }).parse(['node', 'ringside', ...args]).opts<CliOptions>()
  expect(parse('--redirect-url', 'https://a.example/cb', 'http://localhost:1/cb', '--redirect-url', 'https://b.example/cb').redirectUrl).toEqual([
    'https://a.example/cb',
    'http://localhost:1/cb',
    'https://b.example/cb',
  ])
  expect(() => parse('--redirect-url', 'http://127.0.0.1:3000/cb')).toThrow(/http only for localhost/)
})
