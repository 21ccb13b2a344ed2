import { randomUUID } from 'node:crypto';
import { VERIFY_LINK_MESSAGES } from '../../contract/emailVerification';
import { staffRoleOf, type StaffRole } from '../../contract/staffRoles';
import { ACCOUNT_SUSPENDED, isSuspended } from '../../contract/suspension';
import { ACCOUNT_EXISTS_MESSAGE, type CurrentUser } from '../../contract/user';
import type { Db } from '../db';
import type { UsersTable } from '../db/schema';
import { conflict, forbidden } from '../errors';
import { burnPasswordCheck, hashPassword, verifyPassword, type ScryptCost } from './passwords';
import { hashToken, newToken } from './tokens';

/** A user as the services hand it out: the HTTP layer names this, never a table of db/. */
export type User = UsersTable;

/** 403 `account_suspended`: what a suspended account's sign-ins and tokens are answered (decision 029). */
export const accountSuspended = () => forbidden(ACCOUNT_SUSPENDED.error, ACCOUNT_SUSPENDED.message);

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A readable default username for an e-mail account: the part before the @. */
export function usernameFromEmail(email: string): string {
  return email.split('@')[0] || email;
}

/** A stored user's role in the console (contract/staffRoles.ts); null for anyone who is not an admin. */
export const staffRoleOfUser = (row: Pick<UsersTable, 'is_admin' | 'staff_role'>): StaffRole | null =>
  staffRoleOf(row.is_admin === 1, row.staff_role);

export function toCurrentUser(row: UsersTable): CurrentUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    status: row.status,
    isAdmin: row.is_admin === 1,
    staffRole: staffRoleOfUser(row),
    // Sent only while it holds, so every other account's answer stays as it was.
    ...(row.password_change_required === 1 ? { passwordChangeRequired: true as const } : {}),
  };
}

const EMAIL_TAKEN = ACCOUNT_EXISTS_MESSAGE;
const EPIC_ACCOUNT_LINKED = VERIFY_LINK_MESSAGES.epicAccountLinked;

/** True when `err` is a unique-index clash, in PostgreSQL's or SQLite's words. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint/i.test(e?.message ?? '');
}

export function createUserService(db: Db, scryptCost?: ScryptCost) {
  const service = {
    /** `trx`, here and below: within the caller's transaction. */
    async findByEmail(email: string, trx: Db = db): Promise<UsersTable | undefined> {
      return trx.selectFrom('users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
    },

    /**
     * Registers a legacy e-mail account, refusing an e-mail that already has one, and runs `then`
     * (the first session) in the same transaction: an account exists only with it. The password is
     * hashed before the transaction starts (scrypt is slow on purpose; SQLite's one connection would wait).
     */
    async registerWithPassword<T>(email: string, password: string, then: (user: UsersTable, trx: Db) => Promise<T>): Promise<T> {
      const normalized = normalizeEmail(email);
      if (await service.findByEmail(normalized)) throw conflict('email_taken', EMAIL_TAKEN);
      const passwordHash = await hashPassword(password, scryptCost);
      const now = Date.now();
      const row: UsersTable = {
        id: randomUUID(),
        username: usernameFromEmail(normalized),
        email: normalized,
        email_verified_at: null,
        password_hash: passwordHash,
        status: 'Active',
        is_admin: 0,
        license_token: newToken(),
        epic_account_id: null,
        epic_display_name: null,
        created_at: now,
        updated_at: now,
        last_sign_in_at: null,
        last_sign_in_method: null,
      };
      return db.transaction().execute(async (trx) => {
        try {
          await trx.insertInto('users').values(row).execute();
        } catch (err) {
          // Two registrations racing for one e-mail: the unique index decides.
          if (isUniqueViolation(err)) throw conflict('email_taken', EMAIL_TAKEN);
          throw err;
        }
        return then(row, trx);
      });
    },

    /**
     * The plugin's (and the AI service's, on its behalf) proof of who the user is. A suspended
     * user's token proves nothing: http/sessionCookie.ts licenseTokenRefusal says why.
     */
    async findByLicenseToken(token: string): Promise<UsersTable | undefined> {
      const user = await db.selectFrom('users').selectAll().where('license_token', '=', token).executeTakeFirst();
      return user && !isSuspended(user.status) ? user : undefined;
    },

    /** True when `token` is the license token of a suspended user. */
    async isSuspendedLicenseToken(token: string): Promise<boolean> {
      const row = await db.selectFrom('users').select('status').where('license_token', '=', token).executeTakeFirst();
      return row !== undefined && isSuspended(row.status);
    },

    /** True when `token` was a license token an admin replaced (only its hash is kept). */
    async isRevokedLicenseToken(token: string): Promise<boolean> {
      const row = await db
        .selectFrom('revoked_license_tokens')
        .select('token_hash')
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Whether the user the AI service names exists; 403 `account_suspended` when they are suspended:
     * nothing is stored or metered on a suspended account's behalf (issue 26).
     */
    async exists(id: string): Promise<boolean> {
      const row = await db.selectFrom('users').select('status').where('id', '=', id).executeTakeFirst();
      if (row && isSuspended(row.status)) throw accountSuspended();
      return row !== undefined;
    },

    async findByEpicAccount(epicAccountId: string, trx: Db = db): Promise<UsersTable | undefined> {
      return trx.selectFrom('users').selectAll().where('epic_account_id', '=', epicAccountId).executeTakeFirst();
    },

    /** Keeps the Epic display name current; it can change at Epic between sign-ins. */
    async recordEpicDisplayName(userId: string, displayName: string, trx: Db = db): Promise<void> {
      await trx.updateTable('users').set({ epic_display_name: displayName, updated_at: Date.now() }).where('id', '=', userId).execute();
    },

    /**
     * Creates the account of an Epic user whose e-mail has just been verified. When the Epic
     * account already has one with this e-mail (another tab finished first), that account is
     * returned; with another e-mail, 409. `trx`: within the caller's transaction.
     */
    async createEpicUser(input: { email: string; epicAccountId: string; displayName: string }, trx: Db = db): Promise<UsersTable> {
      const email = normalizeEmail(input.email);
      // Only that account with this very address: a tab that linked another one has linked nothing.
      const sameAccount = (user: UsersTable) => {
        if (user.email !== email) throw conflict('epic_account_linked', EPIC_ACCOUNT_LINKED);
        return user;
      };
      const existing = await service.findByEpicAccount(input.epicAccountId, trx);
      if (existing) return sameAccount(existing);
      const owner = await service.findByEmail(email, trx);
      // Created by the other tab between the two look-ups.
      if (owner?.epic_account_id === input.epicAccountId) return owner;
      if (owner) throw conflict('email_taken', EMAIL_TAKEN);
      const now = Date.now();
      const row: UsersTable = {
        id: randomUUID(),
        username: input.displayName,
        email,
        email_verified_at: now,
        password_hash: null,
        status: 'Active',
        is_admin: 0,
        license_token: newToken(),
        epic_account_id: input.epicAccountId,
        epic_display_name: input.displayName,
        created_at: now,
        updated_at: now,
        last_sign_in_at: null,
        last_sign_in_method: null,
      };
      // A clash on a unique index is no error here: PostgreSQL would abort the caller's transaction.
      const inserted = await trx
        .insertInto('users')
        .values(row)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return row;
      const raced = await service.findByEpicAccount(input.epicAccountId, trx);
      if (raced) return sameAccount(raced);
      throw conflict('email_taken', EMAIL_TAKEN);
    },

    /**
     * The user whose e-mail and password match, else null; takes as long either way. A suspended
     * account is refused (403) only once its password matched: strangers learn nothing of it.
     */
    async authenticate(email: string, password: string): Promise<UsersTable | null> {
      const user = await service.findByEmail(email);
      if (!user?.password_hash) {
        await burnPasswordCheck(password, scryptCost);
        return null;
      }
      if (!(await verifyPassword(password, user.password_hash))) return null;
      if (isSuspended(user.status)) throw accountSuspended();
      return user;
    },

    async setPassword(userId: string, password: string): Promise<void> {
      await service.setPasswordHash(userId, await service.passwordHash(password));
    },

    /** The hash to store for `password` (scrypt: slow on purpose, so kept out of transactions). */
    passwordHash: (password: string): Promise<string> => hashPassword(password, scryptCost),

    /**
     * Stores a hash made by `passwordHash`; `trx`: within the caller's transaction. A one-time
     * password is gone once any other is set (its owner's change or reset, an operator's).
     */
    async setPasswordHash(userId: string, passwordHash: string, trx: Db = db): Promise<void> {
      await trx
        .updateTable('users')
        .set({ password_hash: passwordHash, password_change_required: 0, updated_at: Date.now() })
        .where('id', '=', userId)
        .execute();
    },

    /**
     * Replaces the password hash only if it is still `expected` (the one the caller checked the
     * current password against): of two changes at once, one wins. Answers whether it did.
     */
    async replacePasswordHash(userId: string, expected: string, passwordHash: string, trx: Db = db): Promise<boolean> {
      const result = await trx
        .updateTable('users')
        .set({ password_hash: passwordHash, password_change_required: 0, updated_at: Date.now() })
        .where('id', '=', userId)
        .where('password_hash', '=', expected)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Makes the e-mail's account a member of staff with `role` (`create-admin --role`). A new account
     * gets `password`; an existing one keeps its password unless `password` is given. A new account
     * given none gets `generated()`, a one-time password: it must set its own at its first sign-in.
     */
    async ensureAdmin(email: string, password: string | undefined, generated: () => string, role: StaffRole = 'admin') {
      const staff = { is_admin: 1, staff_role: role };
      const existing = await service.findByEmail(email);
      if (existing) {
        if (password) await service.setPassword(existing.id, password);
        await db
          .updateTable('users')
          .set({ ...staff, updated_at: Date.now() })
          .where('id', '=', existing.id)
          .execute();
        return { user: { ...existing, ...staff }, created: false, password };
      }
      const initial = password ?? generated();
      const oneTime = password === undefined ? 1 : 0;
      // Created an admin in one transaction: never an ordinary account with the admin's password.
      const user = await service.registerWithPassword(email, initial, async (row, trx) => {
        await trx
          .updateTable('users')
          .set({ ...staff, password_change_required: oneTime })
          .where('id', '=', row.id)
          .execute();
        return row;
      });
      return { user: { ...user, ...staff, password_change_required: oneTime }, created: true, password: initial };
    },
  };
  return service;
}

export type UserService = ReturnType<typeof createUserService>;
