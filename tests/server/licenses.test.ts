import { createPublicKey, generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LICENSE_VALIDITY_DAYS,
  licenseFileSchema,
  licensePayloadSchema,
  licensePublicKeySchema,
  type LicenseFile,
  type LicensePayload,
  type LicensePublicKey,
} from '../../contract/license';
import type { AppDeps, SageApp } from '../../server/app';
import { loggerOptions } from '../../server/logging';
import { LICENSE_KEY_FILE } from '../../server/services/licenseKey';
import { createLicenseService, payloadText } from '../../server/services/licenses';
import { buildExtraApp, databases, errorBody, TestClient, uniqueEmail, useTestServer, type TestServer } from './harness';

/** docs/license-file.md's verification, step by step: the payload's exact bytes, then its fields. */
function verifyLicense(file: LicenseFile, key: LicensePublicKey, nowSeconds = Math.floor(Date.now() / 1000)): LicensePayload | null {
  if (file.format !== 'sage-license/1' || file.algorithm !== 'Ed25519' || file.keyId !== key.keyId) return null;
  const publicKey = createPublicKey(key.publicKeyPem);
  if (!verify(null, Buffer.from(file.payload, 'utf8'), publicKey, Buffer.from(file.signature, 'base64'))) return null;
  const payload = licensePayloadSchema.parse(JSON.parse(file.payload));
  if (payload.product !== 'sage' || nowSeconds >= payload.expiresAt) return null;
  return payload;
}

/** The raw 32-byte form (what libsodium takes) as a Node key. */
const rawKey = (base64: string): KeyObject =>
  createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(base64, 'base64').toString('base64url') }, format: 'jwk' });

const publicKeyOf = async (client: TestClient): Promise<LicensePublicKey> => {
  const response = await client.get('/api/license/public-key');
  expect(response.statusCode).toBe(200);
  return licensePublicKeySchema.parse(response.json());
};

async function signedIn(server: TestServer): Promise<{ client: TestClient; id: string }> {
  const client = server.client();
  await client.register(uniqueEmail('licensee'));
  return { client, id: (await client.get('/api/user')).json<{ id: string }>().id };
}

const tmpDirs: string[] = [];
function tmpDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-license-'));
  tmpDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of tmpDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(databases)('license files on $label', (database) => {
  const server = useTestServer(database);

  async function withApp<T>(
    env: Record<string, string>,
    run: (client: TestClient, app: SageApp) => Promise<T>,
    deps: Partial<AppDeps> = {},
  ): Promise<T> {
    const app = await buildExtraApp(server().db, env, deps);
    try {
      return await run(new TestClient(app), app);
    } finally {
      await app.close();
    }
  }

  it('downloads a file that verifies with the public key, and whose payload says who it is for', async () => {
    const { client, id } = await signedIn(server());
    const before = Math.floor(Date.now() / 1000);
    const response = await client.get(`/api/sage/${id}/license?download=true`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="sage-license-${id}.json"`);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
    const file = licenseFileSchema.parse(response.json());
    expect(file).toMatchObject({ format: 'sage-license/1', algorithm: 'Ed25519' });

    const key = await publicKeyOf(server().client());
    expect(file.keyId).toBe(key.keyId);
    const payload = verifyLicense(file, key);
    const row = await server().db.selectFrom('users').select('license_token').where('id', '=', id).executeTakeFirstOrThrow();
    expect(payload).toEqual({
      userId: id,
      licenseToken: row.license_token,
      product: 'sage',
      issuedAt: expect.any(Number),
      expiresAt: expect.any(Number),
      subscriptionStatus: null,
    });
    expect(payload!.issuedAt).toBeGreaterThanOrEqual(before);
    expect(payload!.issuedAt).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(payload!.expiresAt - payload!.issuedAt).toBe(LICENSE_VALIDITY_DAYS * 86_400);
    // The raw key verifies the same bytes (the plugin's libsodium path).
    expect(verify(null, Buffer.from(file.payload), rawKey(key.publicKeyBase64), Buffer.from(file.signature, 'base64'))).toBe(true);
    // Past its expiry the file is refused even though the signature holds.
    expect(verifyLicense(file, key, payload!.expiresAt)).toBeNull();
  });

  it('rejects a file whose payload or signature was changed', async () => {
    const { client, id } = await signedIn(server());
    const file = licenseFileSchema.parse((await client.get(`/api/sage/${id}/license?download=true`)).json());
    const key = await publicKeyOf(client);
    expect(verifyLicense(file, key)).not.toBeNull();

    const payload = JSON.parse(file.payload) as LicensePayload;
    const otherToken = JSON.stringify({ ...payload, licenseToken: `${payload.licenseToken.slice(0, -1)}X` });
    expect(verifyLicense({ ...file, payload: otherToken }, key)).toBeNull();
    // Even the same fields re-serialized differently are other bytes.
    expect(verifyLicense({ ...file, payload: JSON.stringify(payload, null, 1) }, key)).toBeNull();
    const signature = Buffer.from(file.signature, 'base64');
    signature[10] = (signature[10] ?? 0) ^ 0x01;
    expect(verifyLicense({ ...file, signature: signature.toString('base64') }, key)).toBeNull();
    // A key of someone else's does not verify ours.
    const stranger = generateKeyPairSync('ed25519').publicKey;
    expect(verify(null, Buffer.from(file.payload), stranger, Buffer.from(file.signature, 'base64'))).toBe(false);
  });

  it("gives the plugin its user's file for the license token, and nothing for a wrong one", async () => {
    const { id } = await signedIn(server());
    const user = await server().db.selectFrom('users').select('license_token').where('id', '=', id).executeTakeFirstOrThrow();
    const plugin = server().client();
    const response = await plugin.get('/api/license', { headers: { authorization: `Bearer ${user.license_token}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(verifyLicense(licenseFileSchema.parse(response.json()), await publicKeyOf(plugin))).toMatchObject({
      userId: id,
      licenseToken: user.license_token,
    });
    for (const authorization of [undefined, 'Bearer not-a-token', `Basic ${user.license_token}`]) {
      const refused = await plugin.get('/api/license', authorization ? { headers: { authorization } } : {});
      expect(refused.statusCode).toBe(401);
    }
  });

  it('answers the same file inline without download=true', async () => {
    const { client, id } = await signedIn(server());
    const response = await client.get(`/api/sage/${id}/license`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
    expect(verifyLicense(licenseFileSchema.parse(response.json()), await publicKeyOf(client))?.userId).toBe(id);
  });

  it('is for the user themself and for admins: 401 signed out, 403 for another user', async () => {
    const owner = await signedIn(server());
    const other = await signedIn(server());
    const url = `/api/sage/${owner.id}/license?download=true`;

    const signedOut = await server().client().get(url);
    expect(signedOut.statusCode).toBe(401);
    expect(errorBody(signedOut)).toEqual({ error: 'unauthorized', message: 'Authentication required' });
    const stranger = await other.client.get(url);
    expect(stranger.statusCode).toBe(403);
    expect(errorBody(stranger)).toEqual({ error: 'forbidden', message: 'Admins only' });
    // A stranger learns nothing about which ids exist.
    expect((await other.client.get('/api/sage/no-such-user/license')).statusCode).toBe(403);

    expect((await owner.client.get(url)).statusCode).toBe(200);
    await server().db.updateTable('users').set({ is_admin: 1 }).where('id', '=', other.id).execute();
    const admin = await other.client.get(url);
    expect(admin.statusCode).toBe(200);
    expect(verifyLicense(licenseFileSchema.parse(admin.json()), await publicKeyOf(other.client))?.userId).toBe(owner.id);
  });

  it('answers 404 for an unknown user or product, and 400 for a malformed request', async () => {
    const admin = await signedIn(server());
    await server().db.updateTable('users').set({ is_admin: 1 }).where('id', '=', admin.id).execute();

    const unknownUser = await admin.client.get('/api/sage/00000000-0000-0000-0000-000000000000/license?download=true');
    expect(unknownUser.statusCode).toBe(404);
    expect(errorBody(unknownUser)).toEqual({ error: 'not_found', message: 'User not found' });
    for (const url of [`/api/grove/${admin.id}/license`, `/api/stripe/${admin.id}/license?download=true`]) {
      const unknownProduct = await admin.client.get(url);
      expect(unknownProduct.statusCode, url).toBe(404);
      expect(errorBody(unknownProduct), url).toEqual({ error: 'not_found', message: 'Unknown product' });
    }
    expect((await server().client().get(`/api/grove/${admin.id}/license`)).statusCode).toBe(404);

    const badQuery = await admin.client.get(`/api/sage/${admin.id}/license?download=yes`);
    expect(badQuery.statusCode).toBe(400);
    expect(errorBody(badQuery)).toEqual({ error: 'invalid_request', message: 'download must be true or false' });
    // Ids are at most 100 characters; Fastify refuses longer path parameters.
    expect((await admin.client.get(`/api/sage/${'a'.repeat(100)}/license`)).statusCode).toBe(404);
    expect((await admin.client.get(`/api/sage/${'a'.repeat(101)}/license`)).statusCode).toBe(414);
  });

  it('publishes the public key as PEM and as the raw 32 bytes, named by keyId', async () => {
    const response = await server().client().get('/api/license/public-key');
    expect(response.statusCode).toBe(200);
    const key = licensePublicKeySchema.parse(response.json());
    expect(key.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(Buffer.from(key.publicKeyBase64, 'base64')).toHaveLength(32);
    expect(key.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(rawKey(key.publicKeyBase64).export({ type: 'spki', format: 'pem' })).toBe(key.publicKeyPem);
  });

  it('generates the key once into DATA_DIR (mode 0600) and reuses it on the next start', async () => {
    const dataDir = tmpDataDir();
    const file = path.join(dataDir, LICENSE_KEY_FILE);
    const { id, first } = await withApp({ DATA_DIR: dataDir }, async (client) => {
      await client.register(uniqueEmail('restart'));
      const me = (await client.get('/api/user')).json<{ id: string }>();
      return {
        id: me.id,
        first: { key: await publicKeyOf(client), file: licenseFileSchema.parse((await client.get(`/api/sage/${me.id}/license`)).json()) },
      };
    });
    expect(fs.existsSync(file)).toBe(true);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const pem = fs.readFileSync(file, 'utf8');

    const second = await withApp({ DATA_DIR: dataDir }, (client) => publicKeyOf(client));
    expect(second).toEqual(first.key);
    expect(fs.readFileSync(file, 'utf8')).toBe(pem);
    expect(verifyLicense(first.file, second)?.userId).toBe(id);
    // The suite's own app keeps its key in its DATA_DIR too.
    expect(fs.existsSync(path.join(server().config.dataDir, LICENSE_KEY_FILE))).toBe(true);
  });

  it('refuses to start over a damaged key file instead of replacing it', async () => {
    const dataDir = tmpDataDir();
    const file = path.join(dataDir, LICENSE_KEY_FILE);
    fs.writeFileSync(file, 'not a key');
    await expect(buildExtraApp(server().db, { DATA_DIR: dataDir })).rejects.toThrow(
      /license-signing-key\.pem: expected an Ed25519 private key/,
    );
    expect(fs.readFileSync(file, 'utf8')).toBe('not a key');
  });

  it('signs with LICENSE_SIGNING_KEY when it is set (PEM, escaped PEM or base64), writing no key file', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const der = privateKey.export({ type: 'pkcs8', format: 'der' });
    const expected = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    for (const value of [pem, pem.trim().replace(/\n/g, '\\n'), Buffer.from(pem).toString('base64'), der.toString('base64')]) {
      const dataDir = tmpDataDir();
      await withApp({ DATA_DIR: dataDir, LICENSE_SIGNING_KEY: value }, async (client) => {
        const key = await publicKeyOf(client);
        expect(key.publicKeyPem).toBe(expected);
        await client.register(uniqueEmail('configured'));
        const me = (await client.get('/api/user')).json<{ id: string }>();
        const file = licenseFileSchema.parse((await client.get(`/api/sage/${me.id}/license`)).json());
        expect(verify(null, Buffer.from(file.payload), publicKey, Buffer.from(file.signature, 'base64'))).toBe(true);
      });
      expect(fs.existsSync(path.join(dataDir, LICENSE_KEY_FILE))).toBe(false);
    }
  });

  it('warns in production when the key is not configured, and never logs the key', async () => {
    const run = async (env: Record<string, string>) => {
      const lines: string[] = [];
      const stream = { write: (line: string) => void lines.push(line) };
      await withApp({ NODE_ENV: 'production', DATA_DIR: tmpDataDir(), ...env }, async () => undefined, {
        logger: loggerOptions('info', stream),
      });
      return lines.join('');
    };
    const generated = await run({});
    expect(generated).toContain('generated the license signing key');
    expect(generated).toContain('LICENSE_SIGNING_KEY is not set');
    expect(generated).not.toContain('PRIVATE KEY');
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const configured = await run({ LICENSE_SIGNING_KEY: pem });
    expect(configured).not.toContain('LICENSE_SIGNING_KEY');
    expect(configured).not.toContain('PRIVATE KEY');
  });

  it("puts the user's live subscription status in the payload", async () => {
    const { id } = await signedIn(server());
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const licenses = createLicenseService({
      db: server().db,
      audit: { record: async () => undefined },
      signingKey: privateKey,
      subscriptionSummary: async (userId) =>
        userId === id ? { status: 'trialing', productName: 'Sage Pro', currentPeriodEnd: null, trialEnd: null } : null,
      now: () => Date.UTC(2026, 0, 1),
    });
    const file = await licenses.licenseFile(id);
    expect(verify(null, Buffer.from(file.payload), publicKey, Buffer.from(file.signature, 'base64'))).toBe(true);
    expect(JSON.parse(file.payload)).toMatchObject({
      userId: id,
      subscriptionStatus: 'trialing',
      issuedAt: 1767225600,
      expiresAt: 1767225600 + 30 * 86_400,
    });
    await expect(licenses.licenseFile('nobody')).rejects.toMatchObject({ statusCode: 404, code: 'not_found', message: 'User not found' });
  });
});

describe('license payload text', () => {
  it('is printable ASCII that parses back to the same payload', () => {
    const payload: LicensePayload = {
      userId: 'é-😀-\u2028-\u007f',
      licenseToken: 'tok"\\\n',
      product: 'sage',
      issuedAt: 1,
      expiresAt: 2,
      subscriptionStatus: null,
    };
    const text = payloadText(payload);
    expect(text).toMatch(/^[\x20-\x7e]*$/);
    expect(JSON.parse(text)).toEqual(payload);
    expect(Object.keys(JSON.parse(text) as object)).toEqual([
      'userId',
      'licenseToken',
      'product',
      'issuedAt',
      'expiresAt',
      'subscriptionStatus',
    ]);
  });
});
