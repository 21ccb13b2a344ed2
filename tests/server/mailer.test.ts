import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { mailerFromConfig } from '../../server/services/mailer';

const LINK = 'http://sage.test/reset-password?token=s3cr3t-token';

describe('outbox mailer (no SMTP_URL)', () => {
  let dataDir: string;
  let logged: object[];
  const log = { info: (obj: object) => void logged.push(obj) };

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-outbox-'));
    logged = [];
  });
  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function sendWith(env: Record<string, string>) {
    const config = loadConfig({ PUBLIC_URL: 'http://sage.test', DATA_DIR: dataDir, ...env });
    await mailerFromConfig(config, log).send({ to: 'ada@example.com', subject: 'Reset', text: `Open ${LINK}\n`, html: '' });
    expect(logged).toHaveLength(1);
    const entry = logged[0] as { file?: string; links?: string[] };
    expect(entry.file?.startsWith(path.join(dataDir, 'outbox'))).toBe(true);
    expect(fs.readFileSync(entry.file ?? '', 'utf8')).toContain('s3cr3t-token');
    return entry;
  }

  it('logs the file and the links outside production, so a developer can follow them', async () => {
    const entry = await sendWith({ NODE_ENV: 'development' });
    expect(entry.links).toEqual([LINK]);
  });

  it('logs the file but not the links in production: they carry secrets', async () => {
    const entry = await sendWith({ NODE_ENV: 'production' });
    expect(entry).not.toHaveProperty('links');
    expect(JSON.stringify(logged)).not.toContain('s3cr3t-token');
  });
});
