// Several instances of the compiled product on one PostgreSQL database and one Redis, behind nginx
// running deploy/nginx.conf, on this machine: what the multi-instance stories (tests/e2e) and the
// resilience suite (bench/resilience.ts) drive. Like localProduct.ts it loads no test runner.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { createPostgresSchema, type PostgresSchema } from './postgresSchema';
import { exited, freePort, killGroup, productEnv, waitForExit, waitUntilHealthy } from './localProduct';

const ROOT = path.resolve(import.meta.dirname, '..');
export const NGINX_PATH = '/usr/sbin/nginx';
export const DEPLOY_NGINX_CONF = path.join(ROOT, 'deploy', 'nginx.conf');

export interface NginxSite {
  dir: string;
  httpPort: number;
  httpsPort: number;
  upstreamPorts: number[];
  /** Instances taken out of the rotation (`down`), as an operator does before restarting one. */
  downPorts?: number[];
  certificate: string;
  certificateKey: string;
}

/**
 * deploy/nginx.conf with what is marked `# site:` set for this machine: loopback ports, the
 * instances' ports, a certificate, and pid, log and temp files under `site.dir`. Everything else
 * is the shipped file, line for line. Throws when a marked line is not one it knows.
 */
export function siteNginxConfig(template: string, site: NginxSite): string {
  const upstreams = [...site.upstreamPorts];
  const inDir = (name: string) => path.join(site.dir, name);
  const out: string[] = [];
  let upstreamsWritten = false;
  for (const line of template.split('\n')) {
    if (!line.includes('# site:')) {
      out.push(line);
      continue;
    }
    const indent = /^\s*/.exec(line)?.[0] ?? '';
    const directive = line.trim().split(/\s+/)[0];
    const set = (text: string) => out.push(`${indent}${text}`);
    switch (directive) {
      case 'pid':
        set(`pid ${inDir('nginx.pid')};`);
        break;
      case 'error_log':
        set(`error_log ${inDir('error.log')} warn;`);
        break;
      case 'access_log':
        set(`access_log ${inDir('access.log')} sage;`);
        break;
      case 'include':
        out.push(line);
        break;
      case 'client_body_temp_path':
        set(`client_body_temp_path ${inDir('body')};`);
        break;
      case 'proxy_temp_path':
        set(`proxy_temp_path ${inDir('proxy')};`);
        break;
      case 'server': {
        // The shipped file lists three instances; the cluster's list replaces them all.
        const params = line.trim().replace(/;.*$/, '').split(/\s+/).slice(2).join(' ');
        if (!upstreamsWritten) {
          for (const port of upstreams) set(`server 127.0.0.1:${port} ${params}${site.downPorts?.includes(port) ? ' down' : ''};`);
        }
        upstreamsWritten = true;
        break;
      }
      case 'listen':
        set(line.includes(' ssl') ? `listen 127.0.0.1:${site.httpsPort} ssl http2;` : `listen 127.0.0.1:${site.httpPort};`);
        break;
      case 'server_name':
        set('server_name 127.0.0.1;');
        break;
      case 'ssl_certificate':
        set(`ssl_certificate ${site.certificate};`);
        break;
      case 'ssl_certificate_key':
        set(`ssl_certificate_key ${site.certificateKey};`);
        break;
      default:
        throw new Error(`deploy/nginx.conf: no local value for the site line "${line.trim()}"`);
    }
  }
  return out.join('\n');
}

/** The instances' settings for an Epic stand-in (the development identity provider's settings). */
export function epicEnv(epic: {
  clientId: string;
  clientSecret: string;
  issuer: string;
  authorizeUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
}): Record<string, string> {
  return {
    EPIC_CLIENT_ID: epic.clientId,
    EPIC_CLIENT_SECRET: epic.clientSecret,
    EPIC_ISSUER: epic.issuer,
    EPIC_AUTHORIZE_URL: epic.authorizeUrl,
    EPIC_TOKEN_URL: epic.tokenUrl,
    EPIC_USERINFO_URL: epic.userInfoUrl,
  };
}

/** A self-signed certificate for 127.0.0.1 (openssl), valid two days. */
function selfSignedCertificate(dir: string): { certificate: string; certificateKey: string } {
  const certificate = path.join(dir, 'cert.pem');
  const certificateKey = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      certificateKey,
      '-out',
      certificate,
    ],
    { stdio: 'ignore' },
  );
  return { certificate, certificateKey };
}

export interface Instance {
  index: number;
  port: number;
  /** The instance itself, bypassing nginx. */
  url: string;
  output(): string;
  running(): boolean;
  /** The process id while it runs (its memory, for the resilience suite's soak). */
  pid(): number | undefined;
  /** Starts it again after a stop or kill (same port, database and settings). */
  start(): Promise<void>;
  /** SIGTERM (the drain), then SIGKILL if it has not exited after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** kill -9: no drain, no flush. */
  kill(): Promise<void>;
}

export interface Cluster {
  /** https://127.0.0.1:PORT: nginx, and every instance's PUBLIC_URL. */
  url: string;
  instances: Instance[];
  /** The certificate nginx presents, for clients that check it (and its file, for NODE_EXTRA_CA_CERTS). */
  certificate: string;
  certificateFile: string;
  /** The instances' database: the PostgreSQL URL with the cluster's schema as its search path. */
  databaseUrl: string;
  /** One line per request nginx passed on, with the instance that answered (deploy/nginx.conf's format). */
  accessLog(): string[];
  /**
   * Takes an instance out of nginx's rotation (`down`) or puts it back, and reloads nginx as an
   * operator does around a restart (docs/deploy.md); resolves once nginx's old workers are gone.
   */
  setDown(index: number, down: boolean): Promise<void>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  instances?: number;
  /** The PostgreSQL server; the cluster works in a schema of its own, dropped by stop(). */
  databaseUrl: string;
  /** A Redis database the cluster may empty (its rate-limit counters start at zero). */
  redisUrl: string;
  /** More settings for every instance (Epic, Stripe, SMTP…), given the cluster's public URL. */
  env?: (publicUrl: string) => Record<string, string> | Promise<Record<string, string>>;
}

function spawnInstance(index: number, port: number, env: NodeJS.ProcessEnv): Instance {
  let child: ChildProcess | undefined;
  let output = '';
  const instance: Instance = {
    index,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    running: () => child !== undefined && !exited(child),
    pid: () => (child && !exited(child) ? child.pid : undefined),
    async start() {
      child = spawn(process.execPath, ['--enable-source-maps', path.join(ROOT, 'dist', 'server', 'main.js')], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await waitUntilHealthy(instance.url, child, { timeoutMs: 60_000, label: `instance ${index}`, output: () => output });
    },
    async stop(graceMs = 15_000) {
      if (!child || exited(child)) return;
      killGroup(child.pid, 'SIGTERM');
      if (!(await waitForExit(child, graceMs))) {
        killGroup(child.pid, 'SIGKILL');
        await waitForExit(child, 5000);
      }
    },
    async kill() {
      if (!child || exited(child)) return;
      killGroup(child.pid, 'SIGKILL');
      await waitForExit(child, 5000);
    },
  };
  return instance;
}

/**
 * Starts `instances` (3) compiled servers at once (so their migrations race, as in a rolling
 * deploy of several machines), then nginx in front of them. The servers must be built
 * (`npm run build`); nginx is Debian's package.
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  if (!fs.existsSync(NGINX_PATH)) throw new Error(`nginx was not found at ${NGINX_PATH}: apt-get install -y nginx (.ci/run does this)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-cluster-'));
  // nginx's workers run as an unprivileged user when started by root: they write the temp paths.
  fs.chmodSync(dir, 0o755);
  for (const temp of ['body', 'proxy']) fs.mkdirSync(path.join(dir, temp), { mode: 0o777 });
  const { certificate, certificateKey } = selfSignedCertificate(dir);

  const redis = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  await redis.flushdb();
  await redis.quit();

  let schema: PostgresSchema | undefined;
  let nginx: ChildProcess | undefined;
  const httpsPort = await freePort();
  const url = `https://127.0.0.1:${httpsPort}`;
  const ca = fs.readFileSync(certificate, 'utf8');
  const configFile = path.join(dir, 'nginx.conf');
  let site: NginxSite | undefined;
  const instances: Instance[] = [];
  const stop = async () => {
    await Promise.all(instances.map((i) => i.stop(5000)));
    if (nginx && !exited(nginx)) {
      killGroup(nginx.pid, 'SIGQUIT');
      if (!(await waitForExit(nginx, 5000))) killGroup(nginx.pid, 'SIGKILL');
    }
    await schema?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    schema = await createPostgresSchema(options.databaseUrl, 'cluster');
    // One signing key for every instance: a license from any of them verifies with one public key.
    const signingKey = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const count = options.instances ?? 3;
    const extra = (await options.env?.(url)) ?? {};
    for (let index = 0; index < count; index += 1) {
      const port = await freePort();
      const dataDir = path.join(dir, `instance-${index}`);
      const env = productEnv(
        port,
        dataDir,
        {
          PUBLIC_URL: url,
          DATABASE_URL: schema.url,
          REDIS_URL: options.redisUrl,
          TRUST_PROXY: '1',
          LICENSE_SIGNING_KEY: signingKey,
          ...extra,
        },
        ['VITEST'],
      );
      instances.push(spawnInstance(index, port, env));
    }
    await Promise.all(instances.map((i) => i.start()));

    site = { dir, httpPort: await freePort(), httpsPort, upstreamPorts: instances.map((i) => i.port), certificate, certificateKey };
    fs.writeFileSync(configFile, siteNginxConfig(fs.readFileSync(DEPLOY_NGINX_CONF, 'utf8'), site));
    let nginxOutput = '';
    nginx = spawn(NGINX_PATH, ['-c', configFile, '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    nginx.stderr?.on('data', (chunk: Buffer) => (nginxOutput += chunk.toString()));
    await waitForProxy(url, ca, nginx, () => nginxOutput + readIfThere(path.join(dir, 'error.log')));
  } catch (err) {
    await stop();
    throw err;
  }

  return {
    url,
    instances,
    certificate: ca,
    certificateFile: certificate,
    databaseUrl: schema.url,
    accessLog: () => readIfThere(path.join(dir, 'access.log')).split('\n').filter(Boolean),
    async setDown(index, down) {
      const port = instances[index]?.port;
      if (!site || !nginx?.pid || port === undefined) throw new Error(`no instance ${index} behind a running nginx`);
      const downPorts = new Set(site.downPorts);
      if (down) downPorts.add(port);
      else downPorts.delete(port);
      site = { ...site, downPorts: [...downPorts] };
      fs.writeFileSync(configFile, siteNginxConfig(fs.readFileSync(DEPLOY_NGINX_CONF, 'utf8'), site));
      const before = workersOf(nginx.pid);
      process.kill(nginx.pid, 'SIGHUP');
      // The new workers take the new configuration; the old ones finish what they hold and leave.
      const deadline = Date.now() + 15_000;
      while (before.some((pid) => fs.existsSync(`/proc/${pid}`)) || workersOf(nginx.pid).length === 0) {
        if (Date.now() > deadline) throw new Error(`nginx did not reload within 15 s:\n${readIfThere(path.join(dir, 'error.log'))}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop,
  };
}

export interface ProxyAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request to nginx over https, trusting the cluster's own certificate (fetch cannot be told to). */
export function requestThroughProxy(
  cluster: Pick<Cluster, 'url' | 'certificate'>,
  request: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number },
): Promise<ProxyAnswer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      new URL(request.path, cluster.url),
      // A connection of its own per request: a kept-alive connection nginx closes at a reload can
      // race a request sent on it, which browsers then retry on a new connection and Node does not.
      {
        method: request.method ?? 'GET',
        headers: request.headers,
        ca: cluster.certificate,
        timeout: request.timeoutMs ?? 10_000,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`no answer to ${request.method ?? 'GET'} ${request.path} within ${request.timeoutMs ?? 10_000} ms`)),
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

/** Waits until nginx answers /healthz through to an instance. */
async function waitForProxy(url: string, certificate: string, nginx: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (exited(nginx)) throw new Error(`nginx exited before it was ready:\n${output()}`);
    try {
      if ((await requestThroughProxy({ url, certificate }, { path: '/healthz', timeoutMs: 2000 })).status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`nginx did not answer GET /healthz within 20 s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The worker processes of nginx's master (Linux /proc). */
function workersOf(masterPid: number): number[] {
  return readIfThere(`/proc/${masterPid}/task/${masterPid}/children`).trim().split(/\s+/).filter(Boolean).map(Number);
}

function readIfThere(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
