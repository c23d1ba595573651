/**
 * Bar and line charts drawn on the server as inline SVG: no script and no chart library, so they
 * render under the pages' script policy, without JavaScript, and in any browser. Colours and sizes
 * are presentation attributes, not style attributes, which the style policy ('self') would refuse.
 * A drawing scales to its column, text with it, so a chart is drawn twice, narrow for a phone and
 * wide for a desktop, and the stylesheet shows the one that fits (text stays about the same size on
 * both). The numbers are in the table beside every chart, which the chart's description points to.
 */
import { html, type SafeHtml } from '../html.js';

export interface Series {
  name: string;
  /** one value per label; null leaves a gap */
  values: (number | null)[];
  colour: string;
}

export interface ChartInput {
  /** unique on the page: the chart's title and description are labelled by it */
  id: string;
  title: string;
  /** where the numbers are written out, for those who cannot see the chart */
  description: string;
  /** short labels under the axis (e.g. "Jan") */
  labels: string[];
  /** long labels for the hover titles (e.g. "January 2026") */
  longLabels: string[];
  bars?: Series[];
  lines?: Series[];
  /** how a value reads in a hover title */
  format: (value: number) => string;
  height?: number;
  /** width of the drawing, in the units of its text (9 to 11 high) */
  width?: number;
  /** label every nth month only, when the drawing is too narrow for all of them */
  labelEvery?: number;
}

export const COLOURS = { blue: '#0b5cad', orange: '#b45309', green: '#1d6b3a', purple: '#6b3fa0', grey: '#52606d' } as const;

const PAD = { left: 40, right: 6, top: 8, bottom: 18 };

/** Round steps (1, 2, 2.5, 5 × a power of ten) from below the lowest value (or 0) to above the highest. */
export function axisTicks(values: number[], wanted = 4): number[] {
  let lo = Math.min(0, ...values);
  let hi = Math.max(0, ...values);
  if (lo === hi) hi = lo + 1;
  const raw = (hi - lo) / wanted;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * magnitude >= raw)! * magnitude;
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(Math.round(v / step) * step);
  return ticks;
}

/** "12k", "1.5M", "-300": short enough for the axis. */
export function compactNumber(value: number): string {
  const abs = Math.abs(value);
  const [scaled, unit] = abs >= 1e9 ? [value / 1e9, 'bn'] : abs >= 1e6 ? [value / 1e6, 'M'] : abs >= 1e3 ? [value / 1e3, 'k'] : [value, ''];
  return `${Number(scaled.toFixed(Math.abs(scaled) < 10 && unit ? 1 : 0))}${unit}`;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** A chart for every width: the narrow and the wide drawing (only one is shown), then one legend. */
export function responsiveChart(input: ChartInput): SafeHtml {
  return html`<div class="chart-narrow">${svgChart({
    ...input,
    id: `${input.id}-narrow`,
    width: 300,
    height: 190,
    labelEvery: Math.max(input.labelEvery ?? 1, 2),
  })}</div>
<div class="chart-wide">${svgChart({ ...input, width: 640, height: 230 })}</div>
${legend(input)}`;
}

/** A chart of one width, with its legend: for a column that is as narrow on a desktop as on a phone. */
export function smallChart(input: ChartInput): SafeHtml {
  return html`${svgChart(input)}${legend(input)}`;
}

function svgChart(input: ChartInput): SafeHtml {
  const width = input.width ?? 300;
  const height = input.height ?? 180;
  const every = input.labelEvery ?? 1;
  const size = width > 400 ? 11 : 10;
  const bars = input.bars ?? [];
  const lines = input.lines ?? [];
  const all = [...bars, ...lines].flatMap((s) => s.values.filter((v): v is number => v !== null));
  const ticks = axisTicks(all);
  const lo = ticks[0]!;
  const hi = ticks[ticks.length - 1]!;
  const plotW = width - PAD.left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const y = (v: number) => round(PAD.top + ((hi - v) / (hi - lo)) * plotH);
  const band = plotW / Math.max(1, input.labels.length);
  const centre = (i: number) => round(PAD.left + band * (i + 0.5));
  const tip = (s: Series, i: number, v: number) => `${input.longLabels[i] ?? input.labels[i]}, ${s.name}: ${input.format(v)}`;

  const grid = ticks.map(
    (t) => html`<line x1="${PAD.left}" x2="${width - PAD.right}" y1="${y(t)}" y2="${y(t)}" stroke="${t === 0 ? COLOURS.grey : '#d5dbe1'}"
      stroke-width="${t === 0 ? 1 : 0.5}"/>
<text x="${PAD.left - 4}" y="${y(t) + 3}" text-anchor="end" font-size="${size}" fill="${COLOURS.grey}">${compactNumber(t)}</text>`,
  );
  // counted from the last month, so the latest always has its label
  const labelled = (i: number) => (input.labels.length - 1 - i) % every === 0;
  const xLabels = input.labels.map((l, i) =>
    labelled(i) ? html`<text x="${centre(i)}" y="${height - 5}" text-anchor="middle" font-size="${size}" fill="${COLOURS.grey}">${l}</text>` : '',
  );
  const groupW = band * 0.7;
  const barW = groupW / Math.max(1, bars.length);
  const barMarks = bars.flatMap((s, k) =>
    s.values.map((v, i) => {
      if (v === null) return '';
      const x = round(PAD.left + band * i + (band - groupW) / 2 + barW * k);
      const top = y(Math.max(v, 0));
      return html`<rect x="${x}" y="${top}" width="${round(barW - 0.5)}" height="${Math.max(0.5, round(y(Math.min(v, 0)) - top))}"
        fill="${s.colour}"><title>${tip(s, i, v)}</title></rect>`;
    }),
  );
  const lineMarks = lines.map((s) => {
    // a gap (null) breaks the line into separate runs
    const runs: string[][] = [[]];
    s.values.forEach((v, i) => (v === null ? runs.push([]) : runs[runs.length - 1]!.push(`${centre(i)},${y(v)}`)));
    const paths = runs
      .filter((r) => r.length > 1)
      .map((r) => html`<polyline points="${r.join(' ')}" fill="none" stroke="${s.colour}" stroke-width="1.5" stroke-linejoin="round"/>`);
    const dots = s.values.map((v, i) =>
      v === null ? '' : html`<circle cx="${centre(i)}" cy="${y(v)}" r="2.2" fill="${s.colour}"><title>${tip(s, i, v)}</title></circle>`,
    );
    return html`${paths}${dots}`;
  });
  return html`<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${input.id}-title ${input.id}-desc"
    xmlns="http://www.w3.org/2000/svg">
<title id="${input.id}-title">${input.title}</title>
<desc id="${input.id}-desc">${input.description}</desc>
${grid}${xLabels}${barMarks}${lineMarks}
</svg>`;
}

function legend(input: ChartInput): SafeHtml {
  const items = [...(input.bars ?? []).map((s) => ({ s, bar: true })), ...(input.lines ?? []).map((s) => ({ s, bar: false }))];
  return html`<ul class="legend">${items.map(
    ({ s, bar }) =>
      html`<li><svg width="14" height="10" viewBox="0 0 14 10" aria-hidden="true">${
        bar
          ? html`<rect x="2" y="1" width="10" height="8" fill="${s.colour}"/>`
          : html`<line x1="0" x2="14" y1="5" y2="5" stroke="${s.colour}" stroke-width="2"/><circle cx="7" cy="5" r="2.5" fill="${s.colour}"/>`
      }</svg>${s.name}</li>`,
  )}</ul>`;
}
