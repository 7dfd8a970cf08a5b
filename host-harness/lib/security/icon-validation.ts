/**
 * Validation of the app icon upload, by the real CRM's rules for an app icon:
 * roughly square, must scale down to 30 × 30 pixels, at most 5 MB.
 *
 * Only PNG and JPEG are accepted, checked by their magic bytes as well as the
 * declared type. SVG is refused: it is a document that can carry script and
 * external references, and the icon is persisted and shown wherever the
 * harness likes; a raster image is inert in every context, so there is
 * nothing to get right later.
 */
import type { AppIcon } from '../harness-store.ts'

export const ICON_MAX_BYTES = 5 * 1024 * 1024
export const ICON_MIN_SIDE = 30
export const ICON_ASPECT_RANGE = { min: 0.9, max: 1.1 } as const

export type IconCheck = { ok: true; icon: AppIcon } | { ok: false; reason: string }

type Kind = 'image/png' | 'image/jpeg'

/** The image type from the file's first bytes, whatever it claims to be. */
export function sniffImageType(bytes: Uint8Array): Kind | undefined {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  if (bytes.length >= png.length && png.every((b, i) => bytes[i] === b)) return 'image/png'
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg'
  return undefined
}

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  const chunk = 0x8000
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk))
  return btoa(binary)
}

/** Decode the image in the browser to learn its size (an <img> from a blob: URL: no script can run). */
export async function decodeDimensions(blob: Blob): Promise<{ width: number; height: number }> {
  const url = URL.createObjectURL(blob)
  try {
    const img = new Image()
    img.decoding = 'async'
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve()
      img.onerror = () => reject(new Error('The image could not be decoded.'))
      img.src = url
    })
    return { width: img.naturalWidth, height: img.naturalHeight }
  } finally {
    URL.revokeObjectURL(url)
  }
}

async function readBytes(file: Blob): Promise<Uint8Array> {
  if (typeof file.arrayBuffer === 'function') return new Uint8Array(await file.arrayBuffer())
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer))
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'))
    reader.readAsArrayBuffer(file)
  })
}

export async function checkIconFile(
  file: File,
  measure: (blob: Blob) => Promise<{ width: number; height: number }> = decodeDimensions,
): Promise<IconCheck> {
  const name = file.name || 'icon'
  if (file.size > ICON_MAX_BYTES) {
    return { ok: false, reason: `${name} is ${(file.size / 1024 / 1024).toFixed(1)} MB; the icon may be at most 5 MB.` }
  }
  if (file.size === 0) return { ok: false, reason: `${name} is empty.` }
  if (file.type === 'image/svg+xml' || /\.svgz?$/i.test(name)) {
    return { ok: false, reason: 'SVG icons are not accepted (an SVG can carry script). Upload a PNG or JPEG.' }
  }
  const bytes = await readBytes(file)
  const kind = sniffImageType(bytes)
  if (kind === undefined) return { ok: false, reason: `${name} is not a PNG or JPEG image.` }
  let size: { width: number; height: number }
  try {
    size = await measure(new Blob([bytes as BlobPart], { type: kind }))
  } catch (error) {
    return { ok: false, reason: `${name} could not be decoded as an image: ${error instanceof Error ? error.message : String(error)}` }
  }
  const { width, height } = size
  if (!(width > 0 && height > 0)) return { ok: false, reason: `${name} has no pixels.` }
  if (width < ICON_MIN_SIDE || height < ICON_MIN_SIDE) {
    return { ok: false, reason: `${name} is ${width} × ${height} pixels; it must be at least ${ICON_MIN_SIDE} × ${ICON_MIN_SIDE}.` }
  }
  const ratio = width / height
  if (ratio < ICON_ASPECT_RANGE.min || ratio > ICON_ASPECT_RANGE.max) {
    return {
      ok: false,
      reason: `${name} is ${width} × ${height} pixels (aspect ratio ${ratio.toFixed(2)}); the icon must be roughly square (${ICON_ASPECT_RANGE.min}–${ICON_ASPECT_RANGE.max}).`,
    }
  }
  return {
    ok: true,
    icon: { dataUrl: `data:${kind};base64,${toBase64(bytes)}`, mimeType: kind, width, height, bytes: file.size, fileName: name },
  }
}
