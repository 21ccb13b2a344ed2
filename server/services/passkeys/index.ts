import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { MAX_PASSKEYS, PASSKEY_ERRORS, PASSKEY_MESSAGES, type Passkey } from '../../../contract/passkeys';
import type { Db } from '../../db';
import type { PasskeysTable, UsersTable } from '../../db/schema';
import { AppError, badRequest, conflict, notFound } from '../../errors';
import type { AuditService } from '../audit';
import type { Mailer } from '../mailer';
import { verifyPassword } from '../passwords';
import { hasSecondFactor, replaceRecoveryCodes } from '../secondFactor';
import { issueChallenge, purgeChallenges, takeChallenge, type IssuedChallenge } from './challenges';
import { passkeyChangedMail, type PasskeyChange } from './mail';
import { relyingPartyOf } from './relyingParty';

/**
 * Passkeys (issue 40, decision 049) through SimpleWebAuthn: adding, listing, renaming and removing
 * a password account's passkeys, and verifying a passkey's answer to a challenge, for a sign-in
 * without the password or as a password sign-in's second factor.
 */

/** EdDSA, ES256, RS256: what authenticators make. (SimpleWebAuthn's default adds ML-DSA, still experimental in Node.) */
const ALGORITHMS = [-8, -7, -257];

/** A ceremony's options for the browser, and the handle on its challenge (the browser's cookie). */
export interface Ceremony<Options> {
  options: Options;
  challenge: IssuedChallenge;
}

/** A passkey's answer that verified: whose it is. */
export interface VerifiedPasskey {
  user: UsersTable;
  passkeyId: string;
}

type Owner = Pick<UsersTable, 'id' | 'email' | 'username' | 'password_hash'>;

const refused = (status: 400 | 401) => new AppError(status, PASSKEY_ERRORS.refused, PASSKEY_MESSAGES.refused);
const expired = () => badRequest(PASSKEY_ERRORS.challengeExpired, PASSKEY_MESSAGES.challengeExpired);
const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

function listed(row: Pick<PasskeysTable, 'id' | 'name' | 'device_type' | 'created_at' | 'last_used_at'>): Passkey {
  return {
    id: row.id,
    name: row.name,
    synced: row.device_type === 'multiDevice',
    createdAt: new Date(Number(row.created_at)).toISOString(),
    lastUsedAt: iso(row.last_used_at),
  };
}

const transportsOf = (text: string | null): string[] | undefined => (text === null ? undefined : (JSON.parse(text) as string[]));

export function createPasskeyService(deps: {
  db: Db;
  audit: AuditService;
  mailer: Mailer;
  publicUrl: string;
  onMailError: (err: unknown) => void;
}) {
  const { db, audit, mailer } = deps;
  const rp = relyingPartyOf(deps.publicUrl);

  /** Passkeys are for password accounts: an Epic account signs in with Epic's own security. */
  function requirePassword(user: Owner): string {
    if (user.password_hash === null) throw conflict(PASSKEY_ERRORS.noPassword, PASSKEY_MESSAGES.noPassword);
    return user.password_hash;
  }

  function tell(user: Owner, change: PasskeyChange, name: string) {
    if (!user.email) return;
    const mail = passkeyChangedMail(change, name, `${deps.publicUrl}/dashboard#account`, `${deps.publicUrl}/login`);
    mailer.send({ to: user.email, ...mail }).catch(deps.onMailError);
  }

  async function credentialsOf(userId: string) {
    return db.selectFrom('passkeys').select(['id', 'transports']).where('user_id', '=', userId).execute();
  }

  return {
    relyingParty: rp,

    /** The user's passkeys, newest first. */
    async list(userId: string): Promise<Passkey[]> {
      const rows = await db
        .selectFrom('passkeys')
        .select(['id', 'name', 'device_type', 'created_at', 'last_used_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.map(listed);
    },

    /** How many passkeys the user has (a second factor when one or more). */
    async count(userId: string): Promise<number> {
      const { total } = await db
        .selectFrom('passkeys')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(total);
    },

    /**
     * Options to make a passkey for the signed-in password account: a discoverable credential
     * (it signs in without the e-mail typed), none the account has already.
     */
    async registrationOptions(user: Owner): Promise<Ceremony<PublicKeyCredentialCreationOptionsJSON>> {
      requirePassword(user);
      const existing = await credentialsOf(user.id);
      if (existing.length >= MAX_PASSKEYS) throw conflict(PASSKEY_ERRORS.limit, PASSKEY_MESSAGES.limit);
      const label = user.email ?? user.username;
      const options = await generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: label,
        userDisplayName: label,
        // The account's random id: the same for each of its passkeys, so an authenticator keeps one
        // passkey per account, and no personal data.
        userID: new TextEncoder().encode(user.id),
        attestationType: 'none',
        excludeCredentials: existing.map((c) => ({ id: c.id, transports: transportsOf(c.transports) })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
        supportedAlgorithmIDs: ALGORITHMS,
      });
      const challenge = await issueChallenge(db, 'register', user.id, options.challenge);
      return { options, challenge };
    },

    /**
     * Verifies the browser's new passkey against the challenge of `challengeToken` (single use) and
     * keeps it under `name`; audited, and the owner is mailed. The account's first second factor
     * (no authenticator app, no other passkey) comes with ten recovery codes, answered to show once.
     */
    async add(
      user: Owner,
      challengeToken: string | undefined,
      name: string,
      response: RegistrationResponseJSON,
    ): Promise<{ passkey: Passkey; recoveryCodes?: string[] }> {
      requirePassword(user);
      const expectedChallenge = await takeChallenge(db, challengeToken, 'register', user.id);
      if (expectedChallenge === null) throw expired();
      let verified;
      try {
        verified = await verifyRegistrationResponse({
          response,
          expectedChallenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          requireUserVerification: false,
          supportedAlgorithmIDs: ALGORITHMS,
        });
      } catch {
        throw refused(400);
      }
      if (!verified.verified) throw refused(400);
      const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
      const row: PasskeysTable = {
        id: credential.id,
        user_id: user.id,
        name,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ? JSON.stringify(credential.transports) : null,
        device_type: credentialDeviceType,
        backed_up: credentialBackedUp ? 1 : 0,
        created_at: Date.now(),
        last_used_at: null,
      };
      const recoveryCodes = await db.transaction().execute(async (trx) => {
        const taken = await trx.selectFrom('passkeys').select('id').where('id', '=', row.id).executeTakeFirst();
        if (taken) throw conflict(PASSKEY_ERRORS.exists, PASSKEY_MESSAGES.exists);
        const { total } = await trx
          .selectFrom('passkeys')
          .select((eb) => eb.fn.countAll<number>().as('total'))
          .where('user_id', '=', user.id)
          .executeTakeFirstOrThrow();
        if (Number(total) >= MAX_PASSKEYS) throw conflict(PASSKEY_ERRORS.limit, PASSKEY_MESSAGES.limit);
        const first = !(await hasSecondFactor(trx, user.id));
        await trx.insertInto('passkeys').values(row).execute();
        const codes = first ? await replaceRecoveryCodes(trx, user.id) : undefined;
        await audit.record(
          { id: user.id, email: user.email },
          { action: 'account.passkey.add', targetType: 'user', targetId: user.id, after: { passkey: row.id, name, recoveryCodes: first } },
          trx,
        );
        return codes;
      });
      tell(user, 'added', name);
      return recoveryCodes ? { passkey: listed(row), recoveryCodes } : { passkey: listed(row) };
    },

    /** Renames one of the user's passkeys; audited, and the owner is mailed. */
    async rename(user: Owner, id: string, name: string): Promise<Passkey> {
      const row = await db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('passkeys').selectAll().where('id', '=', id).where('user_id', '=', user.id).executeTakeFirst();
        if (!before) throw notFound(PASSKEY_MESSAGES.notFound);
        await trx.updateTable('passkeys').set({ name }).where('id', '=', id).where('user_id', '=', user.id).execute();
        await audit.record(
          { id: user.id, email: user.email },
          {
            action: 'account.passkey.rename',
            targetType: 'user',
            targetId: user.id,
            before: { passkey: id, name: before.name },
            after: { passkey: id, name },
          },
          trx,
        );
        return { ...before, name };
      });
      tell(user, 'renamed', name);
      return listed(row);
    },

    /**
     * Removes one of the user's passkeys, given the account's password; audited, and the owner is
     * mailed. The last second factor gone (no app, no other passkey), the recovery codes go too.
     */
    async remove(user: Owner, id: string, password: string): Promise<void> {
      const stored = requirePassword(user);
      if (!(await verifyPassword(password, stored))) throw badRequest(PASSKEY_ERRORS.wrongPassword, PASSKEY_MESSAGES.wrongPassword);
      const name = await db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('passkeys').select('name').where('id', '=', id).where('user_id', '=', user.id).executeTakeFirst();
        if (!row) throw notFound(PASSKEY_MESSAGES.notFound);
        const gone = await trx.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', user.id).executeTakeFirst();
        if (Number(gone.numDeletedRows) !== 1) throw notFound(PASSKEY_MESSAGES.notFound);
        if (!(await hasSecondFactor(trx, user.id))) await trx.deleteFrom('recovery_codes').where('user_id', '=', user.id).execute();
        await audit.record(
          { id: user.id, email: user.email },
          { action: 'account.passkey.remove', targetType: 'user', targetId: user.id, before: { passkey: id, name: row.name } },
          trx,
        );
        return row.name;
      });
      tell(user, 'removed', name);
    },

    /**
     * Options to sign in with a passkey, for whoever holds one: no credentials listed (the
     * authenticator offers the passkeys it keeps for this site), the user verified by it (PIN,
     * fingerprint), so the passkey stands for both the password and a second factor.
     */
    async signInOptions(): Promise<Ceremony<PublicKeyCredentialRequestOptionsJSON>> {
      const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required' });
      return { options, challenge: await issueChallenge(db, 'sign_in', null, options.challenge) };
    },

    /**
     * Options to answer a password sign-in's second factor with a passkey of `userId`: its passkeys
     * listed, user verification preferred (the password was the first factor).
     */
    async secondFactorOptions(userId: string): Promise<Ceremony<PublicKeyCredentialRequestOptionsJSON>> {
      const existing = await credentialsOf(userId);
      const options = await generateAuthenticationOptions({
        rpID: rp.id,
        userVerification: 'preferred',
        allowCredentials: existing.map((c) => ({ id: c.id, transports: transportsOf(c.transports) })),
      });
      return { options, challenge: await issueChallenge(db, 'second_factor', userId, options.challenge) };
    },

    /** The owner of the passkey a sign-in answer names, before it is verified (to count attempts against the account). */
    async ownerOf(credentialId: string): Promise<Pick<UsersTable, 'id' | 'email'> | null> {
      const row = await db
        .selectFrom('passkeys')
        .innerJoin('users', 'users.id', 'passkeys.user_id')
        .select(['users.id', 'users.email'])
        .where('passkeys.id', '=', credentialId)
        .executeTakeFirst();
      return row ?? null;
    },

    /**
     * Verifies a passkey's answer against the challenge of `challengeToken`. Without `userId`: a
     * sign-in (the challenge of `signInOptions`, any account's passkey, user verification
     * required). With it: the second factor of `userId`'s password sign-in (the challenge of
     * `secondFactorOptions(userId)`, one of that user's passkeys). The challenge is spent whatever
     * the outcome; the signature counter moves on atomically, so one answer signs in once.
     * Throws 400 `passkey_challenge_expired`, 401 `passkey_unknown` or 401 `passkey_refused`.
     */
    async verifyAssertion(
      challengeToken: string | undefined,
      response: AuthenticationResponseJSON,
      opts: { userId?: string } = {},
    ): Promise<VerifiedPasskey> {
      const purpose = opts.userId === undefined ? 'sign_in' : 'second_factor';
      const expectedChallenge = await takeChallenge(db, challengeToken, purpose, opts.userId ?? null);
      if (expectedChallenge === null) throw expired();
      const stored = await db.selectFrom('passkeys').selectAll().where('id', '=', response.id).executeTakeFirst();
      if (!stored || (opts.userId !== undefined && stored.user_id !== opts.userId)) {
        throw new AppError(401, PASSKEY_ERRORS.unknown, PASSKEY_MESSAGES.unknown);
      }
      const counter = Number(stored.counter);
      let verified;
      try {
        verified = await verifyAuthenticationResponse({
          response,
          expectedChallenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          credential: {
            id: stored.id,
            publicKey: Buffer.from(stored.public_key, 'base64url'),
            counter,
            transports: transportsOf(stored.transports),
          },
          requireUserVerification: purpose === 'sign_in',
        });
      } catch {
        throw refused(401);
      }
      // A discoverable passkey names its account too: it must be the one that registered it.
      const handle = response.response.userHandle;
      if (!verified.verified || (handle !== undefined && Buffer.from(handle, 'base64url').toString() !== stored.user_id))
        throw refused(401);
      const { newCounter, credentialBackedUp } = verified.authenticationInfo;
      // Compare-and-set: of two answers verified against the same counter, one moves it on.
      const moved = await db
        .updateTable('passkeys')
        .set({ counter: newCounter, last_used_at: Date.now(), backed_up: credentialBackedUp ? 1 : 0 })
        .where('id', '=', stored.id)
        .where('counter', '=', counter)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) throw refused(401);
      const user = await db.selectFrom('users').selectAll().where('id', '=', stored.user_id).executeTakeFirstOrThrow();
      return { user, passkeyId: stored.id };
    },

    /** Housekeeping: challenges past their five minutes. */
    purgeExpired: () => purgeChallenges(db),
  };
}

export type PasskeyService = ReturnType<typeof createPasskeyService>;
