// @ts-check
// The compiled-output pane: the shader in Mesa's format and its AGAL export (assembly, bytes,
// constant layout, a version choice and the download of the binary).

/** A classic hex dump: offset, 16 bytes, printable characters. */
export function hexDump(bytes) {
  const lines = [];
  for (let off = 0; off < bytes.length; off += 16) {
    const row = bytes.subarray(off, off + 16);
    const hex = [...row].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    lines.push(`${off.toString(16).padStart(6, '0')}  ${hex.padEnd(47, ' ')}`);
  }
  return lines.join('\n');
}

/** Shows Mesa-style formatting of the current tab's shader. */
export function showFormatted(engine, pre, text) {
  try {
    const r = engine.format(text, 'mesa');
    pre.textContent = r.text ?? `The shader does not parse (${r.diagnostics.length} problem${r.diagnostics.length === 1 ? '' : 's'}); see Problems.`;
  } catch (err) {
    pre.textContent = `Formatting failed: ${err?.message ?? err}`;
  }
}

/**
 * Runs the AGAL export of one shader; returns the result (or null) and fills the view.
 * els: {message, asm, layout, hex, download}.
 */
export function showAgal(engine, els, text, version) {
  let r;
  try {
    r = engine.agalExport(text, version);
  } catch (err) {
    r = { ok: false, diagnostics: [{ severity: 'error', code: 'AGAL', message: String(err?.message ?? err), line: 0, column: 0 }] };
  }
  const bytes = r.bytes instanceof Uint8Array ? r.bytes : new Uint8Array(r.bytes ?? []);
  const problems = (r.diagnostics ?? []).filter((d) => d.severity === 'error');
  if (r.ok && bytes.length > 0) {
    els.message.dataset.state = 'ok';
    els.message.textContent = `AGAL version ${r.version}: ${bytes.length} bytes.`;
  } else {
    els.message.dataset.state = 'error';
    els.message.textContent = problems.length
      ? `This shader cannot be exported to AGAL:\n${problems.map((d) => `${d.line ? `line ${d.line}:${d.column}: ` : ''}${d.message} [${d.code}]`).join('\n')}`
      : 'This shader cannot be exported to AGAL.';
  }
  els.asm.textContent = r.assembly ?? '';
  els.layout.textContent = r.layout_text ?? r.layoutText ?? '';
  els.hex.textContent = hexDump(bytes);
  els.download.disabled = !(r.ok && bytes.length > 0);
  return { ...r, bytes };
}

/** Offers bytes as a file download. */
export function download(bytes, name) {
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
