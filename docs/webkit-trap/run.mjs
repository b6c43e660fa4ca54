// Loads page.html PAGES times in WebKitGTK's MiniBrowser through WebKitWebDriver and counts the
// trials that trapped. Run under xvfb-run; JSC_<option>=value in the environment reaches
// JavaScriptCore. Usage: node run.mjs [--pages N] [--trials N] [--rounds N] [--pkg NAME]
// [--session-per-page] [--page osr-live-fpr.html] (pkg: release or dev, see build.sh)
import { spawn } from 'node:child_process';
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
const pages = Number(opt('pages', 10));
const trials = Number(opt('trials', 5));
const rounds = Number(opt('rounds', 40));
const pkg = opt('pkg', 'dev');
const sessionPerPage = args.includes('--session-per-page');
const page = opt('page', 'page.html');
const root = path.dirname(new URL(import.meta.url).pathname);

const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const server = http.createServer((req, res) => {
  const p = path.join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname));
  try { statSync(p); } catch { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'content-type': types[path.extname(p)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
  createReadStream(p).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const site = `http://127.0.0.1:${server.address().port}`;

const freePort = () => new Promise((resolve) => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); }); });
const port = await freePort();
const driverLog = process.env.DRIVER_LOG ? (await import('node:fs')).openSync(process.env.DRIVER_LOG, 'a') : 'ignore';
const driver = spawn(process.env.SAFARIDRIVER ?? '/usr/bin/WebKitWebDriver', [`--port=${port}`], { stdio: ['ignore', driverLog, driverLog] });
const base = `http://127.0.0.1:${port}`;
const call = async (method, url, body) => {
  const r = await fetch(base + url, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) throw new Error(`${url}: ${JSON.stringify(j.value).slice(0, 500)}`);
  return j.value;
};
for (let i = 0; ; i++) { try { await fetch(`${base}/status`); break; } catch { if (i > 200) throw new Error('driver'); await new Promise((r) => setTimeout(r, 100)); } }
const newSession = async () => (await call('POST', '/session', { capabilities: { alwaysMatch: {} } })).sessionId;

let totalTrials = 0, totalFailed = 0, failedPages = 0, pageErrors = 0;
const t0 = Date.now();
let sid = await newSession();
for (let p = 0; p < pages; p++) {
  if (sessionPerPage && p > 0) { await call('DELETE', `/session/${sid}`); sid = await newSession(); }
  try {
    await call('POST', `/session/${sid}/url`, { url: `${site}/${page}?pkg=${pkg}&trials=${trials}&rounds=${rounds}&p=${p}` });
    let r;
    for (;;) {
      r = await call('POST', `/session/${sid}/execute/sync`, { script: 'return window.result ?? null', args: [] });
      if (r) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    if (r.error) { pageErrors++; console.log(`page ${p}: error ${r.error}`); continue; }
    totalTrials += r.trials; totalFailed += r.failed;
    if (r.failed) failedPages++;
    for (const m of r.messages) console.log(`page ${p}: ${m}`);
  } catch (e) {
    pageErrors++;
    console.log(`page ${p}: driver error ${e.message}`);
    try { await call('DELETE', `/session/${sid}`); } catch {}
    sid = await newSession();
  }
}
try { await call('DELETE', `/session/${sid}`); } catch {}
driver.kill();
server.close();
const jsc = Object.entries(process.env).filter(([k]) => k.startsWith('JSC_')).map(([k, v]) => `${k}=${v}`).join(' ') || '(JSC defaults)';
console.log(`RESULT ${page} pkg=${pkg} ${jsc}: ${totalFailed} of ${totalTrials} trials failed (${failedPages} of ${pages} pages; ${pageErrors} page errors) in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
process.exit(0);
