import { describe, expect, it } from "vitest";
import { dashboardPeriod, toCsv } from "./admin-dashboard.ts";

describe("toCsv", () => {
  it("writes a header and rows with CRLF line ends", () => {
    expect(toCsv(["day", "turns"], [["2026-11-01", 3]])).toBe("day,turns\r\n2026-11-01,3\r\n");
  });

  it("quotes cells holding commas, quotes or line breaks, doubling the quotes", () => {
    expect(toCsv(["title"], [['The "Queen", again'], ["two\nlines"]])).toBe('title\r\n"The ""Queen"", again"\r\n"two\nlines"\r\n');
  });

  it("defuses text a spreadsheet would run as a formula, and leaves numbers alone", () => {
    expect(toCsv(["x"], [['=HYPERLINK("http://evil")'], ["+1"], ["-2"], ["@SUM(A1)"], [-5]])).toBe(
      'x\r\n"\'=HYPERLINK(""http://evil"")"\r\n\'+1\r\n\'-2\r\n\'@SUM(A1)\r\n-5\r\n',
    );
  });
});

describe("dashboardPeriod", () => {
  it("accepts 7, 30 and 90 days and falls back to 30", () => {
    expect(dashboardPeriod("7")).toBe(7);
    expect(dashboardPeriod("90")).toBe(90);
    expect(dashboardPeriod("365")).toBe(30);
    expect(dashboardPeriod(null)).toBe(30);
  });
});
