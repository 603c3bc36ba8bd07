/**
 * Test builders: PDFs laid out like the certificates the parser reads (labels in a left column,
 * values in a right one, sections over two pages). Used by specs only; pdf-lib is a dev dependency.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A line of a page: free text, or a label with its value in the value column, or cells at given x positions. */
export type PdfLine = string | [label: string, value: string] | { cells: Array<[x: number, text: string]> };

const TOP = 800;
const LEFT = 50;
const VALUE_COLUMN = 260;
const LINE_HEIGHT = 18;

/** A PDF with the given lines per page; `drawReversed` draws each page's items bottom-up and values before labels. */
export async function buildPdf(pages: PdfLine[][], options: { drawReversed?: boolean } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    const draws: Array<() => void> = [];
    lines.forEach((line, i) => {
      const y = TOP - i * LINE_HEIGHT;
      if (typeof line === 'string') draws.push(() => page.drawText(line, { x: LEFT, y, size: 11, font: bold }));
      else if (Array.isArray(line)) {
        draws.push(() => page.drawText(line[0], { x: LEFT, y, size: 10, font }));
        // A value set in a larger, bold font sits a little off the label's baseline, as on the real forms.
        draws.push(() => page.drawText(line[1], { x: VALUE_COLUMN, y: y - 1, size: 11, font: bold }));
      } else for (const [x, text] of line.cells) draws.push(() => page.drawText(text, { x, y, size: 10, font }));
    });
    (options.drawReversed ? draws.reverse() : draws).forEach((draw) => draw());
  }
  return doc.save();
}

export interface FlemishEpcFixture {
  score?: string | null;
  label?: string | null;
  issued?: string;
  validUntil?: string | null;
  yearBuilt?: string;
}

/** The lines of a Flemish "EPC bestaande woning" (model 2019): identification and score on page 1, the home on page 2. */
export function flemishEpcPages(f: FlemishEpcFixture = {}): PdfLine[][] {
  const page1: PdfLine[] = [
    'ENERGIEPRESTATIECERTIFICAAT',
    'BESTAANDE WONING',
    {
      cells: [
        [LEFT, 'straat: Kerkstraat'],
        [230, 'nummer: 12'],
        [340, 'bus: 3'],
      ],
    },
    {
      cells: [
        [LEFT, 'postnummer: 9000'],
        [230, 'gemeente: Gent'],
      ],
    },
    ['bestemming', 'eengezinswoning'],
    ['type', 'halfopen bebouwing'],
    ['certificaatnummer', '20240312-0003012345-RES-1'],
    ['datum', f.issued ?? '12.03.2024'],
  ];
  if (f.validUntil !== null) page1.push(['geldig tot en met', f.validUntil ?? '12.03.2034']);
  page1.push('Vlaams Energie- en Klimaatagentschap (VEKA)');
  if (f.score !== null) page1.push(['Energiescore', `${f.score ?? '345'} kWh/(m² jaar)`]);
  if (f.label !== null) page1.push(['Label', f.label ?? 'D']);
  page1.push('De schaal loopt van A+ (zeer energiezuinig) tot F (zeer energieverslindend).');
  page1.push(['Bouwjaar', f.yearBuilt ?? '1975']);
  page1.push(['Bruikbare vloeroppervlakte', '152,5 m²']);
  page1.push('Opgemaakt door de energiedeskundige type A.');
  const page2: PdfLine[] = [
    'Uw woning',
    'Dak',
    ['Hellend dak', 'geïsoleerd, dikte 12 cm'],
    ['Buitenmuren', 'niet geïsoleerd'],
    ['Spouwmuur', 'geen isolatie'],
    ['Vloer op volle grond', 'niet geïsoleerd'],
    ['Ramen', 'dubbel glas'],
    'Verwarming',
    'centrale verwarming met een condenserende ketel',
    ['Energiedrager', 'aardgas'],
    ['Sanitair warm water', 'via de verwarmingsketel'],
    ['Ventilatie', 'systeem C: natuurlijke toevoer en mechanische afvoer'],
    ['Zonnepanelen', 'aanwezig, 4,2 kWp'],
    ['Thermische zonne-energie', 'niet aanwezig'],
  ];
  return [page1, page2];
}

export interface DutchLabelFixture {
  label?: string | null;
  ep2?: string | null;
  energyIndex?: string;
  registered?: string;
  validUntil?: string;
}

/** The lines of a Dutch "Energielabel woning" (NTA 8800 model, since 2021). */
export function dutchLabelPages(f: DutchLabelFixture = {}): PdfLine[][] {
  const page: PdfLine[] = [
    'Energielabel woning',
    ['Adres', 'Dorpsstraat 12 A, 1234 AB Utrecht'],
    ['Registratienummer', '0012345678'],
    ['Registratiedatum', f.registered ?? '15-06-2022'],
    ['Geldig tot', f.validUntil ?? '15-06-2032'],
  ];
  if (f.label !== null) page.push(['Energielabel', f.label ?? 'B']);
  if (f.ep2 !== null) page.push(['Primair fossiel energiegebruik', `${f.ep2 ?? '180,5'} kWh/m² per jaar`]);
  if (f.energyIndex) page.push(['Energie-index', f.energyIndex]);
  page.push(
    ['Bouwjaar', '1930'],
    ['Gebruiksoppervlakte', '120 m²'],
    ['Woningtype', 'tussenwoning'],
    ['Verwarming', 'HR-ketel (aardgas)'],
    ['Warm tapwater', 'HR-combiketel'],
    ['Ventilatie', 'mechanische afzuiging'],
    ['Dak', 'Rc 2,5'],
    ['Gevel', 'geen isolatie'],
    ['Vloer', 'Rc 3,7'],
    ['Beglazing', 'HR++ glas'],
    ['Zonnepanelen', 'nee'],
    'Dit energielabel is geregistreerd in EP-Online van de Rijksdienst voor Ondernemend Nederland.',
  );
  return [page];
}

/** The text extractPdfText gives for such pages, for pure parser specs (label and value joined by a space). */
export function textOf(pages: PdfLine[][]): string {
  return pages
    .flat()
    .map((line) =>
      typeof line === 'string' ? line : Array.isArray(line) ? `${line[0]} ${line[1]}` : line.cells.map((c) => c[1]).join(' '),
    )
    .join('\n');
}
