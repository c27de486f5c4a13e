/**
 * Keysym → keycode planning on the X keyboard mapping (pure: the tests feed it recorded maps). A keysym found
 * in column 0 of a keycode is typed plainly, in column 1 with shift: so "T" is shift + the t key and case is
 * kept. A keysym on no key ("ä", "中" on a US map) is bound for the moment to a spare keycode, as xdotool does,
 * and the binding is undone later.
 */
/** The core keyboard mapping: row i lists the keysyms of keycode `minKeycode + i`. */
export interface KeyMap { minKeycode: number; rows: number[][] }

/** How to produce one keysym: which key, and whether shift must be held. */
export interface KeyStroke { keycode: number; shift: boolean }

/** A keycode bound to a keysym for the time of a send. */
export interface Binding { keycode: number; keysym: number }

/** Keysyms sent in one go: the bindings to make first, then a stroke per keysym. */
export interface Batch { bind: Binding[]; strokes: KeyStroke[] }

/** Where a keysym sits on the map: the lowest column (0 before 1), then the lowest keycode; columns 0-1 only. */
export function findKeysym(map: KeyMap, keysym: number): KeyStroke | undefined {
  for (const col of [0, 1]) {
    for (let i = 0; i < map.rows.length; i++) {
      if (map.rows[i]?.[col] === keysym) return { keycode: map.minKeycode + i, shift: col === 1 };
    }
  }
  return undefined;
}

/** Keycodes with no keysym at all, highest first (the ones keyboards never have). */
export function spareKeycodes(map: KeyMap): number[] {
  const out: number[] = [];
  for (let i = map.rows.length - 1; i >= 0; i--) {
    if ((map.rows[i] ?? []).every((k) => k === 0)) out.push(map.minKeycode + i);
  }
  return out;
}

/**
 * Plans the strokes for a keysym sequence. Keysyms on the map are used where they are. The others get a
 * spare keycode each (`ours` are keycodes bound by an earlier send, reusable); when the spares run out a new
 * batch starts, whose bindings replace the previous ones.
 */
export function planBatches(
  map: KeyMap,
  keysyms: readonly number[],
  ours: ReadonlyMap<number, number> = new Map(),
): Batch[] {
  const free = [...new Set([...ours.keys(), ...spareKeycodes(map)])];
  const current = new Map(ours); // keycode → keysym as the server will have it, batch after batch
  const batches: Batch[] = [];
  let batch: Batch = { bind: [], strokes: [] };
  let assigned = new Map<number, number>(); // keysym → keycode within this batch
  let taken = new Set<number>();
  for (const ks of keysyms) {
    const onMap = findOnMap(map, ks, ours);
    if (onMap) { batch.strokes.push(onMap); continue; }
    let keycode = assigned.get(ks);
    if (keycode === undefined) {
      keycode = [...current].find(([kc, v]) => v === ks && !taken.has(kc))?.[0];
      if (keycode === undefined) {
        if (free.length === 0) throw new Error('the keyboard map has no spare keycode to bind a character to');
        keycode = free.find((kc) => !taken.has(kc));
        if (keycode === undefined) {
          batches.push(batch);
          batch = { bind: [], strokes: [] };
          assigned = new Map();
          taken = new Set();
          keycode = free[0]!;
        }
        batch.bind.push({ keycode, keysym: ks });
        current.set(keycode, ks);
      }
      assigned.set(ks, keycode);
      taken.add(keycode);
    }
    batch.strokes.push({ keycode, shift: false });
  }
  batches.push(batch);
  return batches;
}

/** A keysym on the map, except on keycodes this driver bound itself (those are handled as bindings). */
function findOnMap(map: KeyMap, keysym: number, ours: ReadonlyMap<number, number>): KeyStroke | undefined {
  const hit = findKeysym(map, keysym);
  return hit && !ours.has(hit.keycode) ? hit : undefined;
}
