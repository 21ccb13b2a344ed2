import { createPrivateKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The key generated when LICENSE_SIGNING_KEY is not set, under DATA_DIR. */
export const LICENSE_KEY_FILE = 'license-signing-key.pem';

const EXPECTED = 'expected an Ed25519 private key as PKCS#8 PEM (-----BEGIN PRIVATE KEY-----), or base64 of that PEM or of its DER';

/** Where the signing key came from: the setting, a file made by this start, or one made earlier. */
export interface LicenseKeyOrigin {
  source: 'config' | 'generated' | 'file';
  /** The key file under DATA_DIR; undefined for `config`. */
  file: string | undefined;
}

/**
 * LICENSE_SIGNING_KEY: a PKCS#8 PEM (real newlines or `\n` escapes, as one-line settings often
 * carry them), or base64 of the PEM or of its DER. Errors never repeat the value.
 */
export function parseLicenseSigningKey(raw: string): KeyObject {
  const text = raw.trim().replace(/\\n/g, '\n');
  let key: KeyObject;
  try {
    if (text.startsWith('-----')) {
      key = createPrivateKey({ key: text, format: 'pem' });
    } else {
      const compact = text.replace(/\s+/g, '');
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) throw new Error('not base64');
      const bytes = Buffer.from(compact, 'base64');
      const decoded = bytes.toString('latin1').trim();
      key = decoded.startsWith('-----')
        ? createPrivateKey({ key: decoded, format: 'pem' })
        : createPrivateKey({ key: bytes, format: 'der', type: 'pkcs8' });
    }
  } catch {
    throw new Error(EXPECTED);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${EXPECTED}; this is a ${key.asymmetricKeyType ?? 'different'} key`);
  return key;
}

function errorCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/** The key in `file`, or undefined when there is no such file. A damaged file is an error, never replaced. */
function readKeyFile(file: string): KeyObject | undefined {
  let pem: string;
  try {
    pem = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return undefined;
    throw err;
  }
  try {
    return parseLicenseSigningKey(pem);
  } catch (err) {
    throw new Error(
      `${file}: ${(err as Error).message}. Restore the file, or delete it to generate a new key (license files signed with the old key stop verifying)`,
      { cause: err },
    );
  }
}

/**
 * Creates `file` holding `pem` (mode 0600) unless it exists; answers whether it did. The content is
 * written and flushed under a temporary name first and then hard-linked into place, so a server
 * starting at the same moment reads either no file or the whole key, and exactly one key wins.
 */
function createKeyFile(file: string, pem: string): boolean {
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeSync(fd, pem);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    if (errorCode(err) === 'EEXIST') return false;
    // A file system without hard links: an exclusive create, which still never replaces a key.
    if (!['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP'].includes(errorCode(err) ?? '')) throw err;
    try {
      fs.writeFileSync(file, pem, { flag: 'wx', mode: 0o600 });
      return true;
    } catch (inner) {
      if (errorCode(inner) === 'EEXIST') return false;
      throw inner;
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * The license signing key, read once at start (synchronously: services are built synchronously):
 * LICENSE_SIGNING_KEY when set, else `<DATA_DIR>/license-signing-key.pem`, generated the first
 * time and reused by every later start.
 */
export function loadLicenseSigningKey(opts: { configured: string | undefined; dataDir: string }): {
  signingKey: KeyObject;
  keyOrigin: LicenseKeyOrigin;
} {
  if (opts.configured) {
    return { signingKey: parseLicenseSigningKey(opts.configured), keyOrigin: { source: 'config', file: undefined } };
  }
  const file = path.join(opts.dataDir, LICENSE_KEY_FILE);
  const existing = readKeyFile(file);
  if (existing) return { signingKey: existing, keyOrigin: { source: 'file', file } };
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const { privateKey } = generateKeyPairSync('ed25519');
  if (createKeyFile(file, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())) {
    return { signingKey: privateKey, keyOrigin: { source: 'generated', file } };
  }
  // Another server over the same DATA_DIR generated it a moment ago: use that one.
  const theirs = readKeyFile(file);
  if (!theirs) throw new Error(`${file}: the license signing key vanished while it was being created`);
  return { signingKey: theirs, keyOrigin: { source: 'file', file } };
}
