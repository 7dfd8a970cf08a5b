// The storage engines tools/bench/engine-compare.mjs measures, each behind the same Database commit
// hook: the project's own journal, SQLite in WAL mode (better-sqlite3) and LMDB (lmdb-js), each
// embedded engine loaded from the scratch folder it was installed in.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

/** The project's journal, attached as emulator/node/server.ts attaches it (before and after the group-commit sink). */
export const journalEngine = {
  name: 'journal (emulator/node/storage/disk-storage.ts)',
  kind: 'journal',
  async open({ DiskStorage }, db, dir, { fresh }) {
    const storage = new DiskStorage(dir)
    storage.lock()
    if (!fresh) storage.load(db)
    if (typeof storage.start === 'function') db.onCommit(await storage.start(db, { compact: fresh }))
    else {
      await storage.compact(db)
      db.onCommit((commit) => storage.append(db, commit))
    }
    return () => storage.close()
  },
}

function requireSqlite(dir) {
  return createRequire(join(dir, 'package.json'))('better-sqlite3')
}

/**
 * SQLite in WAL mode, synchronous=FULL: one table of rows keyed by
 * (table, id), the row as JSON. Commits that arrive while one is being
 * written are written together, in order, in the next transaction.
 */
export function sqliteEngine(sqliteDir) {
  const Sqlite = requireSqlite(sqliteDir)
  return {
    name: `SQLite WAL (better-sqlite3 ${createRequire(join(sqliteDir, 'package.json'))('better-sqlite3/package.json').version})`,
    kind: 'sqlite',
    async open(_project, db, dir, { fresh }) {
      const file = join(dir, 'ringside.sqlite')
      const sqlite = new Sqlite(file)
      sqlite.pragma('journal_mode = WAL')
      sqlite.pragma('synchronous = FULL')
      sqlite.exec('CREATE TABLE IF NOT EXISTS rows (tbl TEXT NOT NULL, id TEXT NOT NULL, row TEXT NOT NULL, PRIMARY KEY (tbl, id))')
      if (!fresh) {
        let chunk = []
        for (const { tbl, id, row } of sqlite.prepare('SELECT tbl, id, row FROM rows').iterate()) {
          chunk.push({ table: tbl, id, row: JSON.parse(row) })
          if (chunk.length === 10_000) {
            db.applyRows(chunk)
            chunk = []
          }
        }
        db.applyRows(chunk)
      }
      const upsert = sqlite.prepare('INSERT INTO rows (tbl, id, row) VALUES (?, ?, ?) ON CONFLICT (tbl, id) DO UPDATE SET row = excluded.row')
      const remove = sqlite.prepare('DELETE FROM rows WHERE tbl = ? AND id = ?')
      const writeAll = sqlite.transaction((commits) => {
        for (const rows of commits) {
          for (const { table, id, row } of rows) {
            if (row === null) remove.run(table, id)
            else upsert.run(table, id, JSON.stringify(row))
          }
        }
      })
      let queue = []
      const flush = () => {
        const batch = queue
        queue = []
        try {
          writeAll(batch.map((entry) => entry.rows))
          for (const entry of batch) entry.resolve()
        } catch (error) {
          for (const entry of batch) entry.reject(error)
        }
      }
      db.onCommit((commit) => {
        if (commit.replaced) throw new Error('the SQLite engine of this comparison does not write whole-table replacements (reset, import): not part of the workload')
        return new Promise((resolve, reject) => {
          if (queue.length === 0) setImmediate(flush)
          queue.push({ rows: commit.rows, resolve, reject })
        })
      })
      return () => sqlite.close()
    },
  }
}

/**
 * LMDB through lmdb-js: one store, key `table NUL id`, the row as its
 * structured value (msgpack). lmdb-js itself writes the transactions queued
 * in one event turn as one commit; a commit resolves once `flushed` (on disk).
 */
export function lmdbEngine(lmdbDir) {
  const load = createRequire(join(lmdbDir, 'package.json'))
  const { open } = load('lmdb')
  return {
    name: `LMDB (lmdb ${JSON.parse(readFileSync(join(lmdbDir, 'node_modules', 'lmdb', 'package.json'), 'utf8')).version})`,
    kind: 'lmdb',
    async open(_project, db, dir, { fresh }) {
      const store = open({ path: join(dir, 'ringside.lmdb') })
      if (!fresh) {
        let chunk = []
        for (const { key, value } of store.getRange()) {
          const cut = key.indexOf('\u0000')
          chunk.push({ table: key.slice(0, cut), id: key.slice(cut + 1), row: value })
          if (chunk.length === 10_000) {
            db.applyRows(chunk)
            chunk = []
          }
        }
        db.applyRows(chunk)
      }
      db.onCommit(async (commit) => {
        if (commit.replaced) throw new Error('the LMDB engine of this comparison does not write whole-table replacements (reset, import): not part of the workload')
        await store.transaction(() => {
          for (const { table, id, row } of commit.rows) {
            if (row === null) store.remove(`${table}\u0000${id}`)
            else store.put(`${table}\u0000${id}`, row)
          }
        })
        await store.flushed
      })
      return () => store.close()
    },
  }
}
