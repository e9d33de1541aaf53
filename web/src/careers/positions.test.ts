import { describe, expect, it } from "vitest";
import { applicationTarget, applyJobHref, DEFAULT_TARGET, POSITIONS } from "./positions";

describe("open positions", () => {
  it("are the specification's three, in Mountain View, full-time", () => {
    expect(POSITIONS.map(({ title, department, experience }) => ({ title, department, experience }))).toEqual([
      { title: "Product and Operations Manager", department: "Product & Operations", experience: "3-5 years" },
      { title: "Account Executives", department: "Sales", experience: "2-4 years" },
      { title: "Software Engineers", department: "Engineering", experience: "2-6 years" },
    ]);
    for (const position of POSITIONS) {
      expect(position).toMatchObject({ location: "Mountain View, CA", type: "Full-time" });
      expect(position.description).not.toBe("");
      for (const list of [position.responsibilities, position.requirements, position.benefits]) expect(list.length).toBeGreaterThanOrEqual(3);
    }
    expect(new Set(POSITIONS.map((p) => p.id)).size).toBe(POSITIONS.length);
  });
});

describe("the application link", () => {
  it("names the position and department in the query, and the page reads them back", () => {
    const href = applyJobHref({ title: "Product and Operations Manager", department: "Product & Operations" });
    expect(href).toBe("/apply-job?position=Product+and+Operations+Manager&department=Product+%26+Operations");
    const query = new URL(href, "http://localhost").searchParams;
    expect(applicationTarget(query)).toEqual({ position: "Product and Operations Manager", department: "Product & Operations" });
  });

  it("falls back to 'Position' and 'Department'", () => {
    expect(applicationTarget(new URLSearchParams())).toEqual(DEFAULT_TARGET);
    expect(applicationTarget(new URLSearchParams("position=%20&department="))).toEqual({ position: "Position", department: "Department" });
  });
});
