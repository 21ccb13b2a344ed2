/**
 * A production install (docs/deploy.md): the built tree with its dev dependencies pruned, as
 * `npm ci && npm run build && npm prune --omit=dev` or `npm ci --omit=dev` beside a shipped dist/
 * leave it, runs `npm start` and `npm run cli` without the build tools, says what to run when dist/
 * is missing or stale, and stops on an older Node. The tree is a copy of this checkout's (hard links
 * where the file system allows: npm prune removes files and writes only files of the copy's own).
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, freePort, killGroup, productEnv, waitForExit, waitUntilHealthy } from '../../scripts/localProduct';
import { ROOT, SKIP_E2E } from './harness';

const run = promisify(execFile);
/** npm, and the scripts it runs, on the Node running the tests (the first `node` in PATH). */
const PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;
/** The environment of a fresh shell: none of the settings an outer `npm test` hands its children. */
const shellEnv = () => Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|VITEST)/.test(key)));

/** `cp -a`, with hard links when `link` and the file system allows them. */
async function copy(from: string, to: string, link: boolean) {
  await run('cp', [link ? '-al' : '-a', from, to]).catch(() => run('cp', ['-a', from, to]));
}

describe.skipIf(SKIP_E2E)('A production install: the built tree without dev dependencies', () => {
  let tree = '';
  let dataDir = '';
  const npm = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    run('npm', args, { cwd: tree, env: { ...shellEnv(), PATH, DATA_DIR: dataDir, DATABASE_URL: '', ...env } });

  beforeAll(async () => {
    tree = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-production-'));
    dataDir = path.join(tree, 'data');
    // What a deployment has (docs/deploy.md): the manifest and lock, the scripts `npm start` runs
    // first, the build, and the installed packages.
    for (const file of ['package.json', 'package-lock.json', 'scripts', 'dist', 'node_modules']) {
      await copy(path.join(ROOT, file), tree, file === 'node_modules' || file === 'dist');
    }
    // npm may rewrite its record of the tree in place: the copy gets a file of its own.
    const record = path.join(tree, 'node_modules', '.package-lock.json');
    if (fs.existsSync(record)) {
      fs.copyFileSync(record, `${record}.own`);
      fs.renameSync(`${record}.own`, record);
    }
    await npm(['prune', '--omit=dev', '--no-audit', '--no-fund']);
  }, 180_000);

  afterAll(() => fs.rmSync(tree, { recursive: true, force: true }));

  it('has no build tools once pruned', () => {
    for (const tool of ['vite', 'esbuild', 'vitest', 'typescript'])
      expect(fs.existsSync(path.join(tree, 'node_modules', tool))).toBe(false);
    expect(fs.existsSync(path.join(tree, 'node_modules', 'fastify'))).toBe(true);
  });

  it('serves with npm start', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn('npm', ['start'], {
      cwd: tree,
      env: productEnv(port, dataDir, { PATH, NODE_ENV: 'production' }, ['VITEST', 'npm_']),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await waitUntilHealthy(url, child, { timeoutMs: 60_000, label: 'production install', output: () => output });
      const home = await fetch(url);
      expect(home.status).toBe(200);
      expect(home.headers.get('content-type')).toMatch(/^text\/html/);
      expect(output).not.toMatch(/ERR_MODULE_NOT_FOUND|Building|rebuilding/);
    } finally {
      if (!exited(child)) killGroup(child.pid, 'SIGTERM');
      if (!(await waitForExit(child, 5000))) killGroup(child.pid, 'SIGKILL');
    }
  });

  it('runs operator commands with npm run cli', async () => {
    const { stdout } = await npm(['run', '--silent', 'cli', '--', 'create-admin', '--email', 'ops@example.com']);
    expect(stdout).toMatch(/ops@example\.com/);
  });

  it('says what to run when the dependencies changed since the build, which cannot run here', async () => {
    // npm rewrote the lock, unchanged, when it pruned (the tests above ran on that): content counts.
    const lock = path.join(tree, 'package-lock.json');
    const locked = fs.readFileSync(lock, 'utf8');
    fs.writeFileSync(lock, `${locked}\n`);
    try {
      const failed = await npm(['run', 'cli', '--', 'help']).then(
        () => null,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toContain(
        'dist/ was built from other sources or dependencies and the build tools (dev dependencies) are not installed',
      );
    } finally {
      fs.writeFileSync(lock, locked);
    }
  });

  it('says what to run when dist/ is missing and cannot be built here', async () => {
    // Unlinking the copy's file leaves the checkout's build alone.
    fs.rmSync(path.join(tree, 'dist', 'server', 'main.js'));
    const failed = await npm(['start'], { PORT: '0' }).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain(
      'dist/ is missing and the build tools (dev dependencies) are not installed: run `npm ci && npm run build`',
    );
  });

  it('stops on a Node older than package.json asks for, with one line saying what to do', async () => {
    const manifest = path.join(tree, 'package.json');
    const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { engines: { node: string } };
    fs.writeFileSync(manifest, JSON.stringify({ ...pkg, engines: { node: '>=999' } }));
    const failed = await run(process.execPath, ['scripts/ensure-build.mjs'], { cwd: tree }).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^Sage Dashboard needs Node 999 LTS or newer \\(this is ${process.version}\\): install it`)),
    ]);
  });
});
