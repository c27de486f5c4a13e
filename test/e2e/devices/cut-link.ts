/**
 * Test helper run on the "remote" end of the ssh link: `node cut-link.js <flag-file> <driver argv...>`. A
 * transparent pipe between the ssh session and the driver, except that while <flag-file> exists, the next
 * `node.act` request is passed to the driver (so the act may happen) and then the ssh session is cut (its sshd
 * process is killed): a link that breaks mid-act, at a known moment.
 */
import { spawn } from 'node:child_process';
import { existsSync, unlinkSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [flag, cmd, ...args] = process.argv.slice(2);
if (!flag || !cmd) { process.stderr.write('usage: cut-link <flag-file> <command> [args...]\n'); process.exit(2); }
const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
let cutting = false;
// The driver's answers go back over the link, except once the cut has begun (the act's answer is lost with it).
child.stdout.on('data', (d: Buffer) => { if (!cutting) process.stdout.write(d); });
child.on('exit', (code) => process.exit(code ?? 1));
createInterface({ input: process.stdin }).on('line', (line) => {
  child.stdin.write(line + '\n');
  if (line.includes('"method":"node.act"') && existsSync(flag)) {
    unlinkSync(flag);
    cutting = true;
    // The act is on its way to the driver; the link is cut before its answer can come back.
    setTimeout(() => { process.kill(process.ppid, 'SIGKILL'); }, 200);
  }
}).on('close', () => { child.stdin.end(); });
