import { describe, expect, it } from "vitest";
import { WebhookUrlError, checkWebhookUrl, isForbiddenAddress } from "./url-safety";

const strict = { allowPrivate: false };
const lenient = { allowPrivate: true };

async function refusal(url: string, options = strict): Promise<string> {
  try {
    await checkWebhookUrl(url, options);
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookUrlError);
    return (error as Error).message;
  }
  throw new Error(`${url} was accepted`);
}

describe("isForbiddenAddress", () => {
  it.each([
    "127.0.0.1",
    "127.1.2.3",
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "169.254.169.254",
    "169.254.1.1",
    "100.64.0.1",
    "0.0.0.0",
    "255.255.255.255",
    "224.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd00:ec2::254",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "::127.0.0.1",
    "[::1]",
    "not an address",
  ])("refuses %s", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each(["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("allows public %s", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe("checkWebhookUrl", () => {
  it("accepts a public https URL given as an IP literal (no DNS needed)", async () => {
    await expect(checkWebhookUrl("https://93.184.216.34/hooks", strict)).resolves.toBeUndefined();
    await expect(checkWebhookUrl("https://[2606:4700:4700::1111]/hooks", strict)).resolves.toBeUndefined();
  });

  it.each([
    "https://127.0.0.1/",
    "https://0.0.0.0/",
    "https://[::1]/",
    "https://[::ffff:127.0.0.1]/",
    "https://[::ffff:a9fe:a9fe]/",
    "https://2130706433/",
    "https://0x7f000001/",
    "https://017700000001/",
    "https://127.1/",
    "https://169.254.169.254/latest/meta-data",
    "https://[fd00:ec2::254]/",
    "https://10.1.2.3/",
    "https://100.64.1.1/",
  ])("refuses the internal address in %s", async (url) => {
    expect(await refusal(url)).toMatch(/internal address/);
  });

  it("refuses a name that resolves to loopback (every resolved address is checked)", async () => {
    expect(await refusal("https://localhost:8443/hook")).toMatch(/"localhost" resolves to an internal address \((127\.0\.0\.1|::1)\)/);
  });

  it("refuses an unresolvable host with a clear message", async () => {
    expect(await refusal("https://no-such-host.invalid/hook")).toMatch(/could not be resolved/);
  });

  it("requires https unless private URLs are allowed", async () => {
    expect(await refusal("http://93.184.216.34/")).toBe("The webhook URL must use https://.");
    await expect(checkWebhookUrl("http://127.0.0.1:9999/hook", lenient)).resolves.toBeUndefined();
  });

  it("refuses other schemes and credentials even when private URLs are allowed", async () => {
    expect(await refusal("ftp://example.com/", lenient)).toMatch(/must start with https/);
    expect(await refusal("file:///etc/passwd", lenient)).toMatch(/must start with https/);
    expect(await refusal("https://user:pw@example.com/", lenient)).toMatch(/user name or password/);
    expect(await refusal("https://token@example.com/", lenient)).toMatch(/user name or password/);
    expect(await refusal("not a url", lenient)).toMatch(/not a valid absolute URL/);
  });
});
