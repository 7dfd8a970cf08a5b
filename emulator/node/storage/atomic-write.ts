/**
 * Durable file writes: a file replaced atomically (temp file in the same
 * folder, fsync, rename, fsync of the folder), blocking or not. The
 * non-blocking forms are for compaction, which runs while requests are served.
 */
import { closeSync, fsyncSync, openSync, renameSync, writeFileSync } from 'node:fs'
import { open, rename } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

export function fsyncDir(dir: string): void {
  // Makes a rename durable. Some file systems refuse to open a folder; the rename is then as durable as they make it.
  try {
    const fd = openSync(dir, 'r')
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  } catch {
    // see above
  }
}

/** Write `text` to `path` atomically: temp file in the same folder, fsync, rename, fsync the folder. */
export function writeFileAtomic(path: string, text: string): void {
  const temp = tempPath(path)
  const fd = openSync(temp, 'w')
  try {
    writeFileSync(fd, text)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(temp, path)
  fsyncDir(dirname(path))
}

/** fsyncDir without blocking the event loop (compaction runs while requests are served). */
export async function fsyncDirAsync(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch {
    // as fsyncDir
  }
}

/** writeFileAtomic without blocking the event loop. */
export async function writeFileAtomicAsync(path: string, text: string): Promise<void> {
  const temp = tempPath(path)
  const handle = await open(temp, 'w')
  try {
    await handle.writeFile(text)
    await handle.sync()
  } finally {
    await handle.close()
  }
  await rename(temp, path)
  await fsyncDirAsync(dirname(path))
}

export function tempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)
}
