/**
 * `computer-use decider …`: check a decider-model configuration.
 *
 *   decider test --base-url URL --model M [--api-key-env NAME] [--timeout ms] [--json]
 */
import { createOpenAIDecider, testDecider } from '../../policy/decider/index.js';
import { parseArgs } from './args.js';

const USAGE = `usage: computer-use decider test --base-url URL --model M [--api-key-env NAME] [--timeout ms] [--json]
  asks an OpenAI-compatible endpoint one "is this irreversible?" and one "which element?" question and
  reports latency, whether logprobs were used, and the answers. The API key is read from the environment
  variable NAME (never from the command line).`;

/** Runs `computer-use decider <args>` and resolves with the exit code (0 when the decider answered both). */
export async function runDeciderCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h') {
    process.stdout.write(USAGE + '\n');
    return sub === undefined ? 2 : 0;
  }
  if (sub !== 'test') { process.stderr.write(`unknown decider command: ${sub}\n${USAGE}\n`); return 2; }
  const { flags } = parseArgs(rest, ['json']);
  const baseUrl = flags['base-url'];
  const model = flags['model'];
  if (!baseUrl || !model) { process.stderr.write(`${USAGE}\n`); return 2; }
  try { new URL(baseUrl); } catch { process.stderr.write(`invalid --base-url\n`); return 2; }
  const timeoutMs = flags['timeout'] !== undefined ? Number(flags['timeout']) : undefined;
  if (timeoutMs !== undefined && !(timeoutMs > 0)) {
    process.stderr.write('--timeout must be a positive number of ms\n');
    return 2;
  }
  const decider = createOpenAIDecider({
    baseUrl, model,
    ...(flags['api-key-env'] ? { apiKeyEnv: flags['api-key-env'] } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
  const report = await testDecider(decider);
  process.stdout.write(flags['json'] === 'true' ? JSON.stringify(report, null, 2) + '\n' : report.text + '\n');
  return report.ok ? 0 : 1;
}
