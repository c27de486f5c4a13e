/**
 * adb's shell protocol v2 (the `shell,v2,raw:` service): after OKAY both ways carry packets of one id byte, a
 * little-endian uint32 length and the data. It separates stdout from stderr and ends with the command's exit
 * code, which the old `shell:` service cannot tell.
 */

/** Packet ids (adb's shell_protocol.h). */
export const ShellPacket = { stdin: 0, stdout: 1, stderr: 2, exit: 3, closeStdin: 4, windowSize: 5 } as const;

/** Encodes one packet. */
export function encodePacket(id: number, data: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt8(id, 0);
  head.writeUInt32LE(data.length, 1);
  return Buffer.concat([head, data]);
}

/** What a shell command gave back. */
export interface ShellResult {
  stdout: Buffer;
  stderr: Buffer;
  /** The exit code; undefined when the device has no shell v2 (the legacy service cannot tell it). */
  exitCode: number | undefined;
}

/** The most output one command may return before the read stops (a dump of a long screen is ~1 MiB). */
export const MAX_SHELL_OUTPUT = 32 * 1024 * 1024;

/**
 * Reads packets from `read` (exact-length reads) until the exit packet, keeping stdout and stderr apart.
 * Fails on a malformed packet or output over the cap: both mean the stream can no longer be trusted.
 */
export async function readShellV2(
  read: (n: number) => Promise<Buffer>,
  limit = MAX_SHELL_OUTPUT,
): Promise<ShellResult> {
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  let total = 0;
  for (;;) {
    const head = await read(5);
    const id = head.readUInt8(0);
    const len = head.readUInt32LE(1);
    if (len > limit - total) throw new Error(`shell output over ${limit} bytes`);
    const data = len ? await read(len) : Buffer.alloc(0);
    total += len;
    if (id === ShellPacket.stdout) stdout.push(data);
    else if (id === ShellPacket.stderr) stderr.push(data);
    else if (id === ShellPacket.exit) {
      if (len !== 1) throw new Error(`shell exit packet of ${len} bytes, expected 1`);
      return { stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr), exitCode: data.readUInt8(0) };
    } else if (id !== ShellPacket.windowSize) throw new Error(`unexpected shell packet id ${id}`);
  }
}
