// The development server (scripts/serve.mjs): MIME types, index pages, and refusal of paths that
// leave the repository or reach hidden folders.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { mimeTypeOf, resolveRequestPath } from '../../../scripts/serve.mjs';
import { ROOT, startServer } from '../support.mjs';

let server;
before(async () => { server = await startServer(0); });
after(async () => { await server?.close(); });

const get = (p) => fetch(new URL(p, `http://127.0.0.1:${server.port}/`));

test('serves index.html at / as HTML', async () => {
  const res = await get('/');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.match(await res.text(), /<canvas id="output"/);
});

test('every page is served with a policy that forbids inline script and eval', async () => {
  const csp = (await get('/')).headers.get('content-security-policy') ?? '';
  const directive = (name) => csp.split(';').map((d) => d.trim().split(/\s+/)).find((d) => d[0] === name)?.slice(1) ?? [];
  assert.deepEqual(directive('script-src'), ["'self'", "'wasm-unsafe-eval'"]);
  assert.deepEqual(directive('default-src'), ["'self'"]);
  assert.deepEqual(directive('object-src'), ["'none'"]);
});

test('serves the wasm engine and ES modules with their MIME types', async () => {
  const wasm = await get('/web/pkg/tgsi_bg.wasm');
  assert.equal(wasm.status, 200);
  assert.equal(wasm.headers.get('content-type'), 'application/wasm');
  // Every wasm module starts with the magic bytes "\0asm" (WebAssembly core spec, 5.5.16).
  assert.deepEqual([...new Uint8Array(await wasm.arrayBuffer()).slice(0, 4)], [0x00, 0x61, 0x73, 0x6d]);
  const js = await get('/web/main.js');
  assert.equal(js.status, 200);
  assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
});

test('answers 404 for missing files, hidden folders and paths outside the root', async () => {
  assert.equal((await get('/no-such-file.txt')).status, 404);
  assert.equal((await get('/.git/HEAD')).status, 404);
  assert.equal((await get('/%2e%2e/%2e%2e/etc/passwd')).status, 404);
  assert.equal((await get('/web/%00')).status, 404);
});

test('maps request paths inside the root only', () => {
  assert.equal(resolveRequestPath(ROOT, '/web/main.js?x=1'), path.join(ROOT, 'web', 'main.js'));
  assert.equal(resolveRequestPath(ROOT, '/'), ROOT);
  assert.equal(resolveRequestPath(ROOT, '/../secret'), null);
  assert.equal(resolveRequestPath(ROOT, '/a/%2e%2e/%2e%2e/b'), null);
  assert.equal(resolveRequestPath(ROOT, '/%E0%A4%A'), null);
});

test('knows the MIME types the page needs', () => {
  assert.equal(mimeTypeOf('x.wasm'), 'application/wasm');
  assert.equal(mimeTypeOf('x.mjs'), 'text/javascript; charset=utf-8');
  assert.equal(mimeTypeOf('X.CSS'), 'text/css; charset=utf-8');
  assert.equal(mimeTypeOf('shader.tgsi'), 'text/plain; charset=utf-8');
  assert.equal(mimeTypeOf('unknown.xyz'), 'application/octet-stream');
});
