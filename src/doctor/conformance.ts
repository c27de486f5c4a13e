/**
 * `computer-use doctor --conformance --driver "<command>" [--scenarios FILE] [--record FILE] [--json]`: runs
 * the conformance kit (src/conformance/) against any driver process and prints one line per rule. Exit code 0
 * when no rule failed, 1 otherwise, 2 for a usage error.
 */
import { runConformance } from '../conformance/kit.js';
import { formatReport } from '../conformance/report.js';

const USAGE =
  'usage: computer-use doctor --conformance --driver "<command>" [--scenarios FILE | --no-scenarios] ' +
  '[--no-launch] [--record FILE] [--json]\n';

export async function runConformanceCommand(
  args: readonly string[],
  out: NodeJS.WritableStream = process.stdout,
): Promise<number> {
  let driver: string | undefined;
  // Absent: the built-in harnesses; false: none.
  let scenarios: string | false | undefined;
  let record: string | undefined;
  let json = false;
  // The kit serves and opens the harness page and starts the platform's native harness unless told not to.
  let launch = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (): string | undefined => args[++i];
    if (a === '--conformance') continue;
    if (a === '--driver') driver = value();
    else if (a.startsWith('--driver=')) driver = a.slice('--driver='.length);
    else if (a === '--scenarios') scenarios = value();
    else if (a === '--no-scenarios') scenarios = false;
    else if (a === '--record') record = value();
    else if (a === '--json') json = true;
    else if (a === '--no-launch') launch = false;
    else if (a === '-h' || a === '--help') { out.write(USAGE); return 0; }
    else { out.write(`doctor --conformance: unknown argument ${a}\n${USAGE}`); return 2; }
  }
  if (!driver) { out.write(`doctor --conformance: --driver is required\n${USAGE}`); return 2; }
  const report = await runConformance({
    driver,
    ...(scenarios !== undefined ? { scenarios } : {}),
    ...(record ? { record } : {}),
    launch,
  });
  out.write((json ? JSON.stringify(report, null, 2) : formatReport(report)) + '\n');
  return report.ok ? 0 : 1;
}
