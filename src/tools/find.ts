import { Type } from '@sinclair/typebox';
import { walk, type RawNode } from '../engine/node.js';
import { redactText } from '../engine/redact.js';
import type { ListFindResult } from '../protocol/methods.js';
import { ROLES } from '../engine/role.js';
import type { SnapshotLine } from '../engine/snapshot.js';
import { deciderPick, tiedCandidates } from './disambiguate.js';
import { findInText, renderTextHit } from './text.js';
import { CAPS, defineTool, DEVICE, ENUM_UNLISTED, PROP_UNLISTED, STRICT } from './tool.js';

export const findTool = defineTool({
  schema: {
    name: 'computer_find',
    title: 'Find elements',
    description: 'Find elements by text and/or role: their refs and where they sit.',
    inputSchema: Type.Object({
      device: DEVICE,
      text: Type.Optional(Type.String({ maxLength: CAPS.text })),
      role: Type.Optional(Type.Union(ROLES.map((r) => Type.Literal(r)), { [ENUM_UNLISTED]: true })),
      app: Type.Optional(Type.String({ maxLength: CAPS.name })),
      window: Type.Optional(Type.String({ maxLength: CAPS.name })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, [PROP_UNLISTED]: true })),
      /** Row (1-based) where the search of long lists goes on, as a time-limited find said. */
      from: Type.Optional(Type.Integer({ minimum: 1, [PROP_UNLISTED]: true })),
    }, STRICT),
    type: 'readOnly',
  },
  async handle({ session, decider, signal }, p, response) {
    if (!p.text && !p.role) { response.error('invalid_params', 'Give text, role or both.'); return; }
    const window = await session.resolveWindow({ ...(p.app !== undefined ? { app: p.app } : {}), ...(p.window !== undefined ? { window: p.window } : {}) });
    const raw = await session.readWindow(window);
    const { full } = session.snapshotOf(raw);
    const text = p.text?.toLowerCase();
    const byRef = new Map(full.elements.map((l) => [l.ref, l]));
    // Text content (documents, terminals, pages) is searched whole and reported by line and offset (tools/text.ts).
    const unsearched = { count: 0 };
    const textHits = p.text ? (await findInText(session, raw, full, p.text, unsearched)).filter((h) => !p.role || h.line.startsWith(`[${h.ref}] ${p.role}`)) : [];
    const inText = new Set(textHits.map((h) => h.ref));
    let hits = full.elements.filter((l) => (!p.role || l.role === p.role) &&
      (!text || (l.name ?? '').toLowerCase().includes(text) || (!inText.has(l.ref) && !l.states.includes('password') && (l.value ?? '').toLowerCase().includes(text))));
    const limit = p.limit ?? 20;
    const total = hits.length + textHits.length;
    const head = `${total} match${total === 1 ? '' : 'es'}${p.text ? ` for ${JSON.stringify(p.text)}` : ''}${p.role ? ` role=${p.role}` : ''} in [${session.windows.refOf(raw.window)}] ${JSON.stringify(redactText(raw.window.title))}`;
    // No hit, or a tie: the decider model (if configured) picks one among at most 20 candidates (seed §10).
    let pick: SnapshotLine | undefined;
    const candidates = decider && p.text && textHits.length === 0
      ? tiedCandidates(p.text, hits, full.elements.filter((l) => (p.role ? l.role === p.role : !!l.name) && l.depth > 0))
      : undefined;
    if (decider && p.text && candidates) {
      const query = `${p.text}${p.role ? ` (role ${p.role})` : ''}`;
      const i = await deciderPick(decider, query, candidates.map((l) => `${l.text}${breadcrumb(l, byRef)}`), signal);
      pick = i === undefined ? undefined : candidates[i];
    }
    if (pick && hits.length === 0) {
      response.add(`${head}; the decider model's pick among ${candidates!.length} ${p.role ? `${p.role} elements` : 'named elements'}:`);
      hits = candidates!;
    } else {
      response.add(head);
    }
    if (pick) hits = [pick, ...hits.filter((l) => l !== pick)];
    for (const l of hits.slice(0, limit)) response.add(`${l.text}${breadcrumb(l, byRef)}${l === pick ? "  (decider's pick)" : ''}`);
    const room = Math.max(0, limit - hits.length);
    for (const h of textHits.slice(0, room)) response.add(renderTextHit(h));
    if (total > limit) response.add(`… ${total - limit} more (narrow with role or a longer text, or raise limit, up to 100)`);
    if (unsearched.count) response.add(`(the text of ${unsearched.count} more elements was not searched; narrow with app/window, or read one with computer_observe scope=eN)`);
    // Long lists show only the rows on screen: search the rest of them in the app (issue 9 item 4).
    if (p.text) for (const line of await offScreenMatches(session, raw.root, full.elements, p.text, limit, p.from, signal)) response.add(line);
  },
});

/** Most cut lists one find searches beyond their rows on screen. */
const MAX_CUT_LISTS = 3;
/** How long one list is searched before the answer says where the search stopped. */
const LIST_FIND_MS = 10_000;

/**
 * Searches the lists whose snapshot holds only the rows on screen (`childRange`) through all their rows
 * (driver `list.find`), and lists the matches that are not on screen, with the scroll that brings each one
 * into view. Drivers without `list.find` (or a failed search) add a line that says so, never a silent 0.
 */
async function offScreenMatches(session: Parameters<typeof findTool.handle>[0]['session'], root: RawNode, elements: readonly SnapshotLine[],
  text: string, limit: number, from: number | undefined, signal?: AbortSignal): Promise<string[]> {
  const cut: RawNode[] = [];
  walk(root, (n) => { if (n.childRange && cut.length < MAX_CUT_LISTS) cut.push(n); });
  const out: string[] = [];
  for (const list of cut) {
    const ref = elements.find((l) => session.refs.lookup(l.ref)?.id === list.id);
    if (!ref) continue;
    const onScreen = new Set((list.children ?? []).map((c) => c.id));
    const label = `${ref.role}${ref.name ? ` ${JSON.stringify(redactText(ref.name).slice(0, 40))}` : ''} [${ref.ref}]`;
    let r: ListFindResult;
    try {
      r = await session.device.call('list.find', { container: list.id, text, limit, deadlineMs: LIST_FIND_MS, ...(from ? { from: from - 1 } : {}) }, LIST_FIND_MS + 5000, signal);
    } catch (e) {
      out.push(`(the ${label} shows only its rows on screen and could not be searched further: ${(e as Error).message.slice(0, 120)})`);
      continue;
    }
    const unit = r.rows ? 'row' : 'item';
    const total = r.total.toLocaleString('en-US');
    const off = r.matches.filter((m) => !onScreen.has(m.node.id));
    for (const m of off) {
      const n = (m.row ?? m.index) + 1;
      const name = m.node.name ? ` ${JSON.stringify(redactText(m.node.name).slice(0, 80))}` : '';
      out.push(`${m.node.role}${name} — ${unit} ${n.toLocaleString('en-US')} of ${total} in ${label}, off-screen; bring it into view: computer_act ref=${ref.ref} op=scroll value="to ${n}"`);
    }
    if (!r.complete) {
      out.push(`(searched ${unit}s ${(r.next - r.scanned + 1).toLocaleString('en-US')}–${r.next.toLocaleString('en-US')} of ${total} in ${label} within ${Math.round(r.ms / 1000)} s; ` +
        `the rest is not searched yet: go on with computer_find text=${JSON.stringify(text)} from=${r.next + 1})`);
    } else if (off.length === 0) {
      out.push(`(searched all ${total} ${unit}s of ${label}: no other match off-screen)`);
    }
  }
  return out;
}

/** " ← in toolbar "Main" › group" from the nearest named ancestors. */
function breadcrumb(l: SnapshotLine, byRef: Map<string, SnapshotLine>): string {
  const chain: string[] = [];
  let p = l.parent ? byRef.get(l.parent) : undefined;
  while (p && chain.length < 3) {
    if (p.name || p.depth === 0) chain.push(`${p.role}${p.name ? ` ${JSON.stringify(p.name.slice(0, 30))}` : ''} [${p.ref}]`);
    p = p.parent ? byRef.get(p.parent) : undefined;
  }
  return chain.length ? `  ← in ${chain.join(' › ')}` : '';
}
