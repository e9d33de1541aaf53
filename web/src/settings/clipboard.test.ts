import { describe, expect, it } from "vitest";
import { copySecret, type ClipboardLike } from "./clipboard";

/** A clipboard that keeps what is written, as a browser's would; `refuse` makes it reject like a denied permission. */
class MemoryClipboard implements ClipboardLike {
  text: string | null = null;
  constructor(private readonly refuse = false) {}
  async writeText(text: string): Promise<void> {
    if (this.refuse) throw new DOMException("Write permission denied.", "NotAllowedError");
    this.text = text;
  }
}

/** The same, also taking ClipboardItems whose data is still a promise (Chromium, Safari). */
class ItemClipboard extends MemoryClipboard {
  async write(items: ClipboardItems): Promise<void> {
    const blob = await (items[0] as unknown as { data: Record<string, Promise<Blob>> }).data["text/plain"]!;
    await this.writeText(await blob.text());
  }
}
const makeItem = (data: Record<string, Promise<Blob>>) => ({ data }) as unknown as ClipboardItem;

const failedReveal = () => Promise.reject(new Error("HTTP 500"));

describe("copying a key that is read from the server", () => {
  it("writes the secret with a promised clipboard item when the browser takes one", async () => {
    const clipboard = new ItemClipboard();
    expect(await copySecret(clipboard, Promise.resolve("sd_live_abc"), makeItem)).toBe("copied");
    expect(clipboard.text).toBe("sd_live_abc");
  });

  it("writes the text once it arrives when the browser has only writeText", async () => {
    const clipboard = new MemoryClipboard();
    expect(await copySecret(clipboard, Promise.resolve("sd_live_xyz"), null)).toBe("copied");
    expect(clipboard.text).toBe("sd_live_xyz");
  });

  it("says the reveal failed (not the clipboard) when the server does not give the key, either way", async () => {
    const items = new ItemClipboard();
    expect(await copySecret(items, failedReveal(), makeItem)).toBe("reveal-failed");
    const plain = new MemoryClipboard();
    expect(await copySecret(plain, failedReveal(), null)).toBe("reveal-failed");
    expect(await copySecret(undefined, failedReveal(), null)).toBe("reveal-failed");
    expect([items.text, plain.text]).toEqual([null, null]);
  });

  it("says the copy failed when the clipboard refuses or is not there", async () => {
    expect(await copySecret(new ItemClipboard(true), Promise.resolve("sd_live_abc"), makeItem)).toBe("copy-failed");
    expect(await copySecret(new MemoryClipboard(true), Promise.resolve("sd_live_abc"), null)).toBe("copy-failed");
    expect(await copySecret(undefined, Promise.resolve("sd_live_abc"), null)).toBe("copy-failed");
  });
});
