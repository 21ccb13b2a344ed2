/**
 * Issue 39's peer (bench/usagePeer.ts), the recorder `npm run bench:usage` measures the product
 * against, is correct: run as the bench runs it (plain Node, a process of its own), it charges a use
 * once per requestId, answers a replay its first answer, refuses a reused requestId with another body
 * and a use that would pass the allowance, and under concurrent uses never charges past it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, freePort, waitUntilHealthy } from '../../scripts/localProduct';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const TOKEN = 'peer-test-token';
const ALLOWANCE = 10;

describe.each(['FULL', 'NORMAL'])('the usage peer, synchronous=%s', (synchronous) => {
  let child: ChildProcess;
  let url = '';
  let dir = '';
  let output = '';

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-usage-peer-'));
    fs.writeFileSync(path.join(dir, 'users.json'), JSON.stringify(['alice', 'bob', 'carol']));
    const port = await freePort();
    child = spawn(process.execPath, [path.join(ROOT, 'bench', 'usagePeer.ts')], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        PEER_DATABASE: path.join(dir, 'peer.sqlite'),
        PEER_SYNCHRONOUS: synchronous,
        PEER_TOKEN: TOKEN,
        PEER_USERS: path.join(dir, 'users.json'),
        PEER_ALLOWANCE: String(ALLOWANCE),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    url = `http://127.0.0.1:${port}`;
    await waitUntilHealthy(url, child, { timeoutMs: 30_000, label: 'usage peer', output: () => output });
  });

  afterAll(async () => {
    if (!exited(child)) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const post = async (body: unknown, token = TOKEN) => {
    const res = await fetch(`${url}/usage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('says where it listens and with which durability', () => {
    expect(output).toContain(`listening on ${url} (synchronous=${synchronous}`);
  });

  it('charges a use once: a replay answers the first answer, another body under its requestId 409', async () => {
    const use = { requestId: 'r1', userId: 'alice', units: 3, projectId: 'p', engineVersion: '5.6' };
    expect(await post(use)).toEqual({ status: 201, body: { requestId: 'r1', units: 3, remaining: 7 } });
    expect(await post(use)).toEqual({ status: 201, body: { requestId: 'r1', units: 3, remaining: 7 } });
    expect(await post({ ...use, units: 2 })).toMatchObject({ status: 409, body: { error: 'request_id_reused' } });
    expect(await post({ ...use, projectId: undefined })).toMatchObject({ status: 409 });
    // The same requestId is another use for another user.
    expect(await post({ ...use, userId: 'bob' })).toEqual({ status: 201, body: { requestId: 'r1', units: 3, remaining: 7 } });
  });

  it('refuses with 402 a use that would pass the allowance, and charges nothing', async () => {
    expect(await post({ requestId: 'r2', userId: 'alice', units: 8 })).toMatchObject({
      status: 402,
      body: { error: 'allowance_exhausted' },
    });
    expect(await post({ requestId: 'r3', userId: 'alice', units: 7 })).toEqual({
      status: 201,
      body: { requestId: 'r3', units: 7, remaining: 0 },
    });
    expect(await post({ requestId: 'r4', userId: 'alice', units: 1 })).toMatchObject({ status: 402 });
  });

  it('under 40 concurrent uses for one user charges exactly the allowance', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => post({ requestId: `c${i}`, userId: 'carol', units: 1 })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(ALLOWANCE);
    expect(answers.filter((a) => a.status === 402)).toHaveLength(40 - ALLOWANCE);
    const remaining = answers.filter((a) => a.status === 201).map((a) => a.body.remaining as number);
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: ALLOWANCE }, (_, i) => i));
  });

  it('refuses a wrong token, an unknown user and a body that is not a use', async () => {
    expect(await post({ requestId: 'x', userId: 'alice', units: 1 }, 'wrong')).toMatchObject({ status: 401 });
    expect(await post({ requestId: 'x', userId: 'nobody', units: 1 })).toMatchObject({ status: 400, body: { error: 'unknown_user' } });
    for (const body of [
      { requestId: 'x', userId: 'alice', units: 0 },
      { requestId: 'x', userId: 'alice', units: 1.5 },
      { requestId: '', userId: 'alice', units: 1 },
      { userId: 'alice', units: 1 },
      { requestId: 'x', userId: 'alice', units: 1, projectId: 'p'.repeat(65) },
      '{"requestId":',
    ])
      expect(await post(body)).toMatchObject({ status: 400 });
  });

  it('stores each charged use once, its units the period counters', () => {
    const db = new Database(path.join(dir, 'peer.sqlite'), { readonly: true });
    try {
      const byUser = db
        .prepare(
          'select u.user_id, count(*) as uses, sum(u.units) as units, p.used from uses u join periods p using (user_id, period_start) group by u.user_id order by u.user_id',
        )
        .all();
      expect(byUser).toEqual([
        { user_id: 'alice', uses: 2, units: 10, used: 10 },
        { user_id: 'bob', uses: 1, units: 3, used: 3 },
        { user_id: 'carol', uses: ALLOWANCE, units: ALLOWANCE, used: ALLOWANCE },
      ]);
    } finally {
      db.close();
    }
  });
});
