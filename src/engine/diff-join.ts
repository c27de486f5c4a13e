/**
 * Diffs of consecutive steps of one act as one receipt's diff. Refs are stable, so an element the first step added
 * and the second removed nets out (a Save dialog's completion list that came as its file name was typed and left
 * with the Return: the receipt read `+ [e69] scrollarea …` then `- [e69] scrollarea`), as does one removed and then
 * back; a change to an element the second step removed goes with it; one focus line, the last.
 */

/** The ref an added line names, and how deep it sits under the added top (its indent). */
function added(line: string): { ref: string; indent: number } | undefined {
  const m = /^\+ ( *)\[([^\]]+)\] /.exec(line);
  return m ? { ref: m[2]!, indent: m[1]!.length } : undefined;
}

/** The ref a removed or changed line names first (`- [e4] …`, `~ [e4] …`; not a folded `~ 5 elements` line). */
const named = (line: string, sign: '-' | '~'): string | undefined =>
  line.startsWith(`${sign} [`) ? /^. \[([^\]]+)\] /.exec(line)?.[1] : undefined;

/** Lines of `lines` but the added blocks of the refs in `drop` (each with the lines indented under it). */
function withoutAdded(lines: readonly string[], drop: ReadonlySet<string>): string[] {
  const out: string[] = [];
  let under: number | undefined;
  for (const l of lines) {
    const indent = l.startsWith('+ ') ? l.length - 2 - l.slice(2).trimStart().length : -1;
    if (under !== undefined && indent > under) continue;
    const a = added(l);
    under = a && drop.has(a.ref) ? a.indent : undefined;
    if (under === undefined) out.push(l);
  }
  return out;
}

/** The diff lines of two consecutive steps as one: what the first added and the second removed nets out. */
export function joinDiffs(first: readonly string[], second: readonly string[]): string[] {
  const removed2 = new Set(second.map((l) => named(l, '-')).filter((r): r is string => r !== undefined));
  const removed1 = new Set(first.map((l) => named(l, '-')).filter((r): r is string => r !== undefined));
  const added1 = new Set(first.map((l) => added(l)?.ref).filter((r): r is string => r !== undefined));
  const added2 = new Set(second.map((l) => added(l)?.ref).filter((r): r is string => r !== undefined));
  const came = new Set([...added1].filter((r) => removed2.has(r)));
  const back = new Set([...removed1].filter((r) => added2.has(r)));
  const a = withoutAdded(first, came).filter((l) => {
    const r = named(l, '-') ?? named(l, '~');
    return r === undefined || !(back.has(r) || (l.startsWith('~') && removed2.has(r)));
  });
  const b = withoutAdded(second, back).filter((l) => {
    const r = named(l, '-');
    return r === undefined || !came.has(r);
  });
  const focus = [...a, ...b].filter((l) => l.startsWith('focus: ')).pop();
  return [...[...a, ...b].filter((l) => !l.startsWith('focus: ')), ...(focus ? [focus] : [])];
}
