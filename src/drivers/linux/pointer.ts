/** Synthetic pointer input on X11 through XTest (xdotool), at screen pixels. */
import type { PointerParams } from '../../protocol/methods.js';
import { xdotool } from './keys.js';

const WHEEL: Record<NonNullable<PointerParams['direction']>, string> = { up: '4', down: '5', left: '6', right: '7' };

/** Sends one pointer action; returns a short description of what was sent. */
export async function sendPointer(p: PointerParams): Promise<string> {
  const at = [String(Math.round(p.x)), String(Math.round(p.y))];
  switch (p.action) {
    case 'move': await xdotool(['mousemove', ...at]); return `move to ${at.join(',')}`;
    case 'click': await xdotool(['mousemove', ...at, 'click', '1']); return `left click at ${at.join(',')}`;
    case 'double_click': await xdotool(['mousemove', ...at, 'click', '--repeat', '2', '--delay', '80', '1']); return `double click at ${at.join(',')}`;
    case 'right_click': await xdotool(['mousemove', ...at, 'click', '3']); return `right click at ${at.join(',')}`;
    case 'middle_click': await xdotool(['mousemove', ...at, 'click', '2']); return `middle click at ${at.join(',')}`;
    case 'scroll': {
      const n = Math.max(1, Math.min(50, Math.round(p.amount ?? 3)));
      await xdotool(['mousemove', ...at, 'click', '--repeat', String(n), '--delay', '30', WHEEL[p.direction ?? 'down']]);
      return `scroll ${p.direction ?? 'down'} ×${n} at ${at.join(',')}`;
    }
    case 'drag': {
      const to = p.to ?? [p.x, p.y];
      const steps = 8;
      const path: string[] = [];
      for (let i = 1; i <= steps; i++) {
        path.push('mousemove', String(Math.round(p.x + ((to[0] - p.x) * i) / steps)), String(Math.round(p.y + ((to[1] - p.y) * i) / steps)), 'sleep', '0.02');
      }
      await xdotool(['mousemove', ...at, 'mousedown', '1', 'sleep', '0.05', ...path, 'sleep', '0.05', 'mouseup', '1']);
      return `drag ${at.join(',')} → ${Math.round(to[0])},${Math.round(to[1])}`;
    }
  }
}
