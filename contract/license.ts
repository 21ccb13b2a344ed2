import { z } from 'zod';

/**
 * The signed license file (product §3 User.token, §7 `GET /api/{product}/{id}/license`) and the public
 * key that verifies it (`GET /api/license/public-key`). docs/license-file.md is the format's
 * reference for plugin authors.
 */

export const LICENSE_FORMAT = 'sage-license/1';
export const LICENSE_ALGORITHM = 'Ed25519';
/** The products a license can be for (the `{product}` of the path). */
export const LICENSE_PRODUCTS = ['sage'] as const;
export type LicenseProduct = (typeof LICENSE_PRODUCTS)[number];
/** A license file is valid this long after it is issued; the plugin fetches a fresh one before then. */
export const LICENSE_VALIDITY_DAYS = 30;

/** What the server vouches for. Times are Unix seconds (UTC). */
export const licensePayloadSchema = z.object({
  userId: z.string(),
  /** The user's license token (product §3 User.token). */
  licenseToken: z.string(),
  product: z.enum(LICENSE_PRODUCTS),
  issuedAt: z.number().int(),
  expiresAt: z.number().int(),
  /** The status of the user's live subscription (`trialing`, `active`, `past_due`, `paused`, …); null without one. */
  subscriptionStatus: z.string().nullable(),
});
export type LicensePayload = z.infer<typeof licensePayloadSchema>;

/**
 * The file. `payload` is the payload's JSON text, printable ASCII only; the signature is over
 * exactly its bytes, so a verifier checks those bytes first and parses them after, never
 * re-serializing anything.
 */
export const licenseFileSchema = z.object({
  format: z.literal(LICENSE_FORMAT),
  algorithm: z.literal(LICENSE_ALGORITHM),
  /** Which signing key made the signature (see the public key's keyId). */
  keyId: z.string(),
  payload: z.string(),
  /** Base64 (RFC 4648, padded) of the 64-byte Ed25519 signature. */
  signature: z.string(),
});
export type LicenseFile = z.infer<typeof licenseFileSchema>;

/** `GET /api/license/public-key`. */
export const licensePublicKeySchema = z.object({
  algorithm: z.literal(LICENSE_ALGORITHM),
  /** First 16 hex digits of SHA-256 over the raw 32-byte public key. */
  keyId: z.string(),
  /** SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`). */
  publicKeyPem: z.string(),
  /** Base64 of the raw 32-byte public key (libsodium's `crypto_sign_PUBLICKEYBYTES`). */
  publicKeyBase64: z.string(),
});
export type LicensePublicKey = z.infer<typeof licensePublicKeySchema>;

/** `?download=true` answers the file as an attachment named like this. */
export const licenseFileName = (userId: string) => `sage-license-${userId}.json`;

/** The file name a download's Content-Disposition gives: only these characters (ids are UUIDs anyway). */
export const licenseAttachmentName = (userId: string) => licenseFileName(userId.replace(/[^A-Za-z0-9._-]/g, '_'));

/**
 * The 401 for a license token an admin replaced (issue 14), from `GET /api/license` and the
 * ingestion API: the plugin signs in again to get the new one. A token never issued keeps the
 * plain `unauthorized`.
 */
export const LICENSE_REVOKED = {
  error: 'license_revoked',
  message: 'This license was replaced by a new one. Sign in to Sage again from the plugin to get it.',
} as const;
