// @ts-check
// Runs the build steps of `npm start` and `npm test` (scripts/start.mjs, scripts/run-tests.mjs):
// each step is one command whose output goes to a log file; a step starts as soon as the steps
// it needs have succeeded, so independent steps run side by side (wasm-bindgen-cli compiles
// while cargo builds the engine). One line per step when it starts and one when it ends, with
// its wall time: `[start 3/9] cargo build (wasm32, page engine) … 142 s`. Node built-ins only:
// it runs before `npm ci`.

import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * @typedef {object} Step
 * @property {string} id          short name; the log is LOG_DIR/ID.log
 * @property {string} label       what the progress line says
 * @property {string[]} command   program and arguments, run from the repository root
 * @property {string[]} [needs]   ids of steps that must have succeeded first
 * @property {string[]} [after]   ids of steps that must have ended first, however they ended
 *                                (order only: cargo builds one thing at a time in a target dir)
 * @property {Record<string, string>} [env]  added to the environment
 */

/**
 * @typedef {object} StepResult
 * @property {string} id
 * @property {string} label
 * @property {'ok' | 'failed' | 'not run'} outcome
 * @property {number} seconds     wall time (0 when not run)
 * @property {string} log         the log's path
 * @property {string} [why]       why it failed or did not run
 */

/** @param {number} ms */
export function seconds(ms) {
  const s = ms / 1000;
  return s < 10 ? `${s.toFixed(1)} s` : `${Math.round(s)} s`;
}

/**
 * Runs a command with its output (stdout and stderr) appended to `log`; resolves to its exit
 * status (a signal counts as 128 + its number, as in a shell).
 * @param {string[]} command
 * @param {string} log
 * @param {Record<string, string>} [env]
 * @param {(chunk: Buffer) => void} [echo]  also given every chunk of output
 * @returns {Promise<number>}
 */
export function runLogged(command, log, env = {}, echo) {
  return new Promise((resolve) => {
    const out = createWriteStream(log, { flags: 'a' });
    const child = spawn(command[0], command.slice(1), {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    /** @param {Buffer} chunk */
    const take = (chunk) => {
      out.write(chunk);
      if (echo) echo(chunk);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (e) => {
      out.write(`\ncannot run ${command[0]}: ${e.message}\n`);
      out.end(() => resolve(127));
    });
    child.on('close', (code, signal) => {
      const status = code ?? 128 + (signal ? ({ SIGINT: 2, SIGKILL: 9, SIGTERM: 15 })[signal] ?? 1 : 1);
      out.end(() => resolve(status));
    });
  });
}

/** The last `n` lines of a file (empty when it cannot be read). @param {string} file @param {number} n */
export function tail(file, n) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n');
  } catch {
    return '';
  }
}

/**
 * Runs the steps, each as soon as its needs have succeeded; a step whose need failed does not
 * run. Prints `[PREFIX i/N] label …` when a step starts and `… 142 s` (or the failure and the
 * end of its log) when it ends.
 * @param {string} prefix   e.g. `start`
 * @param {Step[]} steps
 * @param {string} logDir
 * @param {(result: StepResult) => void} [onDone]  called as each step ends (or is not run)
 * @returns {Promise<StepResult[]>}  in the order of `steps`
 */
export async function runSteps(prefix, steps, logDir, onDone) {
  mkdirSync(logDir, { recursive: true });
  const n = steps.length;
  /** @type {Map<string, StepResult>} */
  const done = new Map();
  /** @type {Map<string, Promise<void>>} */
  const running = new Map();
  const bold = process.stdout.isTTY ? ['\x1b[1m', '\x1b[0m'] : ['', ''];
  /** @param {Step} step */
  const tag = (step) => `${bold[0]}[${prefix} ${steps.indexOf(step) + 1}/${n}]${bold[1]}`;
  for (const step of steps) {
    for (const need of [...(step.needs ?? []), ...(step.after ?? [])]) {
      if (!steps.some((s) => s.id === need)) throw new Error(`step ${step.id} needs an unknown step ${need}`);
    }
  }

  /** @param {Step} step */
  const start = (step) => {
    const log = path.join(logDir, `${step.id}.log`);
    const failedNeed = (step.needs ?? []).find((id) => done.get(id)?.outcome !== 'ok');
    if (failedNeed) {
      const why = `not run: ${failedNeed} did not succeed`;
      done.set(step.id, { id: step.id, label: step.label, outcome: 'not run', seconds: 0, log, why });
      console.log(`${tag(step)} ${step.label} … ${why}`);
      onDone?.(done.get(step.id));
      return Promise.resolve();
    }
    console.log(`${tag(step)} ${step.label} …`);
    const t0 = Date.now();
    // A fresh log per run.
    createWriteStream(log).end();
    return runLogged(step.command, log, step.env).then((status) => {
      const secs = (Date.now() - t0) / 1000;
      if (status === 0) {
        done.set(step.id, { id: step.id, label: step.label, outcome: 'ok', seconds: secs, log });
        console.log(`${tag(step)} ${step.label} … ${seconds(secs * 1000)}`);
      } else {
        const why = `exited with status ${status}`;
        done.set(step.id, { id: step.id, label: step.label, outcome: 'failed', seconds: secs, log, why });
        console.log(`${tag(step)} ${step.label} … FAILED after ${seconds(secs * 1000)} (${why}; log: ${path.relative(ROOT, log)})`);
        const end = tail(log, 25);
        if (end) console.log(end.replace(/^/gm, '    '));
      }
      onDone?.(done.get(step.id));
    });
  };

  for (;;) {
    const ready = steps.filter(
      (s) => !done.has(s.id) && !running.has(s.id) && [...(s.needs ?? []), ...(s.after ?? [])].every((id) => done.has(id)),
    );
    for (const step of ready) {
      const p = start(step).then(() => { running.delete(step.id); });
      running.set(step.id, p);
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
  }
  return steps.map((s) => /** @type {StepResult} */ (done.get(s.id)));
}
