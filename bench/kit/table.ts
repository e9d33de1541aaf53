/** A Markdown table: the first column left-aligned, the others right-aligned. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((width, i) => (i === 0 ? `${"-".repeat(width + 1)}-` : `${"-".repeat(width + 1)}:`)).join("|")}|`);
  for (const row of rows) console.log(line(row));
}

/** One line of a plain-text table: the label padded to `width`, each cell right-aligned in `cellWidth`. */
export const row = (label: string, width: number, cells: string[], cellWidth = 12) => `  ${label.padEnd(width)}${cells.map((c) => c.padStart(cellWidth)).join("")}`;
