// sphinx-tgsi's shader check, run by Node: one JSON request per line on stdin
// ({fs, vs, constants}), one JSON answer per line on stdout ({fs: [...], vs: [...],
// link: [...], constants: [...]}, each a list of diagnostics {severity, code, message, line,
// column}). The checks are the widget's own lean engine (the package folder is argv[2]):
// `validate` for each shader, `link` for a pair, `parseConst` for each constant.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const pkg = path.join(process.argv[2] ?? '.', 'pkg');
const engine = await import(pathToFileURL(path.join(pkg, 'tgsi.js')).href);
engine.initSync({ module: readFileSync(path.join(pkg, 'tgsi_bg.wasm')) });

/** @param {any} req */
function check(req) {
  const out = { fs: engine.validate(req.fs ?? ''), vs: [], link: [], constants: [] };
  if (req.vs) {
    out.vs = engine.validate(req.vs);
    const errors = [...out.fs, ...out.vs].some((d) => d.severity === 'error');
    if (!errors) {
      const linked = engine.link(req.vs, req.fs ?? '');
      out.link = [...(linked.vs ?? []), ...(linked.fs ?? [])];
    }
  }
  for (const c of req.constants ?? []) {
    const parsed = engine.parseConst(c);
    if (!parsed.ok) out.constants.push({ severity: 'error', code: 'constant', message: parsed.error, line: 0, column: 0 });
  }
  return out;
}

for await (const line of createInterface({ input: process.stdin })) {
  let answer;
  try {
    answer = check(JSON.parse(line));
  } catch (e) {
    answer = { error: e instanceof Error ? e.message : String(e) };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
