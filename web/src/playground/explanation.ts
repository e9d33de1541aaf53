/**
 * "Why this decision?" as lines: the server writes the outcome first, then one short line per
 * model, separated by "\n". Blank lines and surrounding spaces are dropped; an explanation from an
 * older server (one paragraph) is one line.
 */
export function explanationLines(explanation: string | undefined): string[] {
  return (explanation ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}
