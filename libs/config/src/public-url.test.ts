import { describe, expect, it } from "vitest";
import { loadEnv } from "./load";
import { publicUrlOf } from "./public-url";
import { gatewayEnv } from "./schemas";

const publicUrl = (vars: Record<string, string>) => publicUrlOf(loadEnv(gatewayEnv, vars));

describe("the site's public URL when PUBLIC_URL is unset", () => {
  it("follows PORT, so sign-in links point at the port the site really listens on", () => {
    expect(publicUrl({})).toBe("http://127.0.0.1:3000");
    expect(publicUrl({ PORT: "8080" })).toBe("http://127.0.0.1:8080");
  });

  it("is still an address a browser can open when the gateway listens on every interface", () => {
    expect(publicUrl({ HOST: "0.0.0.0", PORT: "8080" })).toBe("http://127.0.0.1:8080");
    expect(publicUrl({ HOST: "::", PORT: "8080" })).toBe("http://127.0.0.1:8080");
  });

  it("uses a HOST that names one address", () => {
    expect(publicUrl({ HOST: "192.168.1.20", PORT: "8080" })).toBe("http://192.168.1.20:8080");
    expect(publicUrl({ HOST: "::1", PORT: "8080" })).toBe("http://[::1]:8080");
  });

  it("is PUBLIC_URL when set, without a trailing slash", () => {
    expect(publicUrl({ PUBLIC_URL: "https://decide.example.com/", PORT: "8080" })).toBe("https://decide.example.com");
  });
});
