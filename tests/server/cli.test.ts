import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../server/cli';
import { openDatabase } from '../../server/db';
import { verifyPassword } from '../../server/services/passwords';

describe('operator CLI', () => {
  let dataDir: string;
  let output: string[];
  const out = (line: string) => output.push(line);

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-cli-'));
    process.env.DATA_DIR = dataDir;
    delete process.env.DATABASE_URL;
    output = [];
  });
  afterEach(() => {
    delete process.env.DATA_DIR;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function userRow(email: string) {
    const db = openDatabase({ dataDir });
    try {
      return await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    } finally {
      await db.destroy();
    }
  }

  it('creates an admin with a printed one-time password that signs in', async () => {
    expect(await runCli(['create-admin', '--email', 'Boss@Example.com'], out)).toBe(0);
    const printed = output.join('\n').match(/One-time password \(shown only now\): (\S+)/)?.[1];
    expect(printed).toBeTruthy();
    const user = await userRow('boss@example.com');
    expect(user?.is_admin).toBe(1);
    expect(await verifyPassword(printed!, user!.password_hash!)).toBe(true);
    // STAFF_SECOND_FACTOR is required by default: the console will ask for a second factor first.
    expect(output.join('\n')).toMatch(/Before opening the console, the account must set up a second factor/);
  });

  it('says nothing of a second factor when STAFF_SECOND_FACTOR=optional (a development machine)', async () => {
    process.env.STAFF_SECOND_FACTOR = 'optional';
    try {
      expect(await runCli(['create-admin', '--email', 'dev@example.com'], out)).toBe(0);
    } finally {
      delete process.env.STAFF_SECOND_FACTOR;
    }
    expect(output.join('\n')).not.toMatch(/second factor/);
  });

  it('promotes an existing account without touching its password', async () => {
    await runCli(['create-admin', '--email', 'a@example.com', '--password', 'first-password'], out);
    const before = await userRow('a@example.com');
    await runCli(['create-admin', '--email', 'a@example.com'], out);
    const after = await userRow('a@example.com');
    expect(after?.password_hash).toBe(before?.password_hash);
    expect(output).toContain('a@example.com is now an admin.');
    expect(output.join('\n')).not.toMatch(/One-time password/);
  });

  it('gives the role asked for: support, then admin; an unknown role changes nothing', async () => {
    expect(await runCli(['create-admin', '--email', 'help@example.com', '--password', 'first-password', '--role', 'support'], out)).toBe(0);
    expect(output).toContain('Created support help@example.com.');
    expect(await userRow('help@example.com')).toMatchObject({ is_admin: 1, staff_role: 'support' });

    await expect(runCli(['create-admin', '--email', 'help@example.com', '--role', 'owner'], out)).rejects.toThrow(
      'create-admin --role must be one of: admin, support',
    );
    expect(await userRow('help@example.com')).toMatchObject({ is_admin: 1, staff_role: 'support' });

    expect(await runCli(['create-admin', '--email', 'help@example.com', '--role', 'admin'], out)).toBe(0);
    expect(output).toContain('help@example.com is now an admin.');
    expect(await userRow('help@example.com')).toMatchObject({ is_admin: 1, staff_role: 'admin' });
  });

  async function sessionsOf(email: string) {
    const db = openDatabase({ dataDir });
    try {
      return await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select('sessions.token_hash')
        .where('users.email', '=', email)
        .execute();
    } finally {
      await db.destroy();
    }
  }

  async function addSession(email: string, tokenHash: string) {
    const db = openDatabase({ dataDir });
    try {
      const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      const now = Date.now();
      await db
        .insertInto('sessions')
        .values({ token_hash: tokenHash, user_id: user.id, persistent: 1, created_at: now, last_seen_at: now, expires_at: now + 60_000 })
        .execute();
    } finally {
      await db.destroy();
    }
  }

  it('ends every session of an existing account when --password sets a new one', async () => {
    await runCli(['create-admin', '--email', 'a@example.com', '--password', 'first-password'], out);
    await addSession('a@example.com', 'laptop');
    await addSession('a@example.com', 'phone');

    // Promoting without a new password leaves the sessions alone.
    await runCli(['create-admin', '--email', 'a@example.com'], out);
    expect(await sessionsOf('a@example.com')).toHaveLength(2);

    output = [];
    expect(await runCli(['create-admin', '--email', 'a@example.com', '--password', 'second-password'], out)).toBe(0);
    expect(await sessionsOf('a@example.com')).toEqual([]);
    expect(output).toContain('Password changed; every session of a@example.com has been ended.');
    const user = await userRow('a@example.com');
    expect(await verifyPassword('second-password', user!.password_hash!)).toBe(true);
  });

  it('refuses a bad e-mail or a short password', async () => {
    await expect(runCli(['create-admin', '--email', 'nope'], out)).rejects.toThrow(/valid e-mail/);
    await expect(runCli(['create-admin', '--email', 'a@example.com', '--password', 'short'], out)).rejects.toThrow(/at least 8 characters/);
  });

  it('releases a build that becomes the current one, and queues its release e-mails', async () => {
    // A user who asked for release e-mails (issue 41): the CLI's release queues theirs too.
    expect(await runCli(['create-admin', '--email', 'reader@example.com', '--password', 'reader-password'], out)).toBe(0);
    const setup = openDatabase({ dataDir });
    await setup.updateTable('users').set({ release_emails: 1, email_verified_at: Date.now() }).execute();
    await setup.destroy();
    const code = await runCli(
      [
        'release-build',
        '--version',
        '2026-02-01',
        '--ue55',
        'https://dl.test/5.5.zip',
        '--ue56',
        'https://dl.test/5.6.zip',
        '--ue57',
        'https://dl.test/5.7.zip',
      ],
      out,
    );
    expect(code).toBe(0);
    expect(output).toContain('Sage build 2026-02-01 released successfully');
    const db = openDatabase({ dataDir });
    const row = await db.selectFrom('sage_builds').selectAll().executeTakeFirst();
    const queued = await db.selectFrom('release_mails').select(['build_id', 'sent_at']).execute();
    await db.destroy();
    expect(row).toMatchObject({ version: '2026-02-01', ue57_url: 'https://dl.test/5.7.zip', ue54_url: '' });
    expect(queued).toEqual([{ build_id: row!.id, sent_at: null }]);
  });

  it('answers an unknown command with the help text and a failing exit code', async () => {
    expect(await runCli(['frobnicate'], out)).toBe(1);
    expect(output.join('\n')).toMatch(/Unknown command: frobnicate[\s\S]*create-admin/);
  });

  it('seeds demo users, stored messages and AI threads', async () => {
    expect(await runCli(['seed-demo', '--users', '30', '--messages', '45'], out)).toBe(0);
    expect(output.at(-1)).toMatch(/^Seeded 30 users, 45 stored messages and \d+ AI threads\.$/);
    const db = openDatabase({ dataDir });
    try {
      const count = async (table: 'users' | 'stored_messages' | 'ai_threads') =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await count('users')).toBe(30);
      expect(await count('stored_messages')).toBe(45);
      expect(await count('ai_threads')).toBeGreaterThan(0);
    } finally {
      await db.destroy();
    }
    await expect(runCli(['seed-demo', '--users', 'many'], out)).rejects.toThrow('--users must be a number');
  });

  it('releases a build under its short name too, and records it in the audit log', async () => {
    const urls = [
      '--ue55',
      'https://cdn.example.com/5.5.zip',
      '--ue56',
      'https://cdn.example.com/5.6.zip',
      '--ue57',
      'https://cdn.example.com/5.7.zip',
    ];
    expect(await runCli(['release', '--version', '2026-02-02a', ...urls], out)).toBe(0);
    expect(output.at(-1)).toBe('Sage build 2026-02-02a released successfully');
    const db = openDatabase({ dataDir });
    try {
      const entry = await db.selectFrom('audit_log').selectAll().executeTakeFirstOrThrow();
      expect(entry).toMatchObject({ action: 'build.release', actor_id: null, target_id: '2026-02-02a' });
    } finally {
      await db.destroy();
    }
  });

  it('releases with notes from a file and Required update, then withdraws the build with a reason, both audited', async () => {
    const urls = [
      '--ue55',
      'https://cdn.example.com/5.5.zip',
      '--ue56',
      'https://cdn.example.com/5.6.zip',
      '--ue57',
      'https://cdn.example.com/5.7.zip',
    ];
    const notesFile = path.join(dataDir, 'notes.md');
    fs.writeFileSync(notesFile, '## Fixes\n\n- Faster answers\n');
    expect(await runCli(['release', '--version', '1.4.0', ...urls, '--notes-file', notesFile, '--required'], out)).toBe(0);
    expect(output.at(-1)).toBe('Sage build 1.4.0 released successfully');
    expect(await runCli(['withdraw', '--version', '1.4.0', '--reason', 'Crashes on start'], out)).toBe(0);
    expect(output.at(-1)).toBe('Sage build 1.4.0 withdrawn');

    const db = openDatabase({ dataDir });
    try {
      const row = await db.selectFrom('sage_builds').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        version: '1.4.0',
        notes: '## Fixes\n\n- Faster answers\n',
        required: 1,
        withdraw_reason: 'Crashes on start',
      });
      expect(row.withdrawn_at).not.toBeNull();
      const entries = await db.selectFrom('audit_log').select(['action', 'actor_id', 'target_id']).orderBy('created_at').execute();
      expect(entries).toEqual([
        { action: 'build.release', actor_id: null, target_id: '1.4.0' },
        { action: 'build.withdraw', actor_id: null, target_id: '1.4.0' },
      ]);
    } finally {
      await db.destroy();
    }

    // Without a reason, or a version never released: refused, nothing written.
    await expect(runCli(['withdraw', '--version', '1.4.0'], out)).rejects.toThrow('Say why the build is withdrawn');
    await expect(runCli(['withdraw', '--reason', 'Broken'], out)).rejects.toThrow('withdraw needs --version');
    await expect(runCli(['withdraw', '--version', '9.9.9', '--reason', 'Broken'], out)).rejects.toThrow('No build 9.9.9 was released');
    await expect(runCli(['release', '--version', '1.5.0', ...urls, '--notes-file', path.join(dataDir, 'missing.md')], out)).rejects.toThrow(
      /ENOENT/,
    );
  });

  it('backs up the SQLite database while it is in use, and never overwrites a file', async () => {
    await runCli(['create-admin', '--email', 'kept@example.com', '--password', 'kept-password'], out);
    // The server's connection stays open (and has written) while the copy is made.
    const running = openDatabase({ dataDir });
    try {
      await running.updateTable('users').set({ username: 'still-running' }).where('email', '=', 'kept@example.com').execute();
      const target = path.join(dataDir, 'backups', 'sage-copy.db');
      expect(await runCli(['backup', '--to', target], out)).toBe(0);
      expect(output.at(-1)).toMatch(/^Backed up \d+ pages to .*sage-copy\.db$/);
      const copy = openDatabase({ dataDir: path.join(dataDir, 'restore') });
      await copy.destroy();
      fs.copyFileSync(target, path.join(dataDir, 'restore', 'sage.db'));
      const restored = openDatabase({ dataDir: path.join(dataDir, 'restore') });
      try {
        const user = await restored
          .selectFrom('users')
          .select(['username', 'is_admin'])
          .where('email', '=', 'kept@example.com')
          .executeTakeFirst();
        expect(user).toEqual({ username: 'still-running', is_admin: 1 });
      } finally {
        await restored.destroy();
      }
      await expect(runCli(['backup', '--to', target], out)).rejects.toThrow(/already exists/);
    } finally {
      await running.destroy();
    }
  });

  it('refuses a backup without --to, and points PostgreSQL to pg_dump', async () => {
    await runCli(['create-admin', '--email', 'x@example.com'], out);
    await expect(runCli(['backup'], out)).rejects.toThrow('backup needs --to with the file to write');
    process.env.DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
    try {
      await expect(runCli(['backup', '--to', path.join(dataDir, 'x.db')], out)).rejects.toThrow(/pg_dump/);
    } finally {
      delete process.env.DATABASE_URL;
    }
  });
});
