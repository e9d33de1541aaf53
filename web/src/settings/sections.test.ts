import { describe, expect, it } from "vitest";
import { sectionFromParam, SETTINGS_SECTIONS } from "./sections";

describe("settings sections", () => {
  it("lists the sidebar's sections in the specification's order", () => {
    expect(SETTINGS_SECTIONS.map((section) => section.label)).toEqual(["API keys", "Webhooks", "Billing", "Limits", "Organization", "Workspaces", "Privacy controls"]);
  });

  it("opens the section named in ?section=, and API keys when none or an unknown one is named", () => {
    expect(sectionFromParam("limits")).toBe("limits");
    expect(sectionFromParam("privacy")).toBe("privacy");
    expect(sectionFromParam("webhooks")).toBe("webhooks");
    expect(sectionFromParam(null)).toBe("api-keys");
    expect(sectionFromParam("")).toBe("api-keys");
    expect(sectionFromParam("toString")).toBe("api-keys");
    expect(sectionFromParam("LIMITS")).toBe("api-keys");
  });
});
