import { CDN_SDK_URL, parseCdnUrl, parseServedPath, requestedText, resolveSdkRequest, servedPath, substitutionInAck, substitutionSentence } from './cdn-urls.ts'
import { LATEST_RELEASE, SDK_RELEASES } from './releases.ts'

const versionOf = (url: string) => {
  const request = parseCdnUrl(url)
  if (!request) return null
  const resolution = resolveSdkRequest(request)
  return resolution.ok ? `${resolution.release.version} ${resolution.file}` : resolution.message
}

describe('the public CDN URLs of the SDK', () => {
  it.each([
    ['https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk@0.9.7/dist/main.js', '0.9.7 main.js'],
    ['https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk@latest/dist/main.js', `${LATEST_RELEASE.version} main.js`],
    ['https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk@0.9/dist/main.js', `${LATEST_RELEASE.version} main.js`],
    ['https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk/dist/main.js', `${LATEST_RELEASE.version} main.js`],
    ['https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk', `${LATEST_RELEASE.version} main.js`],
    ['https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk@0.9.3', '0.9.3 main.js'],
    ['https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk@0.9.4/dist/main.min.js', '0.9.4 main.js'],
    ['https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk@0.9.7/+esm', '0.9.7 main.esm.js'],
    ['https://fastly.jsdelivr.net/npm/@hubspot/calling-extensions-sdk@%5E0.9.3/dist/main.esm.js', `${LATEST_RELEASE.version} main.esm.js`],
    ['https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk@~0.9.3/dist/main.js', `${LATEST_RELEASE.version} main.js`],
    ['https://unpkg.com/@hubspot/calling-extensions-sdk@0.9.5/dist/main.js', '0.9.5 main.js'],
    ['https://unpkg.com/@hubspot/calling-extensions-sdk@0.9.x/dist/main.esm.js?module', `${LATEST_RELEASE.version} main.esm.js`],
    ['https://unpkg.com/@hubspot/calling-extensions-sdk', `${LATEST_RELEASE.version} main.js`],
  ])('%s → %s', (url, expected) => {
    expect(CDN_SDK_URL.test(url)).toBe(true)
    expect(versionOf(url)).toBe(expected)
  })

  it('other packages and hosts are not the SDK', () => {
    for (const url of [
      'https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk-other@1.0.0/dist/main.js',
      'https://cdn.jsdelivr.net/npm/uuid@10/dist/index.js',
      'https://cdn.example.com/npm/@hubspot/calling-extensions-sdk@0.9.7/dist/main.js',
      'https://cdnjs.cloudflare.com/ajax/libs/jquery/3.7.1/jquery.min.js',
      'not a url',
    ]) {
      expect(parseCdnUrl(url), url).toBeNull()
      expect(CDN_SDK_URL.test(url), url).toBe(false)
    }
  })

  it('an unknown version gets one sentence naming every supported one', () => {
    for (const version of ['0.8.0', '9.9.9', '^1.0.0', 'next', '__proto__']) {
      const resolution = resolveSdkRequest({ version, file: 'dist/main.js' })
      expect(resolution.ok).toBe(false)
      const message = resolution.ok ? '' : resolution.message
      expect(message).toContain(`not "${version}"`)
      for (const { version: supported } of SDK_RELEASES) expect(message).toContain(supported)
      expect(message.split('. ').length).toBe(1)
    }
  })

  it('a file the package does not serve from the CDN is named', () => {
    const resolution = resolveSdkRequest({ version: '0.9.7', file: 'dist/types/index.d.ts' })
    expect(resolution).toEqual({ ok: false, message: expect.stringContaining('not "dist/types/index.d.ts"') })
    expect(resolveSdkRequest({ version: '0.9.7', file: '__proto__' }).ok).toBe(false)
  })

  it('the served path carries the request to the server, which resolves it the same way', () => {
    const request = parseCdnUrl('https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk@^0.9.3')!
    const path = servedPath(request)
    expect(path).toBe('/sdk/npm/@hubspot/calling-extensions-sdk@%5E0.9.3/dist/main.js')
    expect(parseServedPath(path)).toEqual({ version: '^0.9.3', file: 'dist/main.js' })
    expect(servedPath({ version: '', file: '' })).toBe('/sdk/npm/@hubspot/calling-extensions-sdk@latest/dist/main.js')
    expect(parseServedPath('/sdk/0.1.0/calling-extensions.js')).toBeNull()
  })
})

describe('prerelease pins', () => {
  it.each([
    ['https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk@0.9.3-alpha.0/dist/main.js', '0.9.3-alpha.0', '0.9.3', 'main.js'],
    ['https://unpkg.com/@hubspot/calling-extensions-sdk@0.9.7-beta.2/dist/main.esm.js', '0.9.7-beta.2', '0.9.7', 'main.esm.js'],
    ['https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk@0.9.4-rc.1+build.5/+esm', '0.9.4-rc.1', '0.9.4', 'main.esm.js'],
  ])('%s gets the release of the same x.y.z, named as a substitution', (url, requested, served, file) => {
    const resolution = resolveSdkRequest(parseCdnUrl(url)!)
    expect(resolution).toMatchObject({ ok: true, release: { version: served }, file, substitution: { requested, served } })
    expect(resolution.ok && resolution.substitution && substitutionSentence(resolution.substitution)).toBe(
      `The widget pins @hubspot/calling-extensions-sdk@${requested}, a prerelease Ringside does not hold: Ringside serves the release ${served} in its place.`,
    )
  })

  it('a release, a range or latest is no substitution', () => {
    for (const version of ['0.9.3', '0.9', '^0.9.3', 'latest', '']) {
      const resolution = resolveSdkRequest({ version, file: '' })
      expect(resolution.ok && resolution.substitution, version).toBeUndefined()
    }
  })

  it('a prerelease of a release Ringside does not hold keeps the clear refusal', () => {
    for (const version of ['0.9.99-alpha.0', '1.0.0-beta.1', '0.8.4-beta.0']) {
      const resolution = resolveSdkRequest({ version, file: 'dist/main.js' })
      expect(resolution).toEqual({ ok: false, message: expect.stringContaining(`not "${version}"`) })
    }
  })

  it('the served path keeps the pin, so the server substitutes the same way; the file carries only semver text', () => {
    const request = parseCdnUrl('https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk@0.9.3-alpha.0/dist/main.js')!
    const served = parseServedPath(servedPath(request))!
    const resolution = resolveSdkRequest(served)
    expect(resolution.ok && requestedText(resolution)).toBe('0.9.3-alpha.0')
    const plain = resolveSdkRequest({ version: '0.9.3', file: '' })
    expect(plain.ok && requestedText(plain)).toBe('0.9.3')
  })

  it('reads the substitution Ringside’s CDN build announces in its SYNC_ACK, and nothing else', () => {
    const ack = (field: unknown) => ({ type: 'SYNC_ACK', messageId: 'm', ringsideSdkSubstitution: field })
    expect(substitutionInAck(ack({ requested: '0.9.3-alpha.0', served: '0.9.3' }))).toEqual({ requested: '0.9.3-alpha.0', served: '0.9.3' })
    for (const field of [undefined, null, 'x', { requested: '0.9.3-alpha.0' }, { requested: 'no', served: '0.9.3' }, { requested: '0.9.3-alpha.0', served: '9.9.9' }]) {
      expect(substitutionInAck(ack(field)), JSON.stringify(field)).toBeNull()
    }
    expect(substitutionInAck('SYNC_ACK')).toBeNull()
  })
})
