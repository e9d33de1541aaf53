import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserUnavailable, DESKTOP, MOBILE, overflowingElements, useBrowserApp } from "./support/browser-app";

const app = useBrowserApp();

const SUBMITTED = "Application submitted successfully! Our hiring team will review it and get back to you within 2-3 business days.";
const pdf = (bytes = 2048) => Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(bytes - 9, 0x20)]);
const SE_QUERY = "/apply-job?position=Software+Engineers&department=Engineering";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });
const positionButton = (page: Page, title: string) => page.getByRole("button", { name: title, exact: true });

async function fillValidApplication(page: Page): Promise<void> {
  await page.getByLabel("Full Name").fill("Ada Lovelace");
  await page.getByLabel("Email Address").fill("ada@example.com");
  await page.getByLabel("Phone Number").fill("+44 (20) 7946-0958");
  await page.getByLabel("LinkedIn Profile").fill("https://www.linkedin.com/in/ada");
  await page.getByLabel("Most Incredible Accomplishment").fill("Wrote the first published computer program.");
}

async function expectNoOverflow(page: Page): Promise<void> {
  expect(await overflowingElements(page)).toEqual([]);
}

describe.skipIf(browserUnavailable)("/careers", () => {
  it("shows the hero and the three positions, with their facts", async () => {
    const page = await app.newPage();
    await page.goto("/careers");
    await page.getByRole("heading", { level: 1 }).waitFor();
    const glance = page.getByRole("list", { name: "At a glance" });
    for (const fact of ["Mountain View, CA", "3 Open Positions", "Full-time"]) await glance.getByText(fact, { exact: true }).waitFor();

    const cards = page.locator("article");
    expect(await cards.count()).toBe(3);
    const facts: [string, string, string][] = [
      ["Product and Operations Manager", "Product & Operations", "3-5 years"],
      ["Account Executives", "Sales", "2-4 years"],
      ["Software Engineers", "Engineering", "2-6 years"],
    ];
    for (const [index, [title, department, experience]] of facts.entries()) {
      const card = cards.nth(index);
      expect(await card.getByRole("heading", { level: 3 }).innerText()).toBe(title);
      for (const text of ["Mountain View, CA", "Full-time", department, experience]) await card.getByText(text, { exact: true }).waitFor();
    }
    expect(await page.getByRole("heading", { name: "Why Join Smart Decision?" }).isVisible()).toBe(true);
    expect(await page.locator("#why-join-title + ul > li").count()).toBe(3);
    expect(await page.getByRole("link", { name: "Contact Us" }).getAttribute("href")).toBe("mailto:hello@smartdecision.ai?subject=General%20Application");
  });

  it("opens one card at a time, by mouse or keyboard, and Apply Now names the position and department", async () => {
    const page = await app.newPage();
    await page.goto("/careers");
    const manager = positionButton(page, "Product and Operations Manager");
    const engineers = positionButton(page, "Software Engineers");
    await manager.waitFor();
    expect(await page.getByRole("heading", { name: "Key Responsibilities" }).count()).toBe(0);

    // A click anywhere on the summary toggles it: here, on the description (covered by the title's
    // stretched button, hence `force`: Playwright would otherwise refuse a click the button intercepts).
    await page.getByText("Own the roadmap of our playground").click({ force: true });
    expect(await manager.getAttribute("aria-expanded")).toBe("true");
    const managerDetails = page.locator(`#${await manager.getAttribute("aria-controls")}`);
    for (const heading of ["Key Responsibilities", "Requirements", "Benefits & Perks"]) {
      await managerDetails.getByRole("heading", { name: heading }).waitFor();
    }

    await engineers.focus();
    await page.keyboard.press("Enter");
    expect(await engineers.getAttribute("aria-expanded")).toBe("true");
    expect(await manager.getAttribute("aria-expanded")).toBe("false");
    await managerDetails.waitFor({ state: "hidden" });
    expect(await page.getByRole("link", { name: /Apply Now/ }).count()).toBe(1);

    await engineers.click();
    expect(await engineers.getAttribute("aria-expanded")).toBe("false");
    expect(await page.getByRole("link", { name: /Apply Now/ }).count()).toBe(0);

    await manager.click();
    await page.getByRole("link", { name: /Apply Now/ }).click();
    await page.waitForURL(/\/apply-job\?/);
    const query = new URL(page.url()).searchParams;
    expect(query.get("position")).toBe("Product and Operations Manager");
    expect(query.get("department")).toBe("Product & Operations");
    await page.getByRole("heading", { name: "Apply for Position", level: 1 }).waitFor();
    expect(await page.locator("header dd").allInnerTexts()).toEqual(["Product & Operations", "Product and Operations Manager"]);
  });

  it("scrolls the application page to the top, and 'Back to Careers' returns", async () => {
    const page = await app.newPage(MOBILE);
    await page.goto("/careers");
    await positionButton(page, "Software Engineers").click();
    const apply = page.getByRole("link", { name: /Apply Now/ });
    await apply.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await apply.click();
    await page.getByRole("heading", { name: "Apply for Position" }).waitFor();
    await page.waitForFunction(() => window.scrollY === 0);
    await page.getByRole("link", { name: "Back to Careers" }).click();
    await page.waitForURL(/\/careers$/);
  });
});

describe.skipIf(browserUnavailable)("/apply-job", () => {
  it("defaults to 'Department' and 'Position' and links to careers, home, playground and the API docs", async () => {
    const page = await app.newPage();
    await page.goto("/apply-job");
    await page.getByRole("heading", { name: "Apply for Position" }).waitFor();
    expect(await page.locator("header dd").allInnerTexts()).toEqual(["Department", "Position"]);
    await page.getByText(/hiring team.*2-3 business days/).waitFor();
    const links = page.getByRole("navigation", { name: "More from Smart Decision" }).getByRole("link");
    expect(await links.evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname))).toEqual([
      "/careers",
      "/",
      "/playground",
      "/sd-api",
    ]);
    expect(await page.locator('input[type="file"]').getAttribute("accept")).toBe(".pdf,application/pdf");
  });

  it("shows every field's message on submit, and editing a field clears its own", async () => {
    const page = await app.newPage();
    const storedBefore = await app.stack.store.applications.count();
    await page.goto(SE_QUERY);
    await page.getByRole("button", { name: "Submit Application" }).click();
    await toast(page, "Validation Error").filter({ hasText: "Please fix the errors in the form before submitting" }).waitFor();
    for (const message of [
      "Name is required",
      "Email is required",
      "Phone number is required",
      "LinkedIn profile is required",
      "Most incredible accomplishment is required",
    ]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    // Focus moves to the first field in error, whose message is announced with it.
    const name = page.getByLabel("Full Name");
    expect(await name.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await name.getAttribute("aria-invalid")).toBe("true");

    await name.fill("Ada Lovelace");
    await page.getByText("Name is required").waitFor({ state: "detached" });
    expect(await page.getByText("Email is required").isVisible()).toBe(true);

    await page.getByLabel("Email Address").fill("ada@example");
    await page.getByLabel("Phone Number").fill("0650 555 0100");
    await page.getByLabel("LinkedIn Profile").fill("https://github.com/ada");
    await page.getByLabel("Most Incredible Accomplishment").fill("Computed Bernoulli numbers.");
    await page.getByRole("button", { name: "Submit Application" }).click();
    for (const message of ["Please enter a valid email address", "Please enter a valid phone number", "Please enter a valid LinkedIn profile URL"]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    expect(await page.getByText("Most incredible accomplishment is required").count()).toBe(0);
    expect(await app.stack.store.applications.count()).toBe(storedBefore);
  });

  it("counts the accomplishment's characters, turns orange above 90 and caps at 100", async () => {
    const page = await app.newPage();
    await page.goto(SE_QUERY);
    const field = page.getByLabel("Most Incredible Accomplishment");
    await field.fill("x".repeat(90));
    const counter = page.getByText("90/100 characters", { exact: true });
    await counter.waitFor();
    const calm = await counter.evaluate((el) => getComputedStyle(el).color);
    await field.press("y");
    const warning = page.getByText("91/100 characters", { exact: true });
    await warning.waitFor();
    const orange = await warning.evaluate((el) => getComputedStyle(el).color);
    expect(orange).not.toBe(calm);
    // Tailwind's orange-600, as the browser computes it.
    const reference = await page.evaluate(() => {
      const probe = document.createElement("span");
      probe.style.color = "var(--color-orange-600)";
      document.body.append(probe);
      const color = getComputedStyle(probe).color;
      probe.remove();
      return color;
    });
    expect(orange).toBe(reference);
    await field.fill("z".repeat(120));
    expect((await field.inputValue()).length).toBe(100);
    await page.getByText("100/100 characters", { exact: true }).waitFor();
  });

  it("checks the resume as it is chosen: name, type and size", async () => {
    const page = await app.newPage();
    await page.goto(SE_QUERY);
    const input = page.locator('input[type="file"]');
    await input.waitFor();

    await input.setInputFiles({ name: "cv.docx", mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", buffer: Buffer.from("PK") });
    await toast(page, "Invalid file type").filter({ hasText: "Please upload a PDF file only" }).waitFor();
    expect(await input.evaluate((el) => (el as HTMLInputElement).files?.length)).toBe(0);

    await input.setInputFiles({ name: "cv.pdf", mimeType: "text/plain", buffer: Buffer.from("hello") });
    await toast(page, "Invalid file type").filter({ hasText: "Please upload a valid PDF file" }).waitFor();

    await input.setInputFiles({ name: "big.pdf", mimeType: "application/pdf", buffer: pdf(10 * 1024 * 1024 + 1) });
    await toast(page, "File too large").filter({ hasText: "Please upload a PDF file smaller than 10MB" }).waitFor();
    expect(await input.evaluate((el) => (el as HTMLInputElement).files?.length)).toBe(0);

    await input.setInputFiles({ name: "Ada Lovelace CV.pdf", mimeType: "application/pdf", buffer: pdf() });
    await toast(page, "Resume uploaded").filter({ hasText: "Ada Lovelace CV.pdf" }).waitFor();
    const remove = page.getByRole("button", { name: "Remove Ada Lovelace CV.pdf" });
    await remove.click();
    await remove.waitFor({ state: "detached" });
    expect(await input.evaluate((el) => (el as HTMLInputElement).files?.length)).toBe(0);
  });

  it("sends the application with its PDF, says so, and returns to /careers after 2 seconds", async () => {
    const page = await app.newPage();
    await page.goto(SE_QUERY);
    await fillValidApplication(page);
    await page.locator('input[type="file"]').setInputFiles({ name: "cv.pdf", mimeType: "application/pdf", buffer: pdf(4096) });
    await toast(page, "Resume uploaded").waitFor();

    // Hold the request until 'Processing...' has been seen.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/job-application", async (route) => {
      await released;
      await route.continue();
    });
    const request = page.waitForRequest("**/api/job-application");
    const response = page.waitForResponse("**/api/job-application");
    await page.getByRole("button", { name: "Submit Application" }).click();
    const processing = page.getByRole("button", { name: "Processing..." });
    await processing.waitFor();
    expect(await processing.isDisabled()).toBe(true);
    expect(await page.getByLabel("Full Name").isDisabled()).toBe(true);
    release();

    const body = (await (await request).postDataBuffer())?.toString("latin1") ?? "";
    for (const [field, value] of Object.entries({ name: "Ada Lovelace", position: "Software Engineers", department: "Engineering", email: "ada@example.com" })) {
      expect(body).toContain(`name="${field}"\r\n\r\n${value}\r\n`);
    }
    expect(body).toMatch(/name="resume"; filename="cv\.pdf"\r\nContent-Type: application\/pdf/);

    const answer = (await (await response).json()) as { message: string; application_id: string };
    expect(answer.message).toBe(SUBMITTED);
    await toast(page, SUBMITTED).waitFor();
    const shownAt = Date.now();
    await page.waitForURL(/\/careers$/);
    expect(Date.now() - shownAt).toBeGreaterThan(1500);

    const stored = await app.stack.store.applications.findById(answer.application_id);
    expect(stored).toMatchObject({ name: "Ada Lovelace", position: "Software Engineers", department: "Engineering", resume: { filename: "cv.pdf", size: 4096 } });
  });

  it("keeps the form editable after the server refuses the application, with the server's detail", async () => {
    const page = await app.newPage();
    const storedBefore = await app.stack.store.applications.count();
    await page.goto(`/apply-job?position=${"P".repeat(201)}&department=Engineering`);
    await fillValidApplication(page);
    await page.getByRole("button", { name: "Submit Application" }).click();
    await toast(page, "Error").filter({ hasText: "Position must be at most 200 characters" }).waitFor();
    const submit = page.getByRole("button", { name: "Submit Application" });
    expect(await submit.isEnabled()).toBe(true);
    expect(await page.getByLabel("Full Name").isEditable()).toBe(true);
    expect(await page.getByLabel("Full Name").inputValue()).toBe("Ada Lovelace");
    expect(new URL(page.url()).pathname).toBe("/apply-job");
    expect(await app.stack.store.applications.count()).toBe(storedBefore);
  });

  it("says 'Server error: ...' for an answer that is not JSON, and the generic message when the request fails", async () => {
    const page = await app.newPage();
    await page.goto(SE_QUERY);
    await fillValidApplication(page);
    await page.route("**/api/job-application", (route) => route.fulfill({ status: 502, contentType: "text/html", body: "<h1>Bad Gateway</h1>" }), { times: 1 });
    await page.getByRole("button", { name: "Submit Application" }).click();
    await toast(page, "Server error: 502").waitFor();

    await page.route("**/api/job-application", (route) => route.abort("connectionrefused"), { times: 1 });
    await page.getByRole("button", { name: "Submit Application" }).click();
    await toast(page, "There was an error processing your application. Please try again.").waitFor();
    expect(await page.getByRole("button", { name: "Submit Application" }).isEnabled()).toBe(true);
  });
});

describe.skipIf(browserUnavailable)("layout", () => {
  for (const [label, viewport] of [
    ["phone", MOBILE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`fits a ${label} (${viewport.width} px): careers with a card open, the form with its errors`, async () => {
      const page = await app.newPage(viewport);
      await page.goto("/careers");
      await positionButton(page, "Product and Operations Manager").click();
      await page.getByRole("link", { name: /Apply Now/ }).waitFor();
      await expectNoOverflow(page);
      await page.screenshot({ path: `/tmp/careers-${viewport.width}.png`, fullPage: true });

      await page.goto(`/apply-job?position=${encodeURIComponent("Product and Operations Manager")}&department=${encodeURIComponent("Product & Operations")}`);
      await page.getByLabel("Most Incredible Accomplishment").fill("x".repeat(95));
      await page.locator('input[type="file"]').setInputFiles({ name: `${"a-very-long-resume-file-name-".repeat(4)}.pdf`, mimeType: "application/pdf", buffer: pdf() });
      await page.getByRole("button", { name: "Submit Application" }).click();
      await page.getByText("Name is required").waitFor();
      await expectNoOverflow(page);
      await page.screenshot({ path: `/tmp/apply-job-${viewport.width}.png`, fullPage: true });
    });
  }
});
