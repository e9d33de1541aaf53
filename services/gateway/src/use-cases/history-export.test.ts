import { describe, expect, it } from "vitest";
import { csvField } from "./history-export";

describe("csvField", () => {
  it("leaves plain text and numbers as they are, and writes null as an empty field", () => {
    expect(csvField("Ship on Monday")).toBe("Ship on Monday");
    expect(csvField(-0.5)).toBe("-0.5");
    expect(csvField(null)).toBe("");
  });

  it("quotes a field with a comma, quote or line break, doubling its quotes (RFC 4180)", () => {
    expect(csvField("Yes, now")).toBe('"Yes, now"');
    expect(csvField('He said "go"')).toBe('"He said ""go"""');
    expect(csvField("one\r\ntwo")).toBe('"one\r\ntwo"');
  });

  it("defuses a text a spreadsheet would run as a formula", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r"]) expect(csvField(`${start}1+1`)).toMatch(/^"?'/);
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField("a=b")).toBe("a=b");
  });
});
