/**
 * Quoting for the phone's shell. The adb server passes a shell command to the device as one string, and adbd
 * runs it with `/system/bin/sh -c` (mksh on every Android since 4.0): the real `adb` client joins its arguments
 * with spaces and quotes nothing, so `adb shell input text "a b"` types "a" alone. Every word the driver sends is
 * quoted here, once, and test/unit/android-quote runs the result through Debian's mksh to prove it parses back.
 */

/**
 * One word for mksh: single quotes keep every byte literal (`$`, backquotes, `\`, newlines, UTF-8), and a single
 * quote inside is written as `'\''`. NUL cannot be passed through a shell at all, so it is refused.
 */
export function quoteWord(word: string): string {
  if (word.includes('\0')) throw new Error('a NUL byte cannot be passed to the device shell');
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command line of literal words: the program, then its arguments, each quoted. */
export function shellCommand(argv: readonly string[]): string {
  if (argv.length === 0) throw new Error('empty command');
  return argv.map(quoteWord).join(' ');
}
