/**
 * Writes a small text PDF by hand (no network, no converter): one page per entry of `pages`, each a list of
 * lines set in the standard Helvetica font, so poppler (Evince) extracts the text exactly.
 */
import { writeFileSync } from 'node:fs';

/** Escapes a line for a PDF literal string (Latin-1 text only). */
function pdfString(s: string): string {
  return `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** The bytes of a PDF with one page per entry of `pages` (A4, 11 pt Helvetica, 40 lines a page at most). */
export function makePdf(pages: readonly (readonly string[])[]): Buffer {
  const objects: string[] = [];
  // 1: catalog, 2: pages, 3: font; then per page a page object and its content stream.
  const kids = pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  pages.forEach((lines, i) => {
    const ops = [
      'BT',
      '/F1 11 Tf',
      '14 TL',
      '56 780 Td',
      ...lines.map((l, k) => `${k ? 'T* ' : ''}${pdfString(l)} Tj`),
      'ET',
    ].join('\n');
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ` +
        `${5 + i * 2} 0 R >>`,
    );
    objects.push(`<< /Length ${Buffer.byteLength(ops, 'latin1')} >>\nstream\n${ops}\nendstream`);
  });
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out +=
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    `${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Writes `makePdf(pages)` to `path`. */
export function writePdf(path: string, pages: readonly (readonly string[])[]): void {
  writeFileSync(path, makePdf(pages));
}
