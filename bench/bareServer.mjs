// The baseline of `npm run bench`: a bare Fastify server (no logger, hooks, cookies, validation or
// database) answering GET /api/user and GET /download with the bodies the product answers them with,
// read from the files named by BARE_USER_BODY and BARE_PAGE_BODY. Plain JavaScript, so it runs as
// the compiled product does: `node bench/bareServer.mjs`.
import fs from 'node:fs';
import process from 'node:process';
import Fastify from 'fastify';

const user = fs.readFileSync(process.env.BARE_USER_BODY ?? '', 'utf8');
const page = fs.readFileSync(process.env.BARE_PAGE_BODY ?? '', 'utf8');
const app = Fastify({ logger: false });
app.get('/api/user', (_request, reply) => reply.type('application/json; charset=utf-8').send(user));
app.get('/download', (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
app.get('/healthz', () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
