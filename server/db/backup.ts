import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/**
 * Copies the embedded SQLite database to `destination` while the server keeps running (SQLite's
 * online backup API, page by page, over a connection of its own: writers wait at most for one
 * step). The copy is a complete database file, consistent as of the moment the copy finished.
 * Refuses to overwrite an existing file.
 */
export async function backupSqlite(dataDir: string, destination: string): Promise<{ file: string; pages: number }> {
  const source = path.join(dataDir, 'sage.db');
  if (!fs.existsSync(source)) throw new Error(`No database at ${source}`);
  const file = path.resolve(destination);
  if (fs.existsSync(file)) throw new Error(`${file} already exists; choose a new file name`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const { totalPages } = await db.backup(file);
    return { file, pages: totalPages };
  } finally {
    db.close();
  }
}
