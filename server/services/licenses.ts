import { createHash, createPublicKey, sign, type KeyObject } from 'node:crypto';
import type { PluginPayload } from '../../contract/epic';
import {
  LICENSE_ALGORITHM,
  LICENSE_FORMAT,
  LICENSE_VALIDITY_DAYS,
  type LicenseFile,
  type LicensePayload,
  type LicensePublicKey,
} from '../../contract/license';
import type { Db } from '../db';
import { notFound } from '../errors';
import type { Actor, AuditService } from './audit';
import type { LicenseKeyOrigin } from './licenseKey';
import { checkStaffAuthority } from './staffAuthority';

const DAY_SECONDS = 24 * 60 * 60;

export const USER_NOT_FOUND = 'User not found';

/**
 * The payload's JSON text, printable ASCII only: JSON.stringify escapes control characters, and
 * every character from DEL up becomes a `\uXXXX` escape. The text then means the same in any
 * encoding a verifier's string type uses, and its bytes are what is signed.
 */
export function payloadText(payload: LicensePayload): string {
  return JSON.stringify(payload).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The raw 32 bytes of an Ed25519 public key (what libsodium takes). */
function rawPublicKey(key: KeyObject): Buffer {
  const { x } = key.export({ format: 'jwk' });
  if (!x) throw new Error('not an Ed25519 public key');
  return Buffer.from(x, 'base64url');
}

/** First 16 hex digits of SHA-256 over the raw public key: names the key without a registry. */
export function licenseKeyId(publicKey: KeyObject): string {
  return createHash('sha256').update(rawPublicKey(publicKey)).digest('hex').slice(0, 16);
}

export interface LicenseServiceDeps {
  db: Db;
  /** Records staff's downloads of a user's license (issue 36). */
  audit: Pick<AuditService, 'record'>;
  /** Ed25519 private key (server/services/licenseKey.ts loads it). */
  signingKey: KeyObject;
  /** The billing service's summary: the user's live subscription, or null. */
  subscriptionSummary: (userId: string) => Promise<PluginPayload['subscription']>;
  /** Where the key came from, for the start-up log; defaults to the setting. */
  keyOrigin?: LicenseKeyOrigin;
  /** Epoch milliseconds; tests may pin it. */
  now?: () => number;
}

/**
 * Signed license files (docs/license-file.md): what the plugin verifies offline with the public key
 * of `GET /api/license/public-key`.
 */
export function createLicenseService(deps: LicenseServiceDeps) {
  if (deps.signingKey.type !== 'private' || deps.signingKey.asymmetricKeyType !== 'ed25519') {
    throw new Error('The license signing key must be an Ed25519 private key');
  }
  const now = deps.now ?? Date.now;
  const publicKey = createPublicKey(deps.signingKey);
  const keyId = licenseKeyId(publicKey);
  const published: LicensePublicKey = {
    algorithm: LICENSE_ALGORITHM,
    keyId,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    publicKeyBase64: rawPublicKey(publicKey).toString('base64'),
  };

  /** A freshly signed license for the user, valid LICENSE_VALIDITY_DAYS; 404 for an unknown user. */
  async function licenseFile(userId: string): Promise<LicenseFile> {
    const user = await deps.db.selectFrom('users').select(['id', 'license_token']).where('id', '=', userId).executeTakeFirst();
    if (!user) throw notFound(USER_NOT_FOUND);
    const subscription = await deps.subscriptionSummary(user.id);
    const issuedAt = Math.floor(now() / 1000);
    const payload = payloadText({
      userId: user.id,
      licenseToken: user.license_token,
      product: 'sage',
      issuedAt,
      expiresAt: issuedAt + LICENSE_VALIDITY_DAYS * DAY_SECONDS,
      subscriptionStatus: subscription?.status ?? null,
    });
    const signature = sign(null, Buffer.from(payload, 'utf8'), deps.signingKey).toString('base64');
    return { format: LICENSE_FORMAT, algorithm: LICENSE_ALGORITHM, keyId, payload, signature };
  }

  return {
    keyOrigin: deps.keyOrigin ?? { source: 'config', file: undefined },

    /** `GET /api/license/public-key`. */
    publicKey(): LicensePublicKey {
      return { ...published };
    },

    licenseFile,

    /**
     * A user's license file downloaded by staff (the console's Download License): admins only, the
     * actor's role read again, and audited as `license.download`, naming no token. The file carries
     * the license token, so this is the one way staff receive it (issue 36).
     */
    async downloadByStaff(actor: Actor, userId: string): Promise<LicenseFile> {
      await deps.db.transaction().execute(async (trx) => {
        await checkStaffAuthority(trx, { actor, action: 'downloadLicense', targetId: userId });
        await deps.audit.record(actor, { action: 'license.download', targetType: 'user', targetId: userId }, trx);
      });
      return licenseFile(userId);
    },
  };
}

export type LicenseService = ReturnType<typeof createLicenseService>;
