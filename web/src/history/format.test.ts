import { describe, expect, it } from "vitest";
import {
  categoryOptions,
  confidenceBadge,
  decisionModels,
  distinctRawResponse,
  downloadFileName,
  formatKb,
  formatLocalTime,
  formatProcessingTime,
  formatRelativeTime,
  imageTitle,
  modelName,
  modelUsage,
  stepImage,
  responseText,
  splitOnCapitals,
  voteRows,
} from "./format";

describe("processing time", () => {
  it("shows ms under 1000 and seconds with 2 decimals from 1000", () => {
    expect(formatProcessingTime(0)).toBe("0ms");
    expect(formatProcessingTime(999)).toBe("999ms");
    expect(formatProcessingTime(999.6)).toBe("1000ms");
    expect(formatProcessingTime(1000)).toBe("1.00s");
    expect(formatProcessingTime(1234)).toBe("1.23s");
    expect(formatProcessingTime(61_005)).toBe("61.01s");
  });

  it("shows 'Unknown' when the time is missing or not a time", () => {
    expect(formatProcessingTime(null)).toBe("Unknown");
    expect(formatProcessingTime(undefined)).toBe("Unknown");
    expect(formatProcessingTime(Number.NaN)).toBe("Unknown");
    expect(formatProcessingTime(-1)).toBe("Unknown");
  });
});

describe("relative time", () => {
  const now = Date.parse("2024-05-10T12:00:00.000Z");
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it("is 'Just now' under a minute, then minutes, hours and days, each rounded down", () => {
    expect(formatRelativeTime(ago(0), now)).toBe("Just now");
    expect(formatRelativeTime(ago(59_999), now)).toBe("Just now");
    expect(formatRelativeTime(ago(60_000), now)).toBe("1m ago");
    expect(formatRelativeTime(ago(59 * 60_000 + 59_999), now)).toBe("59m ago");
    expect(formatRelativeTime(ago(60 * 60_000), now)).toBe("1h ago");
    expect(formatRelativeTime(ago(23 * 3_600_000 + 3_599_999), now)).toBe("23h ago");
    expect(formatRelativeTime(ago(24 * 3_600_000), now)).toBe("1d ago");
    expect(formatRelativeTime(ago(45 * 24 * 3_600_000), now)).toBe("45d ago");
  });

  it("reads a time slightly in the future as 'Just now'", () => {
    expect(formatRelativeTime(new Date(now + 5_000).toISOString(), now)).toBe("Just now");
  });

  it("shows 'Unknown time' for an invalid or missing time", () => {
    expect(formatRelativeTime("not a date", now)).toBe("Unknown time");
    expect(formatRelativeTime("", now)).toBe("Unknown time");
    expect(formatRelativeTime(null, now)).toBe("Unknown time");
  });
});

describe("local time", () => {
  it("formats the instant in the given zone and locale", () => {
    expect(formatLocalTime("2024-05-01T22:30:00.000Z", "en-US", "UTC")).toBe("May 1, 2024, 10:30 PM");
    expect(formatLocalTime("2024-05-01T22:30:00.000Z", "en-US", "Asia/Tokyo")).toBe("May 2, 2024, 7:30 AM");
  });

  it("shows 'Unknown time' for an invalid time", () => {
    expect(formatLocalTime("yesterday-ish")).toBe("Unknown time");
    expect(formatLocalTime(undefined)).toBe("Unknown time");
  });
});

describe("confidence badge", () => {
  it("is a rounded percentage: green at 0.8 or above, yellow at 0.6 or above, red below", () => {
    expect(confidenceBadge(0.8)).toEqual({ text: "80%", tone: "high" });
    expect(confidenceBadge(1)).toEqual({ text: "100%", tone: "high" });
    expect(confidenceBadge(0.799)).toEqual({ text: "80%", tone: "medium" });
    expect(confidenceBadge(0.6)).toEqual({ text: "60%", tone: "medium" });
    expect(confidenceBadge(0.5999)).toEqual({ text: "60%", tone: "low" });
    expect(confidenceBadge(0.125)).toEqual({ text: "13%", tone: "low" });
    expect(confidenceBadge(0)).toEqual({ text: "0%", tone: "low" });
  });

  it("is absent when the model gave no confidence", () => {
    expect(confidenceBadge(null)).toBeNull();
    expect(confidenceBadge(undefined)).toBeNull();
  });
});

describe("model names", () => {
  it("splits an unknown provider id on capital letters", () => {
    expect(splitOnCapitals("deepSeek")).toBe("deep Seek");
    expect(splitOnCapitals("openai")).toBe("openai");
    expect(splitOnCapitals("llamaThreeOne")).toBe("llama Three One");
  });

  it("prefers the provider's label when the server listed it", () => {
    const labels = new Map([["openai", "OpenAI GPT-4o"]]);
    expect(modelName("openai", labels)).toBe("OpenAI GPT-4o");
    expect(modelName("deepSeek", labels)).toBe("deep Seek");
  });
});

describe("responses", () => {
  it("says 'No response' for a null or empty response", () => {
    expect(responseText(null)).toBe("No response");
    expect(responseText("")).toBe("No response");
    expect(responseText("  ")).toBe("No response");
    expect(responseText("Yes")).toBe("Yes");
  });

  it("keeps the raw response only when it differs from the response", () => {
    expect(distinctRawResponse("Yes", "Yes")).toBeNull();
    expect(distinctRawResponse("Yes", "yes.")).toBe("yes.");
    expect(distinctRawResponse(null, "garbled")).toBe("garbled");
    expect(distinctRawResponse("Yes", null)).toBeNull();
    expect(distinctRawResponse("Yes", "")).toBeNull();
  });

  it("lists every model a decision mentions, responses first", () => {
    expect(
      decisionModels({
        individual_responses: { openai: "A", gemini: null },
        raw_responses: {},
        confidence_scores: { openai: 0.9 },
        model_versions: { openai: "gpt", claude: "sonnet" },
        error_details: { deepSeek: "timeout" },
      }),
    ).toEqual(["openai", "gemini", "claude", "deepSeek"]);
  });
});

describe("vote results", () => {
  it("sorts by count, most first, keeping the offered order among ties, with 0 for unvoted categories", () => {
    const rows = voteRows({ categories: ["A", "B", "C", "D"], vote_counts: { A: 1, B: 2, C: 1 }, total_votes: 4 });
    expect(rows.map((r) => [r.category, r.count, r.label, r.share])).toEqual([
      ["B", 2, "2 votes", 0.5],
      ["A", 1, "1 vote", 0.25],
      ["C", 1, "1 vote", 0.25],
      ["D", 0, "0 votes", 0],
    ]);
  });

  it("has no bar when nobody voted", () => {
    expect(voteRows({ categories: ["A"], vote_counts: { A: 0 }, total_votes: 0 })[0]!.share).toBe(0);
  });

  it("keeps a \"__proto__\" category as data", () => {
    const rows = voteRows({ categories: ["__proto__", "B"], vote_counts: JSON.parse('{"__proto__": 2, "B": 1}') as Record<string, number>, total_votes: 3 });
    expect(rows.map((r) => [r.category, r.count])).toEqual([["__proto__", 2], ["B", 1]]);
  });
});

describe("category filter options", () => {
  it("offers every category and final decision seen, once, sorted", () => {
    const options = categoryOptions([
      { categories: ["Yes", "No"], final_decision: "Yes" },
      { categories: ["Tea", "Coffee"], final_decision: null },
      { categories: ["Left"], final_decision: "Right" },
    ]);
    expect(options).toEqual(["Coffee", "Left", "No", "Right", "Tea", "Yes"]);
  });

  it("keeps the chosen category offered", () => {
    expect(categoryOptions([], "Yes")).toEqual(["Yes"]);
  });
});

describe("image files", () => {
  it("shows sizes in KB", () => {
    expect(formatKb(2048)).toBe("2.0 KB");
    expect(formatKb(1536)).toBe("1.5 KB");
  });

  it("names a download after its label and type", () => {
    expect(downloadFileName("image1", "image/png")).toBe("image1.png");
    expect(downloadFileName("image2", "image/jpeg")).toBe("image2.jpg");
    expect(downloadFileName("image3", "image/svg+xml")).toBe("image3.svg");
    expect(downloadFileName("image4", "application/octet-stream")).toBe("image4.jpg");
  });
});

describe("image names and the viewer's steps", () => {
  it("names the stored labels image1, image2, ... as Image 1, Image 2, ...; any other label as stored", () => {
    expect(imageTitle("image1", 0)).toBe("Image 1");
    expect(imageTitle("image10", 9)).toBe("Image 10");
    expect(imageTitle("holiday.jpg", 0)).toBe("holiday.jpg");
    expect(imageTitle("  ", 2)).toBe("Image 3");
  });

  it("steps to the previous and next image within the images, and nowhere past either end", () => {
    expect(stepImage(0, 3, 1)).toBe(1);
    expect(stepImage(2, 3, -1)).toBe(1);
    expect(stepImage(2, 3, 1)).toBeNull();
    expect(stepImage(0, 3, -1)).toBeNull();
    expect(stepImage(0, 1, 1)).toBeNull();
  });
});

describe("model usage", () => {
  const base = {
    individual_responses: { openai: "Yes", claude: null },
    model_versions: { openai: "gpt-4o", claude: "claude-sonnet-4-6 (simulated)" },
    error_details: { claude: "timeout" },
    confidence_scores: {},
    raw_responses: {},
  };

  it("gives each model its tokens, latency and cost, and says which were simulated", () => {
    const rows = modelUsage({
      ...base,
      token_usage: { openai: { input_tokens: 120, output_tokens: 40 }, claude: null },
      model_latencies_ms: { openai: 820, claude: null },
      model_costs_usd: { openai: 0.0007, claude: 0 },
    });
    expect(rows).toEqual([
      { id: "openai", tokens: { input: 120, output: 40 }, latencyMs: 820, costUsd: 0.0007, simulated: false },
      { id: "claude", tokens: null, latencyMs: null, costUsd: 0, simulated: true },
    ]);
  });

  it("gives a decision stored before latencies and per-model costs were kept no figures", () => {
    expect(modelUsage({ ...base, token_usage: {}, model_latencies_ms: {}, model_costs_usd: {} })[0]).toEqual({ id: "openai", tokens: null, latencyMs: null, costUsd: 0, simulated: false });
  });
});
