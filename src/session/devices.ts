/**
 * Many devices in one conversation: one Session per device (its driver link, refs, windows,
 * policy), and the rule that picks the session a tool call means.
 *
 * Refs are unique across devices and parse unambiguously: the first device keeps plain refs (`e14`, `w2`,
 * `o3`), so every output and test of a one-device setup is unchanged; device N ≥ 2 prefixes them with `dN`
 * (`d2e14`, `d2w1`). A call goes to the device its refs name, else to the `device` it names, else to the
 * device used last (at first the first one). Refs of two devices in one call, or a ref that disagrees with
 * `device`, are refused before anything is sent.
 */
import { ComputerUseError } from '../protocol/errors.js';
import type { Session } from './session.js';

/** One device and its session. */
export interface DeviceEntry {
  /** "local" for this machine, else the name given at `device add`. */
  name: string;
  /** 1-based position; refs of device N ≥ 2 start with `dN`. */
  index: number;
  kind: 'local' | 'ssh' | 'paired' | 'adb' | 'command' | 'fake';
  /** The address (ssh://…; where a paired device is awaited, ws://…), for listings. */
  url?: string;
  session: Session;
}

/** The ref prefix of the device at a 1-based position. */
export const devicePrefix = (index: number): string => (index <= 1 ? '' : `d${index}`);

/** Fields of tool params that hold a ref or a window ref. */
const REF_FIELDS = ['ref', 'scope', 'capture'] as const;

/** The device index a ref names: `d2e14` → 2, `e14` → 1; undefined for text that is not a ref. */
export function refDevice(ref: string): number | undefined {
  const m = /^(?:d(\d{1,3}))?[a-z]\d{1,14}(?::[A-Za-z]{1,3}\d{1,7})?$/.exec(ref);
  if (!m) return undefined;
  return m[1] === undefined ? 1 : Number(m[1]);
}

/** Every device index named by the refs in a tool call's params. */
function indexesIn(params: Record<string, unknown>): Set<number> {
  const out = new Set<number>();
  const add = (v: unknown): void => {
    if (typeof v === 'string') {
      const i = refDevice(v);
      if (i !== undefined) out.add(i);
    }
  };
  for (const k of REF_FIELDS) add(params[k]);
  // A window given by ref names its device; a window given by title does not.
  const w = params['window'];
  if (typeof w === 'string' && /^(?:d\d{1,3})?w\d+$/.test(w)) add(w);
  const actions = params['actions'];
  if (Array.isArray(actions))
    for (const a of actions) if (a && typeof a === 'object') add((a as Record<string, unknown>)['ref']);
  return out;
}

/** The sessions of every device of a computer, and which one a call goes to. */
export class DeviceSessions {
  private lastUsed: DeviceEntry;

  constructor(readonly entries: readonly DeviceEntry[]) {
    if (entries.length === 0) throw new Error('a computer needs at least one device');
    this.lastUsed = entries[0]!;
  }

  /** The device a name (`lab`, case-insensitive) or a prefix (`d2`) means. */
  byName(name: string): DeviceEntry | undefined {
    const want = name.trim().toLowerCase();
    const m = /^d(\d{1,3})$/.exec(want);
    if (m) return this.entries.find((e) => e.index === Number(m[1]));
    return this.entries.find((e) => e.name.toLowerCase() === want);
  }

  /** The device used last (the default of a call that names none). */
  get last(): DeviceEntry { return this.lastUsed; }

  /**
   * Picks the device of a call and remembers it as the last used. Throws unknown_device or invalid_params
   * (nothing sent) when the call names a device that does not exist or two devices at once.
   */
  pick(params: Record<string, unknown>): DeviceEntry {
    const byRefs = [...indexesIn(params)];
    const named = typeof params['device'] === 'string' ? params['device'] : undefined;
    let entry: DeviceEntry | undefined;
    if (named !== undefined) {
      entry = this.byName(named);
      if (!entry)
        throw new ComputerUseError(
          'unknown_device',
          `No device is named ${JSON.stringify(named.slice(0, 40))}. Devices: ${this.names()}.`,
        );
    }
    if (byRefs.length > 1) {
      throw new ComputerUseError(
        'invalid_params',
        `This call mixes refs of ${byRefs.length} devices (` +
          `${byRefs.map((i) => this.entries.find((e) => e.index === i)?.name ?? `d${i}`).join(', ')}); ` +
          'one call acts on one device. Nothing was sent; split it into one call per device.',
      );
    }
    if (byRefs.length === 1) {
      const i = byRefs[0]!;
      const fromRef = this.entries.find((e) => e.index === i);
      if (!fromRef)
        throw new ComputerUseError(
          'unknown_device',
          `The ref names device d${i}, which is not connected in this session. Devices: ${this.names()}. Call ` +
            `computer_apps.`,
        );
      if (entry && entry !== fromRef) {
        throw new ComputerUseError(
          'invalid_params',
          `The refs belong to device ${fromRef.name}, not ${entry.name}. Nothing was sent; drop \`device\` ` +
            `or use refs of ${entry.name}.`,
        );
      }
      entry = fromRef;
    }
    entry ??= this.lastUsed;
    this.lastUsed = entry;
    return entry;
  }

  /** "local, lab (d2)" for messages. */
  names(): string {
    return this.entries.map((e) => (e.index === 1 ? e.name : `${e.name} (${devicePrefix(e.index)})`)).join(', ');
  }

  /** Closes every device's session. */
  async close(): Promise<void> {
    await Promise.all(this.entries.map((e) => e.session.close().catch(() => undefined)));
  }
}
