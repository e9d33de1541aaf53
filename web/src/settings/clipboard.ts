/** What came of copying a key: copied, the key could not be read from the server, or the clipboard refused. */
export type CopyOutcome = "copied" | "reveal-failed" | "copy-failed";

/** The part of the Clipboard API the copy uses (navigator.clipboard in the page). */
export type ClipboardLike = Pick<Clipboard, "writeText"> & Partial<Pick<Clipboard, "write">>;

/**
 * Copies a secret that may still be on its way from the server. When the browser can, the write
 * starts at once with a promised ClipboardItem, inside the click's user activation: some browsers
 * (Safari) refuse a clipboard write made after an awaited request. Otherwise the text is awaited,
 * then written.
 */
export async function copySecret(
  clipboard: ClipboardLike | undefined,
  secret: Promise<string>,
  makeItem: ((data: Record<string, Promise<Blob>>) => ClipboardItem) | null = typeof ClipboardItem === "function" ? (data) => new ClipboardItem(data) : null,
): Promise<CopyOutcome> {
  // Known before any write, so a failed reveal is never reported as a refused clipboard.
  const revealed = secret.then(
    (text) => ({ ok: true as const, text }),
    () => ({ ok: false as const }),
  );
  if (!clipboard) return (await revealed).ok ? "copy-failed" : "reveal-failed";
  try {
    if (clipboard.write && makeItem) {
      const blob = secret.then((text) => new Blob([text], { type: "text/plain" }));
      await clipboard.write([makeItem({ "text/plain": blob })]);
    } else {
      const outcome = await revealed;
      if (!outcome.ok) return "reveal-failed";
      await clipboard.writeText(outcome.text);
    }
    return "copied";
  } catch {
    return (await revealed).ok ? "copy-failed" : "reveal-failed";
  }
}
