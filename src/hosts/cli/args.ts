/** The command line's argument splitter, shared by every subcommand and by the hosts' option table. */

/** Splits argv into positionals and --flags (`--k v`, `--k=v`, boolean `--k`). */
export function parseArgs(
  args: string[],
  booleans: readonly string[] = [],
): { pos: string[]; flags: Record<string, string> } {
  const pos: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { pos.push(...args.slice(i + 1)); break; }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) flags[a.slice(2, eq)] = a.slice(eq + 1);
      else if (booleans.includes(a.slice(2)) || i + 1 >= args.length) flags[a.slice(2)] = 'true';
      else flags[a.slice(2)] = args[++i]!;
    } else pos.push(a);
  }
  return { pos, flags };
}

/** True when a command line asks for help (`--help` or `-h` before any `--`): the command then only prints its usage. */
export function asksHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/** The flags a command line may carry before its command, and which of them take a value (all of them today). */
const LEADING_FLAGS = new Set(['--mode', '--allow-app', '--allow-commands', '--deny-app', '--device']);

/**
 * Permission and device flags written before the command (`computer-use --allow-app gedit launch gedit`) are the
 * command's: they move after its name, where every command reads them (for launch: before the app's own words).
 */
export function commandFirst(args: readonly string[]): string[] {
  const lead: string[] = [];
  let i = 0;
  while (i < args.length && LEADING_FLAGS.has(args[i]!.split('=')[0]!)) {
    const a = args[i++]!;
    lead.push(a);
    if (!a.includes('=') && i < args.length) lead.push(args[i++]!);
  }
  if (!lead.length || i >= args.length) return [...args];
  return [args[i]!, ...lead, ...args.slice(i + 1)];
}
