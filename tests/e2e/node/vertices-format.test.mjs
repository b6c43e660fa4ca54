// The vertex-data editor's text handling (web/vertices-panel.js), in Node: what the table reads
// from a JSON text and the text it writes back. The page keeps the text; the table is a view.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CUSTOM_MESH, DEFAULT_VERTICES, formatVertices, meshRequest, parseVertices } from '../../../web/vertices-panel.js';

const FILE = {
  attributes: [{ name: 'a_pos', location: 0, components: 2, kind: 'f' }, { name: 'a_id', location: 3, components: 1, kind: 'u' }],
  vertices: [{ a_pos: [-1, -1], a_id: [7] }, { a_pos: [1, -1], a_id: ['0x00000009'] }, { a_pos: [0, 1], a_id: [4294967295] }],
  draws: [{ mode: 'TRIANGLE_FAN', first: 0, count: 3 }],
  front_face: 'CW',
  provoking_vertex: 'FIRST',
  note: 'kept, with "quotes", commas and a: colon',
};

test('a text read by the table and written back holds the same JSON', () => {
  const parsed = parseVertices(JSON.stringify(FILE));
  assert.ok('model' in parsed, 'the table could not read a well-formed file');
  const text = formatVertices(parsed.model);
  assert.deepEqual(JSON.parse(text), FILE);
  // One line per attribute, vertex and draw: line 8 (1-based) is the second vertex.
  assert.equal(text.split('\n')[7], '    {"a_pos": [1, -1], "a_id": ["0x00000009"]},');
});

test('the default custom mesh is a coloured triangle the table can read', () => {
  const parsed = parseVertices(DEFAULT_VERTICES);
  assert.ok('model' in parsed);
  assert.equal(parsed.model.vertices.length, 3);
  assert.deepEqual(parsed.model.draws, [{ mode: 'TRIANGLES', first: 0, count: 3 }]);
});

test('texts the table cannot show give the reason', () => {
  for (const text of ['', '{', '[1, 2]', 'null', '{"attributes": 3}', '{"vertices": [1, 2]}', '{"draws": [[]]}']) {
    const parsed = parseVertices(text);
    assert.ok('problem' in parsed && parsed.problem.length > 0, text);
  }
});

test('the frame request draws the text only with the custom mesh and a vertex shader', () => {
  assert.deepEqual(meshRequest({ useVs: true, mesh: CUSTOM_MESH, vertices: '{}' }), { vertices: '{}' });
  assert.deepEqual(meshRequest({ useVs: true, mesh: CUSTOM_MESH, vertices: '' }), { vertices: DEFAULT_VERTICES });
  assert.deepEqual(meshRequest({ useVs: true, mesh: 'cube', vertices: '{}' }), { mesh: 'cube' });
  assert.deepEqual(meshRequest({ useVs: false, mesh: CUSTOM_MESH, vertices: '{}' }), { mesh: 'fullscreen' });
});
