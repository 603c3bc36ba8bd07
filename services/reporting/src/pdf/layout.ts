import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';

/** A4 in PDF points, and the margins every page keeps. */
export const PAGE = { width: 595.28, height: 841.89, margin: 48, footer: 30 } as const;
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;

export const INK = rgb(0.13, 0.15, 0.18);
export const MUTED = rgb(0.42, 0.45, 0.5);
export const RULE = rgb(0.82, 0.84, 0.87);
export const ACCENT = rgb(0.05, 0.36, 0.45);
export const SHADE = rgb(0.95, 0.96, 0.97);

const FONT_DIR = new URL('../../data/fonts/', import.meta.url);
let fontBytes: { regular: Uint8Array; bold: Uint8Array } | null = null;

/**
 * fontkit parsed per report was most of a report's time: the two fonts are parsed once per process
 * and pdf-lib gets the parsed font (each embed still makes its own subset, so reports share nothing else).
 */
const parsed = new WeakMap<Uint8Array, ReturnType<typeof fontkit.create>>();
const cachingFontkit: typeof fontkit = {
  ...fontkit,
  create: (data: Uint8Array, postscriptName?: string) => {
    let font = parsed.get(data);
    if (!font) {
      font = fontkit.create(data, postscriptName);
      parsed.set(data, font);
    }
    return font;
  },
};

/** Read once per process: every report embeds a subset of the same two files. */
function fonts(): { regular: Uint8Array; bold: Uint8Array } {
  fontBytes ??= {
    regular: readFileSync(fileURLToPath(new URL('DejaVuSans.ttf', FONT_DIR))),
    bold: readFileSync(fileURLToPath(new URL('DejaVuSans-Bold.ttf', FONT_DIR))),
  };
  return fontBytes;
}

interface Metrics {
  /** Code points both fonts draw. */
  supported: Set<number>;
  /** Advance width per code point, in units of the font size. */
  regular: Map<number, number>;
  bold: Map<number, number>;
}
let fontMetrics: Metrics | null = null;

function metrics(): Metrics {
  if (fontMetrics) return fontMetrics;
  const { regular, bold } = fonts();
  const advances = (bytes: Uint8Array) => {
    const font = cachingFontkit.create(bytes);
    const map = new Map<number, number>();
    for (const code of font.characterSet) map.set(code, font.glyphForCodePoint(code).advanceWidth / font.unitsPerEm);
    return map;
  };
  const r = advances(regular);
  const b = advances(bold);
  fontMetrics = { supported: new Set([...r.keys()].filter((c) => b.has(c))), regular: r, bold: b };
  return fontMetrics;
}

export interface TextStyle {
  size?: number;
  bold?: boolean;
  color?: RGB;
}

/**
 * A PDF being written top to bottom: the current page and a cursor (`y`, from the top edge), with text
 * measuring and wrapping in the embedded fonts. New pages come when the content does not fit.
 */
export class Canvas {
  readonly pages: PDFPage[] = [];
  page!: PDFPage;
  /** Distance from the top edge of the page to where the next content starts. */
  y: number = PAGE.margin;
  private constructor(
    readonly doc: PDFDocument,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
  ) {}

  static async create(title: string, language: string, created: Date): Promise<Canvas> {
    const doc = await PDFDocument.create();
    doc.registerFontkit(cachingFontkit);
    const { regular, bold } = fonts();
    const canvas = new Canvas(doc, await doc.embedFont(regular, { subset: true }), await doc.embedFont(bold, { subset: true }));
    doc.setTitle(canvas.clean(title));
    doc.setLanguage(language);
    doc.setProducer('Renopath');
    doc.setCreator('Renopath');
    if (!Number.isNaN(created.getTime())) {
      doc.setCreationDate(created);
      doc.setModificationDate(created);
    }
    canvas.newPage();
    return canvas;
  }

  newPage(): void {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.pages.push(this.page);
    this.y = PAGE.margin;
  }

  /** The lowest y content may reach before the footer. */
  get bottom(): number {
    return PAGE.height - PAGE.margin - PAGE.footer + 10;
  }

  /** Starts a new page unless `height` more points fit on this one. */
  ensure(height: number): void {
    if (this.y + height > this.bottom) this.newPage();
  }

  font(style: TextStyle): PDFFont {
    return style.bold ? this.bold : this.regular;
  }

  /**
   * Text the fonts can draw: control characters become spaces and a character without a glyph becomes
   * `?` (pdf-lib would throw), so data with an odd character never breaks a report.
   */
  clean(text: string): string {
    let out = '';
    for (const ch of text.replace(/[\r\n\t\f\v]+/g, ' ')) {
      const code = ch.codePointAt(0)!;
      out += metrics().supported.has(code) ? ch : code < 0x20 ? ' ' : '?';
    }
    return out;
  }

  /**
   * The sum of the glyphs' advances: what pdf-lib draws (it does not kern), without the OpenType
   * shaping its own measuring runs on every call, which made measuring most of a report's time.
   */
  width(text: string, style: TextStyle = {}): number {
    const advances = style.bold ? metrics().bold : metrics().regular;
    let units = 0;
    for (const ch of this.clean(text)) units += advances.get(ch.codePointAt(0)!) ?? 0;
    return units * (style.size ?? 10);
  }

  /** Draws one line with its top at `top` (from the page's top edge). */
  text(text: string, x: number, top: number, style: TextStyle = {}): void {
    const size = style.size ?? 10;
    const clean = this.clean(text);
    if (clean.length === 0) return;
    this.page.drawText(clean, {
      x,
      y: PAGE.height - top - size * 0.8,
      size,
      font: this.font(style),
      color: style.color ?? INK,
    });
  }

  /** Right-aligned to `right`. */
  textRight(text: string, right: number, top: number, style: TextStyle = {}): void {
    this.text(text, right - this.width(text, style), top, style);
  }

  textCentered(text: string, center: number, top: number, style: TextStyle = {}): void {
    this.text(text, center - this.width(text, style) / 2, top, style);
  }

  /** Words wrapped to `maxWidth`; a word longer than a line is cut. At most `maxLines`, the last ending in an ellipsis. */
  wrap(text: string, maxWidth: number, style: TextStyle = {}, maxLines = Infinity): string[] {
    const words = this.clean(text)
      .split(/ +/)
      .filter((w) => w.length > 0);
    const lines: string[] = [];
    let line = '';
    const push = (word: string) => {
      const candidate = line ? `${line} ${word}` : word;
      if (this.width(candidate, style) <= maxWidth) {
        line = candidate;
        return;
      }
      if (line) lines.push(line);
      line = '';
      let rest = word;
      while (this.width(rest, style) > maxWidth && rest.length > 1) {
        let cut = rest.length - 1;
        while (cut > 1 && this.width(rest.slice(0, cut), style) > maxWidth) cut--;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    };
    for (const word of words) push(word);
    if (line) lines.push(line);
    if (lines.length <= maxLines) return lines;
    const kept = lines.slice(0, maxLines);
    let last = kept[maxLines - 1]!;
    while (last.length > 0 && this.width(`${last}…`, style) > maxWidth) last = last.slice(0, -1);
    kept[maxLines - 1] = `${last.trimEnd()}…`;
    return kept;
  }

  /** A wrapped paragraph at the cursor, moving it down; breaks pages between lines. */
  paragraph(text: string, style: TextStyle = {}, x: number = PAGE.margin, maxWidth: number = CONTENT_WIDTH, gap = 4): void {
    const size = style.size ?? 10;
    const leading = size * 1.35;
    for (const line of this.wrap(text, maxWidth, style)) {
      this.ensure(leading);
      this.text(line, x, this.y, style);
      this.y += leading;
    }
    this.y += gap;
  }

  /** A section heading; keeps at least `keepWith` points of content with it on the same page. */
  heading(text: string, size = 15, keepWith = 60): void {
    this.ensure(size * 1.6 + keepWith);
    this.text(text, PAGE.margin, this.y, { size, bold: true, color: ACCENT });
    this.y += size * 1.3;
    this.rule();
    this.y += 8;
  }

  rule(x1: number = PAGE.margin, x2: number = PAGE.width - PAGE.margin, color: RGB = RULE, thickness = 0.75): void {
    this.line(x1, this.y, x2, this.y, color, thickness);
  }

  line(x1: number, top1: number, x2: number, top2: number, color: RGB = RULE, thickness = 0.75): void {
    this.page.drawLine({ start: { x: x1, y: PAGE.height - top1 }, end: { x: x2, y: PAGE.height - top2 }, color, thickness });
  }

  /** A rectangle given by its top-left corner (from the page's top edge). */
  rect(x: number, top: number, width: number, height: number, fill?: RGB, border?: RGB): void {
    this.page.drawRectangle({
      x,
      y: PAGE.height - top - height,
      width,
      height,
      ...(fill ? { color: fill } : {}),
      ...(border ? { borderColor: border, borderWidth: 0.75 } : {}),
    });
  }

  circle(x: number, top: number, radius: number, fill: RGB, border?: RGB): void {
    this.page.drawCircle({
      x,
      y: PAGE.height - top,
      size: radius,
      color: fill,
      ...(border ? { borderColor: border, borderWidth: 1 } : {}),
    });
  }

  /** Footer on every page, once the page count is known. */
  footers(left: string, right: (page: number, pages: number) => string): void {
    const total = this.pages.length;
    this.pages.forEach((page, index) => {
      const top = PAGE.height - PAGE.margin + 4;
      this.page = page;
      this.line(PAGE.margin, top - 6, PAGE.width - PAGE.margin, top - 6);
      this.text(left, PAGE.margin, top, { size: 8, color: MUTED });
      this.textRight(right(index + 1, total), PAGE.width - PAGE.margin, top, { size: 8, color: MUTED });
    });
  }
}

/** `#rrggbb` to a pdf-lib colour. */
export function hex(colour: string): RGB {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  if (!m) return rgb(0.6, 0.6, 0.6);
  return rgb(parseInt(m[1]!, 16) / 255, parseInt(m[2]!, 16) / 255, parseInt(m[3]!, 16) / 255);
}
