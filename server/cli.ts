import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { releaseRequestSchema } from '../contract/admin';
import { sageBuildSchema, withdrawBuildSchema } from '../contract/builds';
import { loadConfig } from './config';
import { migrateToLatest, openDatabase } from './db';
import { backupSqlite } from './db/backup';
import { createBillingService } from './services/billing';
import { createStripeGateway } from './services/billing/stripeGateway';
import { createAuditService } from './services/audit';
import { createBuildService } from './services/builds';
import { queueReleaseMails } from './services/releaseMails';
import { seedDemoData } from './services/demoData';
import { hasSecondFactor } from './services/secondFactor';
import { createSessionService } from './services/sessions';
import { createUserService } from './services/users';
import { MIN_PASSWORD_LENGTH } from '../contract/auth';
import { STAFF_ROLES, staffRoleSchema } from '../contract/staffRoles';

const HELP = `Sage Dashboard operator commands (run as: npm run cli -- <command> [options])

  create-admin --email E [--password P] [--role admin|support]
      Makes E a member of staff who may open the console, with the role given (default admin:
      everything; support: reads everything and signs out, reissues licenses, suspends and
      reinstates, writes notes, but cannot delete users, change roles, release builds, grant or
      refund credits, or export every user). A new account is created when E has none; without --password it gets a
      generated one-time password, printed once, which the admin must replace with their own at
      their first sign-in. An existing account keeps its password unless --password is given,
      which also ends every session of that account. While STAFF_SECOND_FACTOR=required (the
      default), the account must set up a second factor before it can open the console.

  release --version V --ue55 URL --ue56 URL --ue57 URL [--ue54 URL] [--notes-file PATH] [--required]
      Makes V the build offered on the download page (also: release-build). V must be newer than
      every earlier release. --notes-file: the release notes, Markdown, read from PATH (UTF-8).
      --required: builds older than V must update.

  withdraw --version V --reason TEXT
      Withdraws build V: it leaves the download page and the update check, stays in the history,
      and installs on it are told to move. The reason is kept with it and in the audit log.

  seed-demo [--users N] [--messages M]
      Adds N fake users (default 100; the first 200 get AI chat threads) and M stored chat
      messages (default 1000) for trying the admin console or measuring it.

  backup --to FILE
      Copies the embedded SQLite database to FILE while the server runs (an online backup; a new
      file, never overwritten). With DATABASE_URL, back up PostgreSQL with pg_dump instead.

  stripe-sync
      Rebuilds the local billing mirror from Stripe: every product and price, the customers made
      for our users, and their subscriptions. Needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.

  help
      Shows this text.

The database is the one the server uses (DATABASE_URL, else the SQLite file under DATA_DIR).`;

const emailSchema = z.email({ error: 'create-admin needs --email with a valid e-mail address' });
const roleSchema = staffRoleSchema.default('admin');
const ROLE_REQUIRED = `create-admin --role must be one of: ${STAFF_ROLES.join(', ')}`;

/** Runs one command; returns the process exit code. */
export async function runCli(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    out(HELP);
    return command ? 0 : 1;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
      version: { type: 'string' },
      ue54: { type: 'string' },
      ue55: { type: 'string' },
      ue56: { type: 'string' },
      ue57: { type: 'string' },
      users: { type: 'string' },
      messages: { type: 'string' },
      to: { type: 'string' },
      'notes-file': { type: 'string' },
      required: { type: 'boolean' },
      reason: { type: 'string' },
    },
  });

  const config = loadConfig();
  if (command === 'backup') {
    if (config.databaseUrl) throw new Error('backup copies the embedded SQLite database; for PostgreSQL use pg_dump (docs/deploy.md)');
    if (!values.to) throw new Error('backup needs --to with the file to write');
    const { file, pages } = await backupSqlite(config.dataDir, values.to);
    out(`Backed up ${pages} pages to ${file}`);
    return 0;
  }
  const db = openDatabase(config);
  try {
    await migrateToLatest(db);
    switch (command) {
      case 'create-admin': {
        const email = emailSchema.parse(values.email);
        const parsedRole = roleSchema.safeParse(values.role);
        if (!parsedRole.success) throw new Error(ROLE_REQUIRED);
        const role = parsedRole.data;
        if (values.password !== undefined && values.password.length < MIN_PASSWORD_LENGTH) {
          throw new Error(`--password must be at least ${MIN_PASSWORD_LENGTH} characters`);
        }
        const users = createUserService(db);
        const result = await users.ensureAdmin(email, values.password, () => randomBytes(12).toString('base64url'), role);
        out(result.created ? `Created ${role} ${email}.` : `${email} is now ${role === 'admin' ? 'an admin' : 'support staff'}.`);
        if (!result.created && values.password !== undefined) {
          // A new password is often set because the old one leaked: whoever used it is signed out.
          const sessions = createSessionService(db, { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs });
          await sessions.endAllForUser(result.user.id);
          out(`Password changed; every session of ${email} has been ended.`);
        }
        if (result.created && values.password === undefined) {
          out(`One-time password (shown only now): ${result.password}`);
          out('It must be replaced with a password of their own at the first sign-in.');
        }
        if (config.staffSecondFactor === 'required' && !(await hasSecondFactor(db, result.user.id))) {
          // STAFF_SECOND_FACTOR (decision 046): the console refuses a password sign-in without one.
          out(
            'Before opening the console, the account must set up a second factor: two-step sign-in with an authenticator app (the console walks them through it), or sign in with Epic.',
          );
        }
        return 0;
      }
      case 'seed-demo': {
        const counts = z
          .object({
            users: z.coerce.number({ error: '--users must be a number' }).int().min(0).max(10_000_000).default(100),
            messages: z.coerce.number({ error: '--messages must be a number' }).int().min(0).max(50_000_000).default(1000),
          })
          .parse({ users: values.users, messages: values.messages });
        let reported = 0;
        const seeded = await seedDemoData(db, counts, (what, done, total) => {
          if (done === total || done - reported >= 100_000) {
            reported = done === total ? 0 : done;
            out(`  ${what}: ${done}/${total}`);
          }
        });
        out(`Seeded ${seeded.users} users, ${seeded.messages} stored messages and ${seeded.threads} AI threads.`);
        return 0;
      }
      case 'release':
      case 'release-build': {
        const build = sageBuildSchema
          .extend({
            version: z.string().min(1, 'release-build needs --version'),
            ue54Url: z.union([z.literal(''), z.url({ error: '--ue54 must be a URL' })]),
            ue55Url: z.url({ error: 'release-build needs --ue55 with a URL' }),
            ue56Url: z.url({ error: 'release-build needs --ue56 with a URL' }),
            ue57Url: z.url({ error: 'release-build needs --ue57 with a URL' }),
          })
          .parse({
            version: values.version ?? '',
            ue54Url: values.ue54 ?? '',
            ue55Url: values.ue55,
            ue56Url: values.ue56,
            ue57Url: values.ue57,
          });
        const notesFile = values['notes-file'];
        const notes = releaseRequestSchema.shape.notes.parse(notesFile === undefined ? undefined : await readFile(notesFile, 'utf8'));
        // Its release e-mails are queued with it; a running server's housekeeping sends them.
        await createBuildService(db, createAuditService(db), queueReleaseMails).release(
          { ...build, notes, required: values.required === true },
          null,
        );
        out(`Sage build ${build.version} released successfully`);
        return 0;
      }
      case 'withdraw': {
        const version = z.string({ error: 'withdraw needs --version' }).min(1, 'withdraw needs --version').parse(values.version);
        const { reason } = withdrawBuildSchema.parse({ reason: values.reason ?? '' });
        await createBuildService(db, createAuditService(db)).withdraw(version, reason, null);
        out(`Sage build ${version} withdrawn`);
        return 0;
      }
      case 'stripe-sync': {
        if (!config.stripe) throw new Error('stripe-sync needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
        const billing = createBillingService({
          db,
          gateway: createStripeGateway(config.stripe, (err, step) =>
            out(`${step} failed: ${err instanceof Error ? err.message : String(err)}`),
          ),
          publicUrl: config.publicUrl,
          extraOrigins: [],
          onError: () => undefined,
        });
        const counts = await billing.syncAll();
        out(
          `Synced ${counts.products} products, ${counts.prices} prices, and ${counts.subscriptions} subscriptions of ${counts.customers} customers from Stripe.`,
        );
        return 0;
      }
      default:
        out(`Unknown command: ${command}\n\n${HELP}`);
        return 1;
    }
  } finally {
    await db.destroy();
  }
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      const message =
        err instanceof z.ZodError ? err.issues.map((i) => i.message).join('\n') : err instanceof Error ? err.message : String(err);
      console.error(message);
      process.exit(1);
    },
  );
}
