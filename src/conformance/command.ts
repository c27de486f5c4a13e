/**
 * The driver command of `doctor --conformance --driver "<command>"`, split into argv the way a POSIX shell
 * splits words (quotes and backslashes), without a shell: the command is run directly, nothing in it is
 * expanded or interpreted.
 */

/** Splits a command line into words; throws on an unclosed quote. */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined; else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) word += line[++i]!;
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') { quote = c; inWord = true; continue; }
    if (c === '\\' && i + 1 < line.length) { word += line[++i]!; inWord = true; continue; }
    if (/\s/.test(c)) {
      if (inWord) { words.push(word); word = ''; inWord = false; }
      continue;
    }
    word += c;
    inWord = true;
  }
  if (quote) throw new Error(`unclosed ${quote} in the driver command`);
  if (inWord) words.push(word);
  return words;
}
