/**
 * The session's table of captures (`cN`) and OCR pseudo-elements (`oN`): data only, kept and persisted with the
 * session; visual.ts resolves and acts on them.
 */
import type { WindowInfo } from '../engine/node.js';
import type { CaptureGeometry, OcrLine, Rect } from '../protocol/methods.js';

/** One capture: of which window, when, and how its pixels map to the screen. */
export interface CaptureRecord {
  id: string;
  kind: 'ocr' | 'image';
  window: WindowInfo;
  geometry: CaptureGeometry;
  sha256?: string;
  time: number;
}

/** One OCR pseudo-element. */
export interface OcrElement { ref: string; capture: string; text: string; bounds: Rect; confidence: number }

/** Serialized VisualTable. */
export interface VisualTableJSON { captures: number; ocr: number; records: CaptureRecord[]; elements: OcrElement[] }

/**
 * Captures and OCR refs. Refs are never reused (one counter each); a new capture of a window retires the
 * window's older captures and their `oN` refs, which then fail with stale_ref.
 */
export class VisualTable {
  /** The device prefix of new refs ("d2" → `d2o3`, `d2c1`); '' on the first device. */
  prefix = '';
  private captureCounter = 0;
  private ocrCounter = 0;
  private readonly records = new Map<string, CaptureRecord>();
  private readonly elements = new Map<string, OcrElement>();

  add(kind: CaptureRecord['kind'], window: WindowInfo, geometry: CaptureGeometry, sha256?: string): CaptureRecord {
    for (const [id, r] of this.records) {
      if (r.window.id !== window.id) continue;
      this.records.delete(id);
      for (const [ref, e] of this.elements) if (e.capture === id) this.elements.delete(ref);
    }
    const rec: CaptureRecord = {
      id: `${this.prefix}c${++this.captureCounter}`,
      kind,
      window,
      geometry,
      time: Date.now(),
      ...(sha256 ? { sha256 } : {}),
    };
    this.records.set(rec.id, rec);
    return rec;
  }

  addOcr(capture: CaptureRecord, lines: readonly OcrLine[]): OcrElement[] {
    return lines.map((l) => {
      const e: OcrElement = {
        ref: `${this.prefix}o${++this.ocrCounter}`,
        capture: capture.id,
        text: l.text,
        bounds: l.bounds,
        confidence: l.confidence,
      };
      this.elements.set(e.ref, e);
      return e;
    });
  }

  capture(id: string): CaptureRecord | undefined { return this.records.get(id); }
  ocr(ref: string): OcrElement | undefined { return this.elements.get(ref); }

  toJSON(): VisualTableJSON {
    return {
      captures: this.captureCounter,
      ocr: this.ocrCounter,
      records: [...this.records.values()],
      elements: [...this.elements.values()],
    };
  }

  static fromJSON(j: VisualTableJSON): VisualTable {
    const t = new VisualTable();
    t.captureCounter = j.captures;
    t.ocrCounter = j.ocr;
    for (const r of j.records) t.records.set(r.id, r);
    for (const e of j.elements) t.elements.set(e.ref, e);
    return t;
  }
}
