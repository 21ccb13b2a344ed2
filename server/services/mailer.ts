import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Further header fields (List-Unsubscribe of the release e-mails), sent exactly as given: each one line. */
  headers?: Readonly<Record<string, string>>;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export interface MailLogger {
  info(obj: object, msg: string): void;
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: MailLogger;
  /** Log the links of outbox mails too. Off in production: reset links carry secrets. */
  logLinks?: boolean;
}

/**
 * Real SMTP when `smtpUrl` is set. Otherwise (the embedded default) each mail is written to
 * `outboxDir` as an .eml file and its path (and, with `logLinks`, its links) logged, so a
 * developer can follow them.
 */
export function createMailer(opts: MailerOptions): Mailer {
  if (opts.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail(message(opts.from, mail));
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail(message(opts.from, mail));
      await fs.mkdir(opts.outboxDir, { recursive: true });
      const safeTo = mail.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      const file = path.join(opts.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeTo}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      const links = opts.logLinks ? { links: mail.text.match(/https?:\/\/\S+/g) ?? [] } : {};
      opts.log.info({ to: mail.to, subject: mail.subject, file, ...links }, 'mail written to outbox');
    },
  };
}

/**
 * What nodemailer sends: extra headers `prepared`, so it neither encodes nor folds them (a folded
 * List-Unsubscribe would break its URL in some readers).
 */
function message(from: string, { headers, ...mail }: Mail) {
  if (!headers) return { from, ...mail };
  const prepared = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, { prepared: true, value }]));
  return { from, ...mail, headers: prepared };
}

/** The mailer the configuration asks for; outbox links are logged outside production only. */
export function mailerFromConfig(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir' | 'env'>, log: MailLogger): Mailer {
  return createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    log,
    logLinks: config.env !== 'production',
  });
}

/** Escapes text for HTML: a mail body, or a page's text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
