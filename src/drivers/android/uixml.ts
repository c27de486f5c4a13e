/**
 * Parses what `uiautomator dump` writes: `<hierarchy rotation="0">` holding nested `<node …/>` elements whose
 * attributes are the AccessibilityNodeInfo facts (class, package, text, resource-id, content-desc, the boolean
 * states and `bounds="[l,t][r,b]"`). The text comes from the phone's apps, so it is untrusted: the parser knows
 * only this shape, caps depth and node count, and fails on anything else instead of guessing.
 */

/** One node of a dump, its attributes typed. */
export interface UiNode {
  /** The view's class (`android.widget.Button`, `androidx.compose.ui.platform.ComposeView`, …). */
  className: string;
  packageName: string;
  text: string;
  resourceId: string;
  contentDesc: string;
  /** The on-screen rectangle [left, top, right, bottom] in physical pixels. */
  bounds: [number, number, number, number];
  checkable: boolean; checked: boolean; clickable: boolean; enabled: boolean; focusable: boolean; focused: boolean;
  scrollable: boolean; longClickable: boolean; password: boolean; selected: boolean;
  /** Hint text (API 26+ dumps carry it as `hint`), when present. */
  hint?: string;
  /** The `index` attribute: the node's position among its siblings. */
  index: number;
  children: UiNode[];
}

/** A parsed dump. */
export interface UiDump { rotation: number; roots: UiNode[] }

/** Limits against a hostile or broken dump. */
export const UIXML_LIMITS = { depth: 200, nodes: 50_000, bytes: 32 * 1024 * 1024 } as const;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes XML character and entity references; an unknown entity is an error (the dump never writes one). */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]+);/g, (_, ref: string) => {
    if (ref.startsWith('#')) {
      const cp = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      if (!Number.isInteger(cp) || cp < 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        throw new Error(`bad character reference &${ref};`);
      return String.fromCodePoint(cp);
    }
    const v = ENTITIES[ref];
    if (v === undefined) throw new Error(`unknown entity &${ref};`);
    return v;
  });
}

function toNode(attrs: Map<string, string>): UiNode {
  const b = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/.exec(attrs.get('bounds') ?? '');
  const flag = (k: string): boolean => attrs.get(k) === 'true';
  const node: UiNode = {
    className: attrs.get('class') ?? '',
    packageName: attrs.get('package') ?? '',
    text: attrs.get('text') ?? '',
    resourceId: attrs.get('resource-id') ?? '',
    contentDesc: attrs.get('content-desc') ?? '',
    bounds: b ? [Number(b[1]), Number(b[2]), Number(b[3]), Number(b[4])] : [0, 0, 0, 0],
    checkable: flag('checkable'), checked: flag('checked'), clickable: flag('clickable'), enabled: flag('enabled'),
    focusable: flag('focusable'), focused: flag('focused'), scrollable: flag('scrollable'),
    longClickable: flag('long-clickable'), password: flag('password'), selected: flag('selected'),
    index: Number(attrs.get('index') ?? 0) || 0,
    children: [],
  };
  const hint = attrs.get('hint');
  if (hint) node.hint = hint;
  return node;
}

/** Parses one dump. Text before `<?xml` or after `</hierarchy>` (uiautomator's "dumped to" line) is ignored. */
export function parseUiDump(xml: string): UiDump {
  if (xml.length > UIXML_LIMITS.bytes)
    throw new Error(`dump of ${xml.length} bytes is over the ${UIXML_LIMITS.bytes} cap`);
  const start = xml.indexOf('<hierarchy');
  if (start < 0) throw new Error('no <hierarchy> in the dump');
  const tag = /<(\/?)([A-Za-z][\w-]*)((?:\s+[\w:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|<\?[^>]*\?>|<!--[\s\S]*?-->/g;
  const attr = /([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  tag.lastIndex = start;
  const stack: UiNode[] = [];
  const roots: UiNode[] = [];
  let rotation = 0;
  let count = 0;
  let inHierarchy = false;
  let pos = start;
  for (let m = tag.exec(xml); m; m = tag.exec(xml)) {
    if (xml.slice(pos, m.index).trim() !== '') throw new Error(`unexpected text in the dump at offset ${pos}`);
    pos = tag.lastIndex;
    const [, close, name, rawAttrs = '', selfClose] = m;
    if (!name) continue; // a processing instruction or a comment
    if (name === 'hierarchy') {
      if (close) { if (stack.length) throw new Error('</hierarchy> inside an open node'); return { rotation, roots }; }
      inHierarchy = true;
      rotation = Number(/rotation\s*=\s*"(\d+)"/.exec(rawAttrs)?.[1] ?? 0);
      if (selfClose) return { rotation, roots };
      continue;
    }
    if (name !== 'node' || !inHierarchy) throw new Error(`unexpected <${close}${name}> in the dump`);
    if (close) { if (!stack.pop()) throw new Error('</node> without an open node'); continue; }
    if (++count > UIXML_LIMITS.nodes) throw new Error(`dump of more than ${UIXML_LIMITS.nodes} nodes`);
    const attrs = new Map<string, string>();
    attr.lastIndex = 0;
    for (let a = attr.exec(rawAttrs); a; a = attr.exec(rawAttrs)) attrs.set(a[1]!, decodeEntities(a[2] ?? a[3] ?? ''));
    const node = toNode(attrs);
    const parent = stack[stack.length - 1];
    (parent ? parent.children : roots).push(node);
    if (!selfClose) {
      if (stack.length >= UIXML_LIMITS.depth) throw new Error(`dump nested deeper than ${UIXML_LIMITS.depth}`);
      stack.push(node);
    }
  }
  throw new Error('the dump ends before </hierarchy>');
}
