// Entry point of the playground page: loads the engine, shows its version and prepares the
// output canvas.

import { engineVersion } from './engine.js';

const versionLabel = document.getElementById('engine-version');
const status = document.getElementById('status');
const canvas = document.getElementById('output');

/** Clears the canvas to a neutral checkerboard: "no image yet". */
function paintPlaceholder(target) {
  const ctx = target.getContext('2d');
  if (!ctx) return;
  const cell = 16;
  for (let y = 0; y < target.height; y += cell) {
    for (let x = 0; x < target.width; x += cell) {
      ctx.fillStyle = ((x + y) / cell) % 2 === 0 ? '#2a2d34' : '#23262c';
      ctx.fillRect(x, y, cell, cell);
    }
  }
}

async function main() {
  paintPlaceholder(canvas);
  try {
    versionLabel.textContent = await engineVersion();
    versionLabel.dataset.state = 'ready';
    status.textContent = 'Engine ready.';
  } catch (err) {
    versionLabel.textContent = 'engine failed to load';
    versionLabel.dataset.state = 'error';
    status.textContent = `The engine could not be loaded: ${err?.message ?? err}`;
    console.error('TGSI Playground: the engine could not be loaded', err);
  }
}

main();
