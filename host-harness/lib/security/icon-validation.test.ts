import { checkIconFile, ICON_MAX_BYTES, sniffImageType } from './icon-validation.ts'

const PNG_HEADER = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const JPEG_HEADER = [0xff, 0xd8, 0xff, 0xe0]

const file = (bytes: number[] | Uint8Array, name: string, type: string) => new File([new Uint8Array(bytes)], name, { type })
const measured = (width: number, height: number) => async () => ({ width, height })

test('a square PNG is accepted as a data URL with its size', async () => {
  const result = await checkIconFile(file([...PNG_HEADER, 1, 2, 3], 'icon.png', 'image/png'), measured(64, 64))
  expect(result.ok).toBe(true)
  if (!result.ok) return
  expect(result.icon).toMatchObject({ mimeType: 'image/png', width: 64, height: 64, fileName: 'icon.png', bytes: 11 })
  expect(result.icon.dataUrl).toMatch(/^data:image\/png;base64,/)
})

test('a roughly square JPEG is accepted (ratio 1.05)', async () => {
  const result = await checkIconFile(file([...JPEG_HEADER, 9], 'icon.jpg', 'image/jpeg'), measured(105, 100))
  expect(result.ok && result.icon.mimeType).toBe('image/jpeg')
})

test.each([
  ['an SVG, whatever its bytes', file([...PNG_HEADER], 'icon.svg', 'image/svg+xml'), measured(64, 64), /SVG icons are not accepted/],
  ['a file that only claims to be a PNG', file([0x3c, 0x73, 0x76, 0x67], 'icon.png', 'image/png'), measured(64, 64), /not a PNG or JPEG/],
  ['a wide image (ratio 1.5)', file(PNG_HEADER, 'wide.png', 'image/png'), measured(96, 64), /roughly square/],
  ['a tall image (ratio 0.8)', file(PNG_HEADER, 'tall.png', 'image/png'), measured(80, 100), /roughly square/],
  ['an image smaller than 30 × 30', file(PNG_HEADER, 'tiny.png', 'image/png'), measured(16, 16), /at least 30 × 30/],
  ['an empty file', file([], 'empty.png', 'image/png'), measured(64, 64), /empty/],
])('refuses %s, saying why', async (_label, input, measure, reason) => {
  const result = await checkIconFile(input, measure)
  expect(result.ok).toBe(false)
  if (!result.ok) expect(result.reason).toMatch(reason)
})

test('an image the browser cannot decode is refused with the reason', async () => {
  const result = await checkIconFile(file(PNG_HEADER, 'broken.png', 'image/png'), async () => {
    throw new Error('The image could not be decoded.')
  })
  expect(result).toEqual({ ok: false, reason: expect.stringContaining('could not be decoded') })
})

test('a file over 5 MB is refused before it is read', async () => {
  const big = new File([new Uint8Array(ICON_MAX_BYTES + 1)], 'huge.png', { type: 'image/png' })
  const measure = vi.fn(measured(64, 64))
  const result = await checkIconFile(big, measure)
  expect(result).toEqual({ ok: false, reason: expect.stringContaining('at most 5 MB') })
  expect(measure).not.toHaveBeenCalled()
})

test('image types are sniffed from the bytes', () => {
  expect(sniffImageType(new Uint8Array(PNG_HEADER))).toBe('image/png')
  expect(sniffImageType(new Uint8Array(JPEG_HEADER))).toBe('image/jpeg')
  expect(sniffImageType(new Uint8Array([0x47, 0x49, 0x46, 0x38]))).toBeUndefined()
})
