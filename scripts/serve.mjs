// A small static file server for the playground: no dependencies, repository root as document
// root, correct MIME types (WebAssembly needs `application/wasm` for streaming compilation).
//
// Run directly (`node scripts/serve.mjs`) it listens on $PORT (default 8080) and prints the URL.
// Tests import `startServer(port)` and pass 0 to get a free port.

import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.tgsi': 'text/plain; charset=utf-8',
  '.agal': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.bin': 'application/octet-stream',
  '.f32': 'application/octet-stream',
};

/** The MIME type served for a file name (by extension; unknown ones are opaque bytes). */
export function mimeTypeOf(fileName) {
  return MIME_TYPES[path.extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Maps a request path to a file under `root`, or returns null when the path is malformed, leaves
 * the root, or names a hidden entry (`.git`, `.cargo`, …), none of which the page needs.
 */
export function resolveRequestPath(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0].split('#')[0]);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const segments = decoded.split(/[\\/]+/).filter((s) => s !== '');
  if (segments.some((s) => s.startsWith('.'))) return null;
  const file = path.resolve(root, ...segments);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  return file;
}

/**
 * The headers that let other sites embed the widget: its module, the modules it imports, its
 * engines' wasm, its worker and its editor live under `web/` and are fetched with CORS by a page
 * of another origin (a module script, `fetch` of the wasm, the worker's imports), and the iframe
 * embed (`embed.html`) may be framed anywhere. `Cross-Origin-Resource-Policy: cross-origin`
 * lets hosts that isolate themselves (`Cross-Origin-Embedder-Policy: require-corp`) load them
 * too. The files are public and no request carries credentials, so `*` gives nothing away.
 * @param {string} root
 * @param {string} file
 * @returns {Record<string, string>}
 */
export function embeddingHeaders(root, file) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  if (rel.startsWith('web/') || rel === 'embed.html') {
    return { 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' };
  }
  return {};
}

function send(res, status, body) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(body);
}

async function handle(root, req, res, extraHeaders = {}) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return send(res, 405, 'method not allowed\n');
  }
  let file = resolveRequestPath(root, req.url ?? '/');
  if (file === null) return send(res, 404, 'not found\n');
  let info = await stat(file).catch(() => null);
  if (info?.isDirectory()) {
    file = path.join(file, 'index.html');
    info = await stat(file).catch(() => null);
  }
  if (!info?.isFile()) return send(res, 404, 'not found\n');
  /** @type {Record<string, string | number | null>} */
  const headers = {
    'Content-Type': mimeTypeOf(file),
    'Content-Length': info.size,
    // Always revalidate, so a rebuilt engine is picked up on reload.
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    ...embeddingHeaders(root, file),
    ...extraHeaders,
  };
  // A header given as null is not sent (a test host page without a policy).
  res.writeHead(200, Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== null)));
  if (req.method === 'HEAD') return res.end();
  const stream = createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

/**
 * The Content-Security-Policy every page is served with: no inline script, no eval (WebAssembly
 * compilation is the one exception it names), everything from this origin. Inline styles are
 * allowed because the editor (CodeMirror) writes its own <style> elements; the widget without
 * its editor also works with `style-src 'self'` (tests/e2e/widget.test.mjs). The playground, the
 * widget pages and the iframe embed all work under it; the end-to-end tests run under it.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self' data: blob:",
  "object-src 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * Starts serving `options.root` (default: the repository root) on `port` (0 = any free port) at
 * `options.host` (default 127.0.0.1), with [`CONTENT_SECURITY_POLICY`] and `options.headers`
 * (which may replace it; a null value drops a header) on every file's response, and
 * [`embeddingHeaders`] on the widget's files. Resolves to `{ server, port, url, close() }`.
 */
export function startServer(port = 0, options = {}) {
  const root = path.resolve(options.root ?? ROOT);
  const host = options.host ?? '127.0.0.1';
  const server = createServer((req, res) => {
    handle(root, req, res, { 'Content-Security-Policy': CONTENT_SECURITY_POLICY, ...(options.headers ?? {}) }).catch(() => {
      if (!res.headersSent) send(res, 500, 'internal error\n');
      else res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const actualPort = server.address().port;
      const shownHost = host === '127.0.0.1' || host === '::1' || host === '::' ? 'localhost' : host;
      resolve({
        server,
        port: actualPort,
        url: `http://${shownHost}:${actualPort}/`,
        close: () => new Promise((done) => {
          server.closeAllConnections?.();
          server.close(() => done());
        }),
      });
    });
  });
}

async function main() {
  const rawPort = process.env.PORT ?? '8080';
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: PORT must be a port number (0-65535), got '${rawPort}'`);
    process.exit(2);
  }
  let running;
  try {
    running = await startServer(port, { host: process.env.HOST ?? '127.0.0.1' });
  } catch (err) {
    if (err.code === 'EADDRINUSE') {
      console.error(`serve: port ${port} is already in use; stop the other server or choose another port, e.g. PORT=8081 npm start`);
    } else {
      console.error(`serve: cannot listen on port ${port}: ${err.message}`);
    }
    process.exit(1);
  }
  console.log(`TGSI Playground is being served at ${running.url}  (Ctrl+C to stop)`);
  const stop = () => running.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main();
}
