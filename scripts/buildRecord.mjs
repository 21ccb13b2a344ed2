// What dist/ was built from that file times cannot tell: npm rewrites package-lock.json, unchanged,
// on every `npm prune` and `npm install`, so the lock counts as changed only when its content does.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The digest of the lock the build used; `npm run build` writes it into dist/build.json. */
export function lockDigest(root) {
  return createHash('sha256')
    .update(fs.readFileSync(path.join(root, 'package-lock.json')))
    .digest('hex');
}

export const buildRecordPath = (root) => path.join(root, 'dist', 'build.json');

/** Whether dist/ was built from the lock as it is now (false when no build recorded one). */
export function builtFromCurrentLock(root) {
  try {
    return JSON.parse(fs.readFileSync(buildRecordPath(root), 'utf8')).packageLock === lockDigest(root);
  } catch {
    return false;
  }
}

export function recordBuild(root) {
  fs.writeFileSync(buildRecordPath(root), `${JSON.stringify({ packageLock: lockDigest(root) })}\n`);
}
