// @ts-check
// One pool of WebDriver sessions (a driver and its browser each) for all the end-to-end files of
// one run in Firefox or WebKitGTK: `node tests/e2e/sessions.mjs -- COMMAND…` runs COMMAND (the
// `node --test` of the e2e files) with TGSI_WEBDRIVER_SESSIONS set to the pool's address, and
// ends every session it started when COMMAND ends. Without it each test file's process starts
// its own browsers: about 4.5 CPU-s a file in Firefox ESR, 1 in WebKitGTK (docs/perf-log.md,
// 2026-12-06), for twenty files. A session comes back to the pool after the adapter has reset
// it (webdriver.mjs, `Session.reset`: about:blank, one window, no key held) with the origins its
// pages used, which no later context reuses, so no storage crosses from one test to another.
// A session whose process ended without giving it back (a crash, a time-out) is ended.
// The engine is TGSI_BROWSER's; the drivers' log is the adapter's (ARTIFACTS_DIR/driver.log).
// In Chromium (Playwright, no WebDriver) it runs COMMAND as it is.

import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ENGINES, Session, sessionKey } from './webdriver.mjs';

/**
 * @typedef {{ session: Session, key: string, owner: number }} Entry
 */

/** Whether process `pid` is still running. @param {number} pid */
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return /** @type {NodeJS.ErrnoException} */ (e).code === 'EPERM';
  }
}

/**
 * Serves the pool on a free local port: POST /lease {engine, options, pid} answers {base, id,
 * origins} (a kept session of the same start-up options, or a new one); POST /release {id,
 * reusable, origins} keeps it for the next lease or ends it.
 * @param {string} engineName  firefox or webkit
 * @param {string} logFile     where the drivers write
 */
export async function startSessionPool(engineName, logFile) {
  const engine = ENGINES[engineName];
  if (!engine) throw new Error(`no WebDriver engine "${engineName}" (firefox or webkit)`);
  /** @type {Map<string, Entry[]>} */
  const idle = new Map();
  /** @type {Map<string, Entry>} */
  const leased = new Map();
  let closing = false;

  /** @param {Record<string, any>} body */
  async function lease(body) {
    if (body.engine !== engineName) throw new Error(`this pool drives ${engineName}, not ${body.engine}`);
    const options = body.options ?? {};
    const key = sessionKey(options);
    const entry = idle.get(key)?.pop() ?? { session: await Session.start(engine, options, logFile), key, owner: 0 };
    entry.owner = Number(body.pid);
    leased.set(entry.session.id, entry);
    return { base: entry.session.base, id: entry.session.id, origins: [...entry.session.origins] };
  }

  /** @param {Record<string, any>} body */
  async function release(body) {
    const entry = leased.get(String(body.id));
    if (!entry) throw new Error(`no leased session ${body.id}`);
    leased.delete(entry.session.id);
    for (const origin of body.origins ?? []) entry.session.origins.add(String(origin));
    if (body.reusable && !closing) idle.set(entry.key, [...(idle.get(entry.key) ?? []), entry]);
    else await entry.session.close();
    return {};
  }

  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => { text += chunk; });
    req.on('end', async () => {
      /** @type {Record<string, any>} */
      let answer;
      try {
        const body = JSON.parse(text || '{}');
        if (req.method !== 'POST') throw new Error(`${req.method} is not a pool request`);
        if (req.url === '/lease') answer = await lease(body);
        else if (req.url === '/release') answer = await release(body);
        else throw new Error(`no pool request ${req.url}`);
      } catch (e) {
        answer = { error: e instanceof Error ? e.message : String(e) };
      }
      res.writeHead(answer.error ? 500 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());

  // Sessions of test processes that ended without giving them back.
  const watch = setInterval(() => {
    for (const [id, entry] of leased) {
      if (running(entry.owner)) continue;
      leased.delete(id);
      entry.session.close().catch(() => {});
    }
  }, 1000);
  watch.unref();

  return {
    url: `http://127.0.0.1:${port}`,
    /** How many sessions it has started and not ended. */
    size: () => leased.size + [...idle.values()].flat().length,
    async close() {
      closing = true;
      clearInterval(watch);
      server.close();
      const all = [...leased.values(), ...[...idle.values()].flat()];
      leased.clear();
      idle.clear();
      await Promise.all(all.map((e) => e.session.close()));
    },
  };
}

async function main() {
  const sep = process.argv.indexOf('--');
  const command = sep < 0 ? [] : process.argv.slice(sep + 1);
  if (!command.length) {
    console.error('usage: TGSI_BROWSER=chromium|firefox|webkit node tests/e2e/sessions.mjs -- COMMAND [ARG…]');
    process.exit(2);
  }
  // Imported here: support.mjs reads TGSI_BROWSER, which the usage line above explains.
  const { ARTIFACTS_DIR, ENGINE } = await import('./support.mjs');
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const pool = ENGINE === 'chromium' ? null : await startSessionPool(ENGINE, path.join(ARTIFACTS_DIR, 'driver.log'));
  const env = pool ? { ...process.env, TGSI_WEBDRIVER_SESSIONS: pool.url } : process.env;
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env });
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => child.kill(signal));
  child.on('error', async (e) => {
    console.error(`sessions.mjs: cannot run ${command[0]}: ${e.message}`);
    await pool?.close();
    process.exit(1);
  });
  child.on('exit', async (code, signal) => {
    await pool?.close();
    process.exit(code ?? (signal ? 1 : 0));
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
