/**
 * Expand or collapse asked of any cell of a tree row goes to the row's expander cell: a GTK 3 tree view expands a
 * row only through its expander column's cell (the one that reads collapsed or expanded), and the "expand or
 * contract" action of its other cells does nothing (a font list's name cell answered "no visible change" twice).
 * The receipt names the cell as asked and the ref acted on ("e5:B1 (e10)").
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FakeWindow } from '../../src/drivers/fake/driver.js';
import type { RawNode } from '../../src/engine/node.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { n } from '../fixtures/engine/build.js';
import { bypassSession, PolicyFake } from '../fixtures/policy/apps.js';

const B = ':1.61';

/** A tree of font families: column A the expander (a check box cell), column B the family's name. */
function fontTree(): { window: FakeWindow; tree: RawNode } {
  const cells: RawNode[] = [];
  const families = ['C059', 'DejaVu Sans'];
  families.forEach((name, row) => {
    cells.push(
      n(B, 10 + row * 2, 'cell', {
        states: ['focusable', 'collapsed', 'checked'],
        actions: ['click', 'toggle', 'expand', 'collapse'],
        cell: { row, col: 0 },
      }),
    );
    cells.push(n(B, 11 + row * 2, 'cell', { name, states: ['focusable'], actions: ['click'], cell: { row, col: 1 } }));
  });
  const tree = n(B, 3, 'tree', { table: { rows: 2, cols: 2 }, states: ['focusable'] }, cells);
  const root = n(B, 1, 'window', { name: 'Font Manager', states: ['active'] }, [tree]);
  return {
    window: {
      info: { id: root.id, title: 'Font Manager', app: 'fonts', pid: 4242, role: 'window', focused: true },
      root,
    },
    tree,
  };
}

test('expand on a tree row\'s name cell expands it through its expander cell; the receipt names both', async () => {
  const { window, tree } = fontTree();
  const fake = new PolicyFake([window]);
  const acted: string[] = [];
  fake.onAct = (p, node) => {
    acted.push(p.id);
    // The row's styles appear under it, as the view shows them once expanded.
    if (p.op === 'expand' && node.states.includes('expanded')) {
      tree.table = { rows: 4, cols: 2 };
      const kids = tree.children!;
      kids.splice(
        4,
        0,
        n(B, 40, 'cell', { cell: { row: 2, col: 0 } }),
        n(B, 41, 'cell', { name: 'Book', cell: { row: 2, col: 1 } }),
        n(B, 42, 'cell', { cell: { row: 3, col: 0 } }),
        n(B, 43, 'cell', { name: 'Bold', cell: { row: 3, col: 1 } }),
      );
    }
  };
  const session = bypassSession(fake, ['fonts']);
  const call = (name: string, params: unknown) =>
    runTool(
      TOOLS.find((t) => t.schema.name === name)!,
      { session },
      params,
    );
  const seen = (await call('computer_observe', {})).text;
  const table = /\[(e\d+)\] tree/.exec(seen)?.[1];
  assert.ok(table, seen);
  const r = await call('computer_act', { actions: [{ ref: `${table}:B2`, op: 'expand' }] });
  assert.deepEqual(acted, [`${B}/org/a11y/atspi/accessible/12`], r.text);
  assert.match(r.text, new RegExp(`^ok expand ${table}:B2 \\(e\\d+\\) · `, 'm'), r.text);
  assert.match(r.text, /Bold/, r.text);
  await session.close();
});
