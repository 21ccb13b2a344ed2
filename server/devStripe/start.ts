/**
 * Stripe for `npm start` on a fresh machine: when no Stripe keys are set, the product runs in
 * development and is reached on localhost (config.ts decides; never in production), main.ts starts
 * this stand-in and points billing at it, so plans and packs can be bought, webhooks received and
 * invoices read without a Stripe account (decision 040).
 *
 * Its state is kept in DATA_DIR beside the database, because the database keeps the customers and
 * subscriptions the stand-in made: a restart that forgot them would leave every earlier buyer with a
 * customer Stripe does not know.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { StripeSettings } from '../config';
import { announceCatalogue, seedCatalogue } from './catalogue';
import { startStripeServer, type StripeFixture } from './index';
import type { WebhookHandler } from './webhooks';

/** Where the stand-in reports: the app's logger once it exists. */
export interface DevStripeLog {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export interface DevStripe {
  /** The API and the hosted pages (Checkout, portal, invoices), on 127.0.0.1: this machine's browser reaches them. */
  url: string;
  /** What billing is configured with while the stand-in runs. */
  settings: StripeSettings;
  /** The stand-in itself, with its state and helpers. */
  stripe: StripeFixture;
  /** Once the app listens at `appUrl`: webhooks go there, and the catalogue is announced. Never throws. */
  connect(appUrl: string, log: DevStripeLog): Promise<void>;
  /** Saves the state and stops. */
  close(): Promise<void>;
}

/** Changes come in bursts (a checkout is a few requests): the state is written once after them. */
const SAVE_DELAY_MS = 200;
/** Stripe retries a failed delivery for days; the stand-in a few times within a minute, then logs. */
const RETRY_DELAYS_MS = [1_000, 5_000, 30_000];

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The state of an earlier start, or undefined; an unreadable file is set aside (and said so), not lost. */
function readState(file: string, notes: string[]): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') notes.push(`could not read ${file} (${messageOf(err)}): started afresh`);
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    fs.renameSync(file, `${file}.unreadable`);
    notes.push(`${file} is not JSON (${messageOf(err)}): set aside as ${file}.unreadable, started afresh`);
    return undefined;
  }
}

function writeState(file: string, json: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  // Customers' names and addresses are in it: readable by this account only, as the database is.
  fs.writeFileSync(temporary, json, { mode: 0o600 });
  fs.renameSync(temporary, file);
}

/**
 * Delivers to the app's webhook endpoint over HTTP. The first attempt is awaited (the hosted page
 * answers after it, as the app's mirror is then current); a failure is logged and retried later,
 * so an app that was busy or restarting still gets the event, and nothing throws into the app.
 */
function webhookSender(endpoint: string, log: DevStripeLog, stopped: () => boolean): WebhookHandler {
  const post = async (payload: string, headers: Record<string, string>) =>
    (await fetch(endpoint, { method: 'POST', headers, body: payload, signal: AbortSignal.timeout(30_000) })).status;
  const eventOf = (payload: string) => {
    const { id, type } = JSON.parse(payload) as { id: string; type: string };
    return `${type} ${id}`;
  };
  const retry = (payload: string, headers: Record<string, string>, attempt: number) => {
    const delay = RETRY_DELAYS_MS[attempt];
    if (delay === undefined) {
      log.error(`development Stripe stand-in: gave up delivering ${eventOf(payload)} to ${endpoint}`);
      return;
    }
    setTimeout(() => {
      if (stopped()) return;
      post(payload, headers).then(
        (status) => {
          if (status >= 500) retry(payload, headers, attempt + 1);
        },
        () => retry(payload, headers, attempt + 1),
      );
    }, delay).unref();
  };
  return async (payload, headers) => {
    try {
      const status = await post(payload, headers);
      if (status >= 300) log.warn(`development Stripe stand-in: ${endpoint} answered ${status} to ${eventOf(payload)}`);
      // A 4xx (a bad signature, a refused body) would be refused again: only a failure of the app is retried.
      if (status >= 500) retry(payload, headers, 0);
      return status;
    } catch (err) {
      log.warn(`development Stripe stand-in: could not deliver ${eventOf(payload)} to ${endpoint} (${messageOf(err)}); retrying`);
      retry(payload, headers, 0);
      throw err;
    }
  };
}

/** Starts the stand-in on 127.0.0.1:`port` (0: any free port) with its state from `stateFile`, and the catalogue in it. */
export async function startDevStripe(options: { port: number; stateFile: string }): Promise<DevStripe> {
  const { stateFile } = options;
  /** What happened before the app's logger existed, logged on connect. */
  const notes: string[] = [];
  let log: DevStripeLog | undefined;
  const warn = (message: string) => (log ? log.warn(`development Stripe stand-in: ${message}`) : notes.push(message));

  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const save = () => {
    clearTimeout(timer);
    timer = undefined;
    try {
      writeState(stateFile, JSON.stringify(stripe.snapshot()));
    } catch (err) {
      warn(`could not save its state to ${stateFile} (${messageOf(err)})`);
    }
  };
  const saveSoon = () => {
    timer ??= setTimeout(save, SAVE_DELAY_MS).unref();
  };

  const earlier = readState(stateFile, notes);
  let stripe: StripeFixture;
  try {
    stripe = await startStripeServer({ port: options.port, restore: earlier, onChange: saveSoon });
  } catch (err) {
    // A snapshot this version cannot read: kept aside, and the stand-in starts empty.
    if (earlier === undefined || (err as NodeJS.ErrnoException).code !== undefined) throw err;
    fs.renameSync(stateFile, `${stateFile}.unreadable`);
    notes.push(`${stateFile} could not be restored (${messageOf(err)}): set aside as ${stateFile}.unreadable, started afresh`);
    stripe = await startStripeServer({ port: options.port, onChange: saveSoon });
  }
  seedCatalogue(stripe);
  save();

  return {
    url: stripe.url,
    settings: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiUrl: stripe.url },
    stripe,
    async connect(appUrl, logger) {
      log = logger;
      for (const note of notes.splice(0)) warn(note);
      stripe.deliverTo(webhookSender(`${appUrl}/api/stripe/webhook`, logger, () => closed));
      try {
        await announceCatalogue(stripe);
      } catch (err) {
        logger.error(`development Stripe stand-in: the catalogue could not be announced to the app (${messageOf(err)})`);
      }
      saveSoon();
    },
    async close() {
      closed = true;
      stripe.deliverTo(null);
      await stripe.close();
      save();
    },
  };
}
