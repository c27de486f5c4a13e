/**
 * "Ghost clicks": on a real Mac, AXPress on an element of an app that is not frontmost can answer success and do
 * nothing (seen with several AppKit and web-content apps). A press's success is therefore never its proof: the
 * host confirms an act only by a change it reads afterwards. When the element itself shows no change and its app
 * is in the background, the driver says so in the act's detail, so the receipt tells the model why it stays
 * `unknown` and what to check, instead of the model taking a dispatched press for a done one.
 */
import type { RawNode } from '../../engine/node.js';

/** Whether a node reads the same before and after an act (states, value, name). */
export function sameNode(a: RawNode, b: RawNode): boolean {
  const states = (n: RawNode): string => [...n.states].sort().join(',');
  return states(a) === states(b) && (a.value ?? '') === (b.value ?? '') && (a.name ?? '') === (b.name ?? '');
}

/**
 * The note for a press that answered success on an element that did not change while its app was not frontmost,
 * else ''. `frontmost` is the pid of the frontmost app, when known.
 */
export function ghostPressNote(action: string | undefined, before: RawNode, after: RawNode | undefined, pid: number,
  frontmost: number | undefined): string {
  if (action !== 'AXPress' || !after || frontmost === pid || !sameNode(before, after)) return '';
  return '; the app is in the background, where macOS may answer a press as done and do nothing (a ghost click): ' +
    'nothing on the element changed, so only a change seen in the window counts; if none shows, observe again, ' +
    'and activate the window before repeating it';
}
