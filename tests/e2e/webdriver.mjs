// @ts-check
// The end-to-end tests in Firefox and WebKitGTK: a small client of the W3C WebDriver protocol
// (classic, JSON over HTTP; https://www.w3.org/TR/webdriver2/) and, on top of it, the few
// Playwright page operations the tests use, so each test is written once and runs in every
// engine. Chromium keeps playwright-core (support.mjs); Playwright drives Firefox only with its
// own patched builds, which we do not download, so Debian's firefox-esr is driven through
// geckodriver and WebKitGTK's MiniBrowser through WebKitWebDriver.
//
// What the protocol has no command for is done like this:
//   - console errors and uncaught exceptions: each context reaches the server through a small
//     proxy (one per context, on its own port) that adds one <script src> to HTML pages; that
//     script records `console.error`, uncaught errors and unhandled rejections, and every
//     script this adapter runs in the page also takes (drains) what was recorded. Scripts
//     fetched as workers (`Sec-Fetch-Dest: worker`) get the same recorder in front, which posts
//     what it sees to the proxy (Playwright reports a dedicated worker's console errors and
//     exceptions as the page's);
//   - responses and failed requests: seen by the same proxy (status, headers, URL as the page
//     sees it);
//   - `keyboard.insertText`: the editing command `insertText`, which inserts the text as one
//     input event as Playwright does (typing key by key would let the editor auto-indent and
//     close brackets; a synthetic paste carries no data in Firefox);
//   - downloads: the page offers a file by clicking an `<a download>` with a blob URL; the
//     adapter captures that click in the page and reads the blob, it does not use the browser's
//     download manager;
//   - contexts: one WebDriver session per context, one page per context; a closed context's
//     session (driver and browser) is reset and kept for the next context of the same browser
//     (`WebDriverBrowser.idle`) or, when the run has a session pool (sessions.mjs, as in
//     `npm test`), given back to the pool for the next context of any test file; each context
//     reaches the server through its own proxy on a port that session has never been served
//     from, a new origin, so no storage is shared;
//   - screenshots are of the viewport (classic WebDriver has no full-page screenshot);
//   - phone-sized viewports: Firefox keeps its window at least 500 CSS px wide, MiniBrowser 447
//     (its toolbar); Firefox starts with a profile whose userChrome.css lifts that minimum
//     (`NARROW_WINDOW_PROFILE`), WebKitGTK with a gtk.css that does (`narrowGtkConfig`).
// Anything else a test asks for throws "not supported by the WebDriver adapter".

import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf';
const DEFAULT_TIMEOUT = 30_000;
const DEFAULT_VIEWPORT = { width: 1280, height: 720 }; // Playwright's default
const MONITOR_PATH = '/__e2e__/monitor.js';
const REPORT_PATH = '/__e2e__/report';

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/**
 * @typedef {{ width: number, height: number }} Size
 * @typedef {{ viewport?: Size, colorScheme?: 'light' | 'dark' }} ContextOptions
 * @typedef {{
 *   name: string,
 *   driver: string,
 *   driverArgs: (port: number) => string[],
 *   driverEnv: (options: ContextOptions) => Record<string, string>,
 *   capabilities: (options: ContextOptions) => Record<string, unknown>,
 *   screenshotAtNextPaint?: boolean,
 * }} Engine
 */

/**
 * A zip archive of `files` (name → text), stored without compression, as base64: the form
 * geckodriver takes a profile in (`moz:firefoxOptions.profile`).
 * @param {Record<string, string>} files
 */
function storedZip(files) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const nameBytes = Buffer.from(name, 'utf8');
    const data = Buffer.from(text, 'utf8');
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(10, 4); // version needed
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(10, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]).toString('base64');
}

const NARROW_WINDOW_PROFILE = storedZip({
  'chrome/userChrome.css': ':root, #main-window { min-width: 0 !important; min-height: 0 !important; }\n',
});

/** @type {string | null} */
let gtkConfig = null;
/**
 * A GTK configuration folder whose gtk.css lets MiniBrowser's window be phone-narrow: its
 * toolbar's padding and minimum widths kept it at least 447 px wide. Only the browser's own
 * widgets are styled by it; the page's form controls are drawn by WebKit.
 */
function narrowGtkConfig() {
  if (!gtkConfig) {
    gtkConfig = mkdtempSync(path.join(os.tmpdir(), 'tgsi-e2e-gtk-'));
    mkdirSync(path.join(gtkConfig, 'gtk-3.0'));
    writeFileSync(path.join(gtkConfig, 'gtk-3.0', 'gtk.css'), '* { min-width: 0; padding: 0; }\n');
    const folder = gtkConfig;
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  }
  return gtkConfig;
}

/** @type {Record<string, Engine>} */
export const ENGINES = {
  firefox: {
    name: 'firefox',
    driver: process.env.GECKODRIVER ?? 'geckodriver',
    driverArgs: (port) => [`--port=${port}`],
    driverEnv: () => ({}),
    capabilities: ({ colorScheme }) => ({
      browserName: 'firefox',
      'moz:firefoxOptions': {
        binary: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
        args: ['-headless'],
        // A profile whose userChrome.css lifts the browser window's minimum width (500 CSS px),
        // so a viewport can be as narrow as a phone's (390 px).
        profile: NARROW_WINDOW_PROFILE,
        prefs: {
          'toolkit.legacyUserProfileCustomizations.stylesheets': true,
          // 0 dark, 1 light: what `prefers-color-scheme` reports to pages.
          'layout.css.prefers-color-scheme.content-override': colorScheme === 'dark' ? 0 : 1,
          'ui.systemUsesDarkTheme': colorScheme === 'dark' ? 1 : 0,
          // No connections to Mozilla's services from a machine that has no outside network.
          'app.update.disabledForTesting': true,
          'browser.safebrowsing.malware.enabled': false,
          'browser.safebrowsing.phishing.enabled': false,
          'network.captive-portal-service.enabled': false,
          'network.connectivity-service.enabled': false,
          'datareporting.policy.dataSubmissionEnabled': false,
          'toolkit.telemetry.enabled': false,
        },
      },
    }),
  },
  webkit: {
    name: 'webkit',
    driver: process.env.WEBKIT_WEBDRIVER ?? '/usr/bin/WebKitWebDriver',
    driverArgs: (port) => [`--port=${port}`],
    // WebKitGTK reports `prefers-color-scheme: dark` when the GTK theme is a dark variant; the
    // browser inherits the driver's environment. Each browser gets an X display of its own
    // (`Session.start`).
    // Without the DMA-BUF renderer: under Xvfb it composites every frame with Mesa's llvmpipe,
    // which cost about 40 % of the suite's CPU in this engine (the page's scripts, layout and
    // canvas are the same). Its screenshots then wait for the page's next paint (`screenshot`).
    driverEnv: ({ colorScheme }) => ({
      GTK_THEME: colorScheme === 'dark' ? 'Adwaita:dark' : 'Adwaita', XDG_CONFIG_HOME: narrowGtkConfig(),
      WEBKIT_DISABLE_DMABUF_RENDERER: '1',
    }),
    capabilities: () => ({}),
    // Without the DMA-BUF renderer a screenshot is taken at the page's next paint (`screenshot`).
    screenshotAtNextPaint: true,
  },
};

/**
 * An Xvfb server on a display number it picks itself (`-displayfd`), or null when Xvfb is not
 * installed (the caller's own DISPLAY is used then).
 * @param {string} logFile
 * @returns {Promise<{ name: string, server: import('node:child_process').ChildProcess } | null>}
 */
function startXvfb(logFile) {
  return new Promise((resolve, reject) => {
    const log = openSync(logFile, 'a');
    const server = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1920x1200x24', '-nolisten', 'tcp'], {
      stdio: ['ignore', log, log, 'pipe'],
    });
    closeSync(log);
    let text = '';
    const timer = setTimeout(() => { server.kill(); reject(new Error(`Xvfb named no display within 20 s; see ${logFile}`)); }, 20_000);
    server.once('error', (e) => {
      clearTimeout(timer);
      if (/** @type {NodeJS.ErrnoException} */ (e).code === 'ENOENT') resolve(null);
      else reject(e);
    });
    server.once('exit', (code) => { clearTimeout(timer); reject(new Error(`Xvfb exited with status ${code}; see ${logFile}`)); });
    const fd = /** @type {import('node:stream').Readable} */ (server.stdio[3]);
    fd.setEncoding('utf8');
    fd.on('data', (chunk) => {
      text += chunk;
      const m = /^(\d+)\n/.exec(text);
      if (!m) return;
      clearTimeout(timer);
      server.removeAllListeners('exit');
      fd.destroy();
      resolve({ name: `:${m[1]}`, server });
    });
  });
}

/** A TCP port that was free a moment ago. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (s.address());
      s.close(() => resolve(port));
    });
  });
}

class WebDriverError extends Error {
  /** @param {string} error @param {string} message */
  constructor(error, message) {
    super(`${error}: ${message}`);
    this.error = error;
  }
}

/**
 * The session pool of the whole e2e run, when it has one (tests/e2e/sessions.mjs sets it): the
 * URL where this process leases sessions and gives them back.
 */
const SESSION_POOL = process.env.TGSI_WEBDRIVER_SESSIONS ?? '';

/** A JSON request to the session pool; resolves to its JSON answer. @param {string} what @param {unknown} body */
async function askPool(what, body) {
  const res = await fetch(`${SESSION_POOL}/${what}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  });
  const answer = await res.json().catch(() => ({ error: `HTTP ${res.status}, not JSON` }));
  if (!res.ok || answer.error) throw new Error(`the WebDriver session pool (${what}): ${answer.error ?? `HTTP ${res.status}`}`);
  return answer;
}

/**
 * One WebDriver server process (geckodriver or WebKitWebDriver) with one session: started by
 * this process, or leased from the run's session pool (`lease`), which started it.
 */
export class Session {
  /**
   * A session for a new context: from the run's pool when there is one (tests/e2e/sessions.mjs:
   * a browser started for an earlier test file is reused instead of starting one per file),
   * otherwise started here.
   * @param {Engine} engine @param {ContextOptions} options @param {string} logFile
   */
  static async lease(engine, options, logFile) {
    if (!SESSION_POOL) return Session.start(engine, options, logFile);
    const { base, id, origins } = await askPool('lease', { engine: engine.name, options, pid: process.pid });
    const session = new Session(base, null);
    session.id = id;
    session.origins = new Set(/** @type {string[]} */ (origins));
    return session;
  }


  /** @param {Engine} engine @param {ContextOptions} options @param {string} logFile */
  static async start(engine, options, logFile) {
    // Each WebKitGTK browser on an X display of its own: on a shared display (two test files at
    // once, no window manager) a window that opens takes the focus from the other one, whose
    // document then has no focus and lets keys and typed text fall on nothing.
    const display = engine.name === 'webkit' ? await startXvfb(logFile) : null;
    if (engine.name === 'webkit' && !display && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
      throw new Error('WebKitGTK needs a display: install Xvfb, or run the tests under xvfb-run');
    }
    const port = await freePort();
    // The driver writes to the log file itself: a pipe would break when this process ends first.
    const log = openSync(logFile, 'a');
    const child = spawn(engine.driver, engine.driverArgs(port), {
      env: { ...process.env, ...engine.driverEnv(options), ...(display ? { DISPLAY: display.name } : {}) },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    if (display) child.once('exit', () => display.server.kill());
    // A test process that ends early (a failure in `before`, a time-out) takes its driver along.
    const stop = () => { child.kill(); display?.server.kill(); };
    process.once('exit', stop);
    child.once('exit', () => process.off('exit', stop));
    let exited = null;
    child.once('error', (e) => { exited = e.message; });
    child.once('exit', (code) => { exited = `exited with status ${code}`; });
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (exited) throw new Error(`${engine.driver} could not start (${exited}); see ${logFile}`);
      try {
        const res = await fetch(`${base}/status`);
        if (res.ok) break;
      } catch { /* not listening yet */ }
      if (Date.now() > deadline) { child.kill(); throw new Error(`${engine.driver} did not answer on port ${port} within 20 s; see ${logFile}`); }
      await sleep(100);
    }
    const session = new Session(base, child);
    const created = await session.request('POST', '/session', {
      capabilities: { alwaysMatch: { ...engine.capabilities(options), timeouts: { script: 120_000, pageLoad: 60_000, implicit: 0 } } },
    }, 60_000).catch((e) => { child.kill(); throw e; });
    session.id = created.sessionId;
    return session;
  }

  /** @param {string} base @param {import('node:child_process').ChildProcess | null} child  null: leased from the pool */
  constructor(base, child) {
    this.base = base;
    this.child = child;
    this.id = '';
    /** The origins its pages were served from (`Context.proxyFor`), over every process that used it. */
    /** @type {Set<string>} */
    this.origins = new Set();
    /** @type {Promise<unknown>} */
    this.queue = Promise.resolve();
  }

  /** One HTTP request to the driver; resolves to the response's `value`. */
  async request(method, url, body, timeout = 150_000) {
    const res = await fetch(`${this.base}${url}`, {
      method,
      signal: AbortSignal.timeout(timeout),
      headers: body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json;
    try { json = JSON.parse(text); } catch { throw new Error(`WebDriver ${method} ${url}: HTTP ${res.status}, not JSON: ${text.slice(0, 200)}`); }
    const value = json?.value;
    if (!res.ok || (value && typeof value === 'object' && 'error' in value)) {
      throw new WebDriverError(value?.error ?? `HTTP ${res.status}`, value?.message ?? text.slice(0, 300));
    }
    return value;
  }

  /** A session command; commands of one session run one at a time, in the order issued. */
  command(method, suffix, body) {
    // Where the command was issued: the driver's answer comes on a task of its own, so an error
    // thrown there would name no test line.
    const issued = new Error(`${method} ${suffix}`);
    const run = () => this.request(method, `/session/${this.id}${suffix}`, body);
    const next = this.queue.then(run, run).catch((/** @type {unknown} */ e) => {
      if (e instanceof Error) e.stack = `${e.stack}\n  issued (${method} ${suffix}):\n${issued.stack?.split('\n').slice(1).join('\n')}`;
      throw e;
    });
    this.queue = next.catch(() => {});
    return next;
  }

  /**
   * Makes the session ready for another page (`WebDriverBrowser.idle`); false when that fails
   * within a few seconds, and the session should be ended instead.
   */
  async reset() {
    if (!this.id) return false;
    const within = (/** @type {number} */ ms) => (/** @type {string} */ method, /** @type {string} */ suffix, /** @type {unknown} */ body) =>
      this.request(method, `/session/${this.id}${suffix}`, body, ms);
    const quick = within(10_000);
    try {
      await this.queue;
      await quick('POST', '/alert/dismiss', {}).catch(() => {});
      await quick('DELETE', '/actions');
      const handles = /** @type {string[]} */ (await quick('GET', '/window/handles'));
      for (const handle of handles.slice(1)) {
        await quick('POST', '/window', { handle });
        await quick('DELETE', '/window');
      }
      await quick('POST', '/window', { handle: handles[0] });
      // The origin is never used again (`Context.proxyFor`); its storage is emptied anyway.
      await quick('POST', '/execute/sync', { script: 'try { localStorage.clear(); sessionStorage.clear(); } catch (e) { /* about:blank, or storage refused */ }', args: [] });
      await quick('POST', '/url', { url: 'about:blank' });
      return (await quick('GET', '/url')) === 'about:blank';
    } catch {
      return false;
    }
  }

  /** Gives a leased session back to the pool, to keep (`reusable`) or to end. @param {boolean} reusable */
  async giveBack(reusable) {
    const id = this.id;
    this.id = '';
    await askPool('release', { id, reusable, origins: [...this.origins] });
  }

  async close() {
    if (!this.child) {
      if (this.id) await this.giveBack(false).catch(() => {});
      return;
    }
    if (this.id) await this.request('DELETE', `/session/${this.id}`).catch(() => {});
    this.id = '';
    this.child.kill();
  }
}

// The script the proxy adds to every HTML page: records what Playwright reports as `console`
// (type error) and `pageerror` events, for the adapter to drain.
const MONITOR_SCRIPT = `(() => {
  const seen = [];
  Object.defineProperty(window, '__e2eProblems', { value: seen });
  const show = (a) => {
    if (typeof a === 'string') return a;
    if (a instanceof Error) return String(a);
    try { return JSON.stringify(a); } catch { return String(a); }
  };
  const original = console.error;
  console.error = function (...args) {
    seen.push({ kind: 'console', text: args.map(show).join(' ') });
    return original.apply(this, args);
  };
  addEventListener('error', (e) => {
    if (e.target instanceof Element) return; // a failed resource: the proxy saw its status
    seen.push({ kind: 'pageerror', text: e.error?.message ?? e.message });
  }, true);
  addEventListener('unhandledrejection', (e) => {
    seen.push({ kind: 'pageerror', text: e.reason?.message ?? String(e.reason) });
  });
})();
`;

// Put in front of worker scripts: the same records, posted to the proxy.
const WORKER_MONITOR = `(() => {
  const report = (kind, text) => {
    fetch('${REPORT_PATH}', { method: 'POST', body: JSON.stringify({ kind, text }) }).catch(() => {});
  };
  const show = (a) => {
    if (typeof a === 'string') return a;
    if (a instanceof Error) return String(a);
    try { return JSON.stringify(a); } catch { return String(a); }
  };
  const original = console.error;
  console.error = function (...args) {
    report('console', args.map(show).join(' '));
    return original.apply(this, args);
  };
  self.addEventListener('error', (e) => report('pageerror', e.error?.message ?? e.message));
  self.addEventListener('unhandledrejection', (e) => report('pageerror', e.reason?.message ?? String(e.reason)));
})();
`;

/**
 * A proxy in front of one origin that adds the monitor script to HTML pages and reports every
 * response and failed request to `report`.
 */
async function startProxy(upstream, report) {
  const target = new URL(upstream);
  const host = target.hostname === 'localhost' ? '127.0.0.1' : target.hostname;
  const server = http.createServer((req, res) => {
    const seenAs = `http://127.0.0.1:${port}${req.url}`;
    if (req.url === MONITOR_PATH) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      res.end(MONITOR_SCRIPT);
      return;
    }
    if (req.url === REPORT_PATH && req.method === 'POST') {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        try {
          const { kind, text } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          if (kind === 'console' || kind === 'pageerror') report({ kind, text: String(text) });
        } catch { /* not a report */ }
        res.writeHead(204);
        res.end();
      });
      return;
    }
    const dest = req.headers['sec-fetch-dest'];
    const isWorker = dest === 'worker' || dest === 'sharedworker';
    const headers = { ...req.headers, host: target.host };
    delete headers['accept-encoding'];
    const forward = http.request({ host, port: target.port, method: req.method, path: req.url, headers }, (up) => {
      const status = up.statusCode ?? 0;
      const upHeaders = { ...up.headers };
      report({ kind: 'response', url: seenAs, status, headers: upHeaders });
      const type = String(upHeaders['content-type'] ?? '');
      const isHtml = type.startsWith('text/html');
      const isWorkerScript = isWorker && status === 200 && /javascript/.test(type);
      if (isHtml || isWorkerScript) {
        const chunks = [];
        up.on('data', (c) => chunks.push(c));
        up.on('end', () => {
          let body = Buffer.concat(chunks).toString('utf8');
          if (isWorkerScript) {
            body = `${WORKER_MONITOR}${body}`;
          } else {
            const tag = `<script src="${MONITOR_PATH}"></script>`;
            body = /<head[^>]*>/i.test(body) ? body.replace(/<head[^>]*>/i, (h) => `${h}${tag}`) : `${tag}${body}`;
          }
          delete upHeaders['content-length'];
          res.writeHead(status, { ...upHeaders, 'content-length': Buffer.byteLength(body) });
          res.end(body);
        });
      } else {
        res.writeHead(status, upHeaders);
        up.pipe(res);
      }
    });
    forward.on('error', (e) => {
      report({ kind: 'requestfailed', url: seenAs, text: e.message });
      res.destroy();
    });
    req.pipe(forward);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const port = /** @type {net.AddressInfo} */ (server.address()).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    upstreamOrigin: target.origin,
    close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done(undefined)); }),
  };
}

// In-page helpers, sent with every script that needs them: resolve a locator (a list of steps,
// each a CSS selector with Playwright's `:has-text("…")` allowed, or `first`) to elements.
const RESOLVE = `function __resolve(steps) {
  let found = [document];
  for (const step of steps) {
    if (step.nth !== undefined) { const e = found.at(step.nth); found = e ? [e] : []; continue; }
    const next = [];
    for (const root of found) {
      const m = /^(.*?):has-text\\("([^"]*)"\\)(.*)$/.exec(step.css);
      let els;
      if (m) {
        const wanted = m[2].toLowerCase();
        const scope = root === document ? document.documentElement : root;
        const base = [...(m[1] ? root.querySelectorAll(m[1]) : [scope])]
          .filter((e) => (e.textContent || '').replace(/\\s+/g, ' ').toLowerCase().includes(wanted));
        els = m[3].trim() ? base.flatMap((b) => [...b.querySelectorAll(':scope ' + m[3].trim())]) : base;
      } else {
        els = [...root.querySelectorAll(step.css)];
      }
      for (const e of els) if (!next.includes(e)) next.push(e);
    }
    found = next;
  }
  return found;
}
function __visible(e) {
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
}`;

/**
 * A minimal `ConsoleMessage` / `Response` / `Request` as Playwright's listeners receive them.
 * @returns {[string | null, any]}
 */
function playwrightEvent(event) {
  switch (event.kind) {
    case 'console': return ['console', { type: () => 'error', text: () => event.text }];
    case 'pageerror': return ['pageerror', new Error(event.text)];
    case 'response': return ['response', { url: () => event.url, status: () => event.status, headers: () => event.headers }];
    case 'requestfailed': return ['requestfailed', { url: () => event.url, failure: () => ({ errorText: event.text }) }];
    default: return [null, null];
  }
}

const KEYS = {
  Control: '\uE009', Shift: '\uE008', Alt: '\uE00A', Meta: '\uE03D',
  Backspace: '\uE003', Tab: '\uE004', Enter: '\uE007', Escape: '\uE00C', Space: ' ',
  PageUp: '\uE00E', PageDown: '\uE00F', End: '\uE010', Home: '\uE011',
  ArrowLeft: '\uE012', ArrowUp: '\uE013', ArrowRight: '\uE014', ArrowDown: '\uE015', Delete: '\uE017',
  F1: '\uE031', F2: '\uE032', F3: '\uE033', F4: '\uE034', F5: '\uE035', F6: '\uE036',
  F7: '\uE037', F8: '\uE038', F9: '\uE039', F10: '\uE03A', F11: '\uE03B', F12: '\uE03C',
};

/** WebDriver key value of one Playwright key name ("Control", "A", "Delete", "e"). */
function keyValue(name) {
  if (name in KEYS) return KEYS[name];
  if (name.length === 1) return name.toLowerCase();
  throw new Error(`key "${name}" is not supported by the WebDriver adapter`);
}

class Locator {
  /** @param {Page} page @param {{ css?: string, nth?: number }[]} steps */
  constructor(page, steps) {
    this.page = page;
    this.steps = steps;
  }

  locator(css) { return new Locator(this.page, [...this.steps, { css }]); }
  nth(index) { return new Locator(this.page, [...this.steps, { nth: index }]); }
  first() { return this.nth(0); }
  last() { return this.nth(-1); }
  toString() { return this.steps.map((s) => (s.nth !== undefined ? `nth(${s.nth})` : s.css)).join(' >> '); }

  count() {
    return this.page.script(`return __resolve(arguments[0]).length;`, [this.steps]);
  }

  /**
   * Waits (up to 30 s, as Playwright does) until the locator matches exactly one element (or,
   * for `visible`, one visible element), then runs `body` with it as `el` and `arguments[1]`.
   */
  async withElement(body, arg, { visible = false, timeout = DEFAULT_TIMEOUT } = {}) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const r = await this.page.script(
        `const all = __resolve(arguments[0]);
         if (all.length > 1) return { many: all.length };
         const el = all[0];
         if (!el || (arguments[2] && !__visible(el))) return { wait: true };
         return { value: (() => { ${body} })() };`, [this.steps, arg, visible]);
      if (r.many) throw new Error(`strict mode: ${this} matches ${r.many} elements`);
      if (!r.wait) return r.value;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${this}${visible ? ' to be visible' : ''}`);
      await sleep(100);
    }
  }

  /** As Playwright: at the element's centre, or at `position` from its top-left corner. */
  async click({ timeout = DEFAULT_TIMEOUT, position = /** @type {{ x: number, y: number } | undefined} */ (undefined) } = {}) {
    if (position) {
      const [x, y] = await this.withElement(`el.scrollIntoView({ block: 'center', inline: 'center' });
        const r = el.getBoundingClientRect(); return [r.x, r.y];`, null, { visible: true, timeout });
      return this.page.mouse.click(x + position.x, y + position.y);
    }
    const deadline = Date.now() + timeout;
    for (;;) {
      const ref = await this.withElement('el.scrollIntoView({ block: "center", inline: "center" }); return el;', null, { visible: true, timeout });
      try {
        await this.page.session.command('POST', `/element/${ref[ELEMENT_KEY]}/click`, {});
        return;
      } catch (e) {
        const retry = ['element click intercepted', 'element not interactable', 'stale element reference'].includes(e.error);
        if (!retry || Date.now() > deadline) throw e;
        await sleep(100);
      }
    }
  }

  /** As Playwright: sets the value at once and fires `input` and `change`. */
  fill(value) {
    return this.withElement(`el.focus();
      el.value = arguments[1];
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));`, value, { visible: true });
  }

  async selectOption(value) {
    const chosen = await this.withElement(`const o = [...el.options].find((x) => x.value === arguments[1] || x.label === arguments[1]);
      if (!o) return null;
      el.value = o.value;
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
      return o.value;`, value, { visible: true });
    if (chosen === null) throw new Error(`${this} has no option "${value}"`);
    return [chosen];
  }

  textContent() { return this.withElement('return el.textContent;'); }
  innerHTML() { return this.withElement('return el.innerHTML;'); }
  innerText() { return this.withElement('return el.innerText;'); }
  isChecked() { return this.withElement('return !!el.checked;'); }
  async isVisible() {
    return this.page.script('const all = __resolve(arguments[0]); return all.length === 1 && __visible(all[0]);', [this.steps]);
  }

  async waitFor({ state = 'visible', timeout = DEFAULT_TIMEOUT } = {}) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const ok = await this.page.script(`const all = __resolve(arguments[0]);
        if (arguments[1] === 'attached') return all.length > 0;
        if (arguments[1] === 'detached') return all.length === 0;
        if (arguments[1] === 'hidden') return !all.some(__visible);
        return all.some(__visible);`, [this.steps, state]);
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${this} to be ${state}`);
      await sleep(100);
    }
  }

  /** As Playwright: an event of the type's class, bubbling, cancelable and composed. */
  dispatchEvent(type, init = {}) {
    return this.withElement(`const [type, init] = arguments[1];
      const options = { bubbles: true, cancelable: true, composed: true, ...init };
      const Kind = /^(click|dblclick|mouse|contextmenu)/.test(type) ? MouseEvent
        : /^pointer/.test(type) ? PointerEvent : /^key/.test(type) ? KeyboardEvent
        : /^(focus|blur)/.test(type) ? FocusEvent : Event;
      el.dispatchEvent(new Kind(type, options));`, [type, init]);
  }

  /** Moves the mouse to the element's centre (scrolled into view). */
  async hover({ timeout = DEFAULT_TIMEOUT } = {}) {
    const c = await this.withElement(`el.scrollIntoView({ block: 'center', inline: 'center' });
      const r = el.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];`, null, { visible: true, timeout });
    await this.page.mouse.move(c[0], c[1]);
  }

  async check() { if (!(await this.isChecked())) await this.click(); }
  async uncheck() { if (await this.isChecked()) await this.click(); }

  /** Focuses the element, then presses the key combination. */
  async press(combo) {
    await this.withElement('el.focus();', null, { visible: true });
    await this.page.keyboard.press(combo);
  }
  getAttribute(name) { return this.withElement('return el.getAttribute(arguments[1]);', name); }
  inputValue() { return this.withElement('return el.value;'); }
  isDisabled() { return this.withElement('return !!el.disabled;'); }
  boundingBox() {
    return this.withElement(`if (!__visible(el)) return null;
      const r = el.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height };`);
  }
  evaluate(fn, arg) { return this.withElement(`return (${fn})(el, arguments[1]);`, arg); }
}

class Page {
  /** @param {Context} context */
  constructor(context) {
    this.context = context;
    this.session = context.session;
    /** @type {Map<string, ((value: any) => void)[]>} */
    this.listeners = new Map();
    this.closed = false;
    this.keyboard = {
      press: (/** @type {string} */ combo) => this.press(combo),
      insertText: (/** @type {string} */ text) => this.insertText(text),
      type: (/** @type {string} */ text) => this.typeText(text),
      down: (/** @type {string} */ key) => this.keyActions([{ type: 'keyDown', value: keyValue(key) }]),
      up: (/** @type {string} */ key) => this.keyActions([{ type: 'keyUp', value: keyValue(key) }]),
    };
    this.mouse = {
      move: (/** @type {number} */ x, /** @type {number} */ y) => this.moveMouse(x, y),
      click: (/** @type {number} */ x, /** @type {number} */ y) => this.mouseActions([
        this.pointerTo(x, y), { type: 'pointerDown', button: 0 }, { type: 'pointerUp', button: 0 }]),
      down: () => this.mouseActions([{ type: 'pointerDown', button: 0 }]),
      up: () => this.mouseActions([{ type: 'pointerUp', button: 0 }]),
    };
  }

  on(event, listener) {
    if (!['console', 'pageerror', 'response', 'requestfailed'].includes(event)) {
      throw new Error(`page.on('${event}') is not supported by the WebDriver adapter`);
    }
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }

  emit(event) {
    const [name, value] = playwrightEvent(event);
    for (const l of (name && this.listeners.get(name)) ?? []) l(value);
  }

  /**
   * Runs a script body in the page (with RESOLVE's helpers); also drains the problems the
   * monitor recorded since the last call. A returned promise is awaited by the driver.
   */
  async script(body, args = []) {
    const wrapped = `${RESOLVE}
      const __drain = () => (window.__e2eProblems ? window.__e2eProblems.splice(0) : []);
      const __value = (function () { ${body} }).apply(null, arguments);
      return Promise.resolve(__value).then((v) => [v, __drain()], (e) => [{ __thrown: String(e && e.stack || e) }, __drain()]);`;
    const [value, problems] = await this.session.command('POST', '/execute/sync', { script: wrapped, args });
    for (const p of problems ?? []) this.emit(p);
    if (value && typeof value === 'object' && '__thrown' in value) throw new Error(`evaluate: ${value.__thrown}`);
    return value;
  }

  /** Collects what the monitor recorded (before the document goes away). */
  drain() { return this.script('return null;').catch(() => {}); }

  async goto(url) {
    const target = new URL(url);
    const proxy = await this.context.proxyFor(target.origin);
    await this.drain();
    await this.session.command('POST', '/url', { url: `${proxy.origin}${target.pathname}${target.search}${target.hash}` });
  }

  async reload() {
    await this.drain();
    await this.session.command('POST', '/refresh', {});
  }

  url() { return this.session.command('GET', '/url'); }

  evaluate(fn, arg) {
    if (typeof fn === 'string') return this.script(`return eval(arguments[0]);`, [fn]);
    return this.script(`return (${fn})(arguments[0]);`, [arg]);
  }

  $$eval(css, fn, arg) {
    return this.script(`return (${fn})([...document.querySelectorAll(arguments[0])], arguments[1]);`, [css, arg]);
  }

  locator(css) { return new Locator(this, [{ css }]); }

  async waitForSelector(css, { timeout = DEFAULT_TIMEOUT, state = 'visible' } = {}) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const ok = await this.script(`const all = __resolve([{ css: arguments[0] }]);
        if (arguments[1] === 'attached') return all.length > 0;
        if (arguments[1] === 'detached') return all.length === 0;
        if (arguments[1] === 'hidden') return !all.some(__visible);
        return all.some(__visible);`, [css, state]);
      if (ok) return null;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for selector "${css}" (${state})`);
      await sleep(100);
    }
  }

  async waitForFunction(fn, arg, { timeout = DEFAULT_TIMEOUT } = {}) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const v = await this.script(`return (${fn})(arguments[0]);`, [arg]);
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for function ${String(fn).slice(0, 120)}`);
      await sleep(100);
    }
  }

  waitForTimeout(ms) { return sleep(ms); }

  /** Only `download`: see the header comment. */
  async waitForEvent(event, { timeout = DEFAULT_TIMEOUT } = {}) {
    if (event !== 'download') throw new Error(`page.waitForEvent('${event}') is not supported by the WebDriver adapter`);
    await this.script(`if (window.__e2eDownloads) return;
      const got = [];
      Object.defineProperty(window, '__e2eDownloads', { value: got });
      const click = HTMLAnchorElement.prototype.click;
      HTMLAnchorElement.prototype.click = function () {
        if (!this.hasAttribute('download')) return click.call(this);
        const name = this.download;
        const entry = { name, bytes: null, error: null };
        got.push(entry);
        fetch(this.href).then((r) => r.arrayBuffer()).then((b) => { entry.bytes = Array.from(new Uint8Array(b)); }, (e) => { entry.error = String(e); });
      };`);
    const deadline = Date.now() + timeout;
    for (;;) {
      const entry = await this.script(`const e = window.__e2eDownloads[0];
        if (!e || (e.bytes === null && e.error === null)) return null;
        return window.__e2eDownloads.shift();`);
      if (entry) {
        if (entry.error) throw new Error(`download of ${entry.name} failed in the page: ${entry.error}`);
        const bytes = Uint8Array.from(entry.bytes);
        return {
          suggestedFilename: () => entry.name,
          path: async () => {
            const dir = await mkdtemp(path.join(os.tmpdir(), 'tgsi-download-'));
            const file = path.join(dir, entry.name);
            await writeFile(file, bytes);
            return file;
          },
        };
      }
      if (Date.now() > deadline) throw new Error(`no download within ${timeout} ms (the adapter sees clicks on <a download> made by the page's script)`);
      await sleep(100);
    }
  }

  async press(combo) {
    const names = combo.split('+');
    const keys = names.map(keyValue);
    await this.keyActions([
      ...keys.map((value) => ({ type: 'keyDown', value })),
      ...keys.reverse().map((value) => ({ type: 'keyUp', value })),
    ]);
  }

  /** Key by key, as Playwright's `keyboard.type` (the editor reacts to each key). */
  typeText(text) {
    return this.keyActions([...text].flatMap((ch) => {
      const value = ch === '\n' ? KEYS.Enter : ch;
      return [{ type: 'keyDown', value }, { type: 'keyUp', value }];
    }));
  }

  keyActions(actions) {
    return this.session.command('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions }] });
  }

  pointerTo(x, y) {
    return { type: 'pointerMove', duration: 0, origin: 'viewport', x: Math.round(x), y: Math.round(y) };
  }

  mouseActions(actions) {
    return this.session.command('POST', '/actions', {
      actions: [{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions }],
    });
  }

  /** As Playwright: the text arrives as one input (no key events), here by `insertText`. */
  async insertText(text) {
    const done = await this.script(`return document.execCommand('insertText', false, arguments[0]);`, [text]);
    if (!done) throw new Error('keyboard.insertText: the focused element refused the insertText command');
  }

  async moveMouse(x, y) {
    await this.mouseActions([this.pointerTo(x, y)]);
  }

  /**
   * A screenshot of the viewport (`fullPage` is not available in classic WebDriver).
   * @param {{ path?: string, fullPage?: boolean }} [options]
   */
  async screenshot({ path: file } = {}) {
    if (!this.context.browser.engine.screenshotAtNextPaint) return this.saveScreenshot(file);
    // A page where nothing changes never paints again: a 1-pixel element switching between two
    // fully transparent colours every frame makes it paint and shows nothing.
    await this.script(`if (window.__e2ePaint) return;
      const dot = document.createElement('div');
      dot.style.cssText = 'position: fixed; left: 0; top: 0; width: 1px; height: 1px; pointer-events: none; background: rgba(0, 0, 0, 0)';
      document.documentElement.append(dot);
      const until = performance.now() + 30000;
      let odd = false;
      const tick = () => {
        if (!window.__e2ePaint || performance.now() > until) { dot.remove(); window.__e2ePaint = null; return; }
        odd = !odd;
        dot.style.backgroundColor = odd ? 'rgba(255, 255, 255, 0)' : 'rgba(0, 0, 0, 0)';
        requestAnimationFrame(tick);
      };
      window.__e2ePaint = dot;
      requestAnimationFrame(tick);`).catch(() => {});
    try {
      return await this.saveScreenshot(file);
    } finally {
      await this.script('window.__e2ePaint = null;').catch(() => {});
    }
  }

  /** The viewport as PNG bytes, also written to `file` when given. @param {string} [file] */
  async saveScreenshot(file) {
    const png = Buffer.from(await this.session.command('GET', '/screenshot'), 'base64');
    if (file) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, png);
    }
    return png;
  }

  /** Sizes the window so that the viewport (innerWidth × innerHeight) is `size`. */
  async setViewportSize(size) {
    let want = { ...size };
    const deadline = Date.now() + 10_000;
    for (;;) {
      await this.session.command('POST', '/window/rect', want);
      // The window (WebKitGTK's under an X server without a window manager) may take its new
      // size a moment after the command returns.
      const asked = Date.now();
      let seen;
      for (;;) {
        seen = await this.script('return [innerWidth, innerHeight];');
        if (seen[0] === size.width && seen[1] === size.height) return;
        if (Date.now() - asked > 500) break;
        await sleep(50);
      }
      if (Date.now() > deadline) throw new Error(`cannot size the viewport to ${size.width}x${size.height} (got ${seen[0]}x${seen[1]})`);
      want = { width: want.width + size.width - seen[0], height: want.height + size.height - seen[1] };
    }
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    await this.drain();
    if (this.context.ownedByPage) await this.context.close();
  }
}

/** The origins of every proxy started in this process (`Context.proxyFor`). */
const USED_PROXY_ORIGINS = new Set();

class Context {
  /** @param {WebDriverBrowser} browser @param {Session} session @param {ContextOptions} options */
  constructor(browser, session, options) {
    this.browser = browser;
    this.session = session;
    this.options = options;
    /** @type {Page | null} */
    this.page = null;
    this.ownedByPage = false;
    /** @type {Awaited<ReturnType<typeof startProxy>> | null} */
    this.proxy = null;
  }

  async proxyFor(origin) {
    if (this.proxy && this.proxy.upstreamOrigin === origin) return this.proxy;
    await this.proxy?.close();
    // A port this process, or any process that used this session, has proxied before would be
    // an origin whose storage an earlier page of a reused session may have filled: take another.
    for (let tries = 0; ; tries++) {
      const proxy = await startProxy(origin, (event) => this.page?.emit(event));
      const used = USED_PROXY_ORIGINS.has(proxy.origin) || this.session.origins.has(proxy.origin);
      if (!used || tries >= 20) {
        USED_PROXY_ORIGINS.add(proxy.origin);
        this.session.origins.add(proxy.origin);
        this.proxy = proxy;
        return proxy;
      }
      await proxy.close();
    }
  }

  async newPage() {
    if (this.page) throw new Error('the WebDriver adapter has one page per context: use browser.newPage() or another context');
    this.page = new Page(this);
    await this.page.setViewportSize(this.options.viewport ?? DEFAULT_VIEWPORT);
    return this.page;
  }

  async close() {
    this.browser.contexts.delete(this);
    if (this.page) this.page.closed = true;
    await this.proxy?.close();
    await this.browser.release(this.session, this.options);
  }
}

/** The part of Playwright's `Browser` the tests use, over WebDriver sessions. */
export class WebDriverBrowser {
  /** @param {Engine} engine @param {string} logFile */
  constructor(engine, logFile) {
    this.engine = engine;
    this.logFile = logFile;
    /** @type {Set<Context>} */
    this.contexts = new Set();
    /**
     * Sessions of closed contexts, ready for the next context with the same start-up options
     * (`sessionKey`). Starting a driver and a browser costs seconds of CPU per page; a reused
     * one is as fresh as the page needs: its document is about:blank (the old page's workers
     * and timers are gone), no key or button is held, it has one window, and the next context
     * reaches the server through a new proxy, on a new port, so it is a new origin: no
     * storage, cache entry or service state of an earlier page is visible to it.
     * @type {Map<string, Session[]>}
     */
    this.idle = new Map();
  }

  /** @param {ContextOptions} [options] */
  async newContext(options = {}) {
    const known = new Set(['viewport', 'colorScheme']);
    for (const k of Object.keys(options)) {
      if (!known.has(k)) throw new Error(`browser.newContext({ ${k} }) is not supported by the WebDriver adapter`);
    }
    const session = this.idle.get(sessionKey(options))?.pop() ?? await Session.lease(this.engine, options, this.logFile);
    const context = new Context(this, session, options);
    this.contexts.add(context);
    return context;
  }

  /**
   * Takes back the session of a closed context: reset (see `idle`) and kept, or, when the
   * reset fails (a page that hangs, a browser that died), ended.
   * @param {Session} session @param {ContextOptions} options
   */
  async release(session, options) {
    if (!session.child) {
      // Leased: reset here, where its last page was driven; the pool keeps it or ends it.
      await session.giveBack(await session.reset());
      return;
    }
    if (await session.reset()) {
      const key = sessionKey(options);
      this.idle.set(key, [...(this.idle.get(key) ?? []), session]);
    } else {
      await session.close();
    }
  }

  async newPage(options = {}) {
    const context = await this.newContext(options);
    context.ownedByPage = true;
    return context.newPage();
  }

  async close() {
    await Promise.all([...this.contexts].map((c) => c.close()));
    const idle = [...this.idle.values()].flat();
    this.idle.clear();
    await Promise.all(idle.map((s) => s.close()));
  }
}

/** What a session is started with (`Engine.capabilities`, `Engine.driverEnv`): the colour scheme. @param {ContextOptions} options */
export function sessionKey(options) {
  return options.colorScheme ?? 'light';
}

/** Starts nothing yet: a context starts a driver and a browser when no idle one is kept. */
export function launchWebDriverBrowser(engineName, logFile) {
  const engine = ENGINES[engineName];
  if (!engine) throw new Error(`unknown browser engine "${engineName}" (chromium, firefox or webkit)`);
  return new WebDriverBrowser(engine, logFile);
}
