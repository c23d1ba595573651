/**
 * The results as an SVG chart: per case, requests per second of each backend beside its bare
 * floor (the same bytes from a bare Fastify route), and p99 latency against the 100 ms target; each
 * with the answer cache as shipped and without it ("computed").
 */
export interface ChartRow {
  name: string;
  backend: string;
  requestsPerSecond: number;
  floorRequestsPerSecond: number;
  p99: number;
}

// "computed": the server without the answer cache, every call computed
const COLOURS: Record<string, string> = { sqlite: '#2f6db5', 'sqlite, computed': '#93b4dc', postgres: '#d9822b', 'postgres, computed': '#efc08f' };
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function resultsChart(rows: ChartRow[], title: string, targetP99 = 100): string {
  const names = [...new Set(rows.map((r) => r.name))];
  const backends = [...new Set(rows.map((r) => r.backend))];
  const barHeight = 9;
  const rowHeight = backends.length * (barHeight + 2) + 8;
  const labelWidth = 170;
  const panelWidth = 360;
  const gap = 60;
  const top = 74;
  const height = top + names.length * rowHeight + 40;
  const width = labelWidth + panelWidth * 2 + gap + 30;
  const maxRps = Math.max(1, ...rows.map((r) => Math.max(r.requestsPerSecond, r.floorRequestsPerSecond)));
  const maxP99 = Math.max(targetP99 * 1.5, ...rows.map((r) => r.p99));
  // a log scale keeps both a 10 MB file and a tiny list readable
  const rpsX = (v: number) => (Math.log10(Math.max(1, v)) / Math.log10(maxRps * 1.2)) * panelWidth;
  const p99X = (v: number) => (Math.min(v, maxP99) / maxP99) * panelWidth;
  const leftPanel = labelWidth;
  const rightPanel = labelWidth + panelWidth + gap;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" ` +
      `font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">${escape(title)}</text>`,
    `<text x="${leftPanel}" y="60">requests/s (log scale; grey: bare Fastify floor, same bytes)</text>`,
    `<text x="${rightPanel}" y="60">p99 latency, ms (red line: ${targetP99} ms target)</text>`,
  ];
  backends.forEach((b, i) => {
    // the legend on its own line under the title
    const x = 10 + i * 130;
    parts.push(`<rect x="${x}" y="30" width="10" height="10" fill="${COLOURS[b] ?? '#666'}"/><text x="${x + 14}" y="39">${escape(b)}</text>`);
  });
  for (const [i, name] of names.entries()) {
    const y0 = top + i * rowHeight;
    if (i % 2 === 0) parts.push(`<rect x="0" y="${y0 - 2}" width="${width}" height="${rowHeight}" fill="#f4f6f8"/>`);
    parts.push(`<text x="${labelWidth - 8}" y="${y0 + rowHeight / 2}" text-anchor="end" dominant-baseline="middle">${escape(name)}</text>`);
    for (const [j, backend] of backends.entries()) {
      const r = rows.find((x) => x.name === name && x.backend === backend);
      if (!r) continue;
      const y = y0 + j * (barHeight + 2) + 2;
      const colour = COLOURS[backend] ?? '#666';
      parts.push(`<rect x="${leftPanel}" y="${y}" width="${rpsX(r.floorRequestsPerSecond).toFixed(1)}" height="${barHeight}" fill="#d0d4d9"/>`);
      parts.push(`<rect x="${leftPanel}" y="${y + 2}" width="${rpsX(r.requestsPerSecond).toFixed(1)}" height="${barHeight - 4}" fill="${colour}"/>`);
      parts.push(
        `<text x="${leftPanel + rpsX(Math.max(r.requestsPerSecond, r.floorRequestsPerSecond)) + 4}" y="${y + barHeight - 1}" ` +
          `font-size="9">${Math.round(r.requestsPerSecond)}</text>`,
      );
      parts.push(`<rect x="${rightPanel}" y="${y}" width="${p99X(r.p99).toFixed(1)}" height="${barHeight}" fill="${colour}"/>`);
      parts.push(`<text x="${rightPanel + p99X(r.p99) + 4}" y="${y + barHeight - 1}" font-size="9">${r.p99}</text>`);
    }
  }
  const targetX = rightPanel + p99X(targetP99);
  parts.push(`<line x1="${targetX}" y1="${top - 6}" x2="${targetX}" y2="${height - 30}" stroke="#c0392b" stroke-width="1.5"/>`);
  for (const panel of [leftPanel, rightPanel]) parts.push(`<line x1="${panel}" y1="${top - 6}" x2="${panel}" y2="${height - 30}" stroke="#333"/>`);
  parts.push('</svg>');
  return parts.join('\n');
}
