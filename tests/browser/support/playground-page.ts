import type { Locator, Page, Request } from "playwright-core";

/** The decision endpoints the playground posts to. */
export const PUBLIC_DECISION_PATH = "/api/ensembled-llm-categorical-decision-public";

/** The body the playground posts (the ensemble options only when changed). */
export interface DecisionBody {
  question: string;
  categories: string[];
  images?: string[];
  request_id: string;
  ensemble_mode?: string;
  models?: string[];
  early_quorum?: boolean;
  max_rounds?: number;
  judge_model?: string;
}

export const isPost = (path: string) => (request: Request) => request.method() === "POST" && new URL(request.url()).pathname === path;

/** The playground's controls and results, as a user finds them (by role and label). */
export function playground(page: Page) {
  const rows = page.getByRole("list", { name: "Model responses" });
  return {
    question: page.getByLabel("Question"),
    choiceInput: page.getByLabel("Choices", { exact: true }),
    addButton: page.getByRole("button", { name: "Add", exact: true }),
    choices: page.getByRole("list", { name: "Your choices" }).getByRole("listitem"),
    suggestButton: page.getByRole("button", { name: "AI Suggestions" }),
    submitButton: page.getByRole("button", { name: "Get AI Decision" }),
    fileInput: page.locator('input[type="file"]'),
    thumbnails: page.getByRole("list", { name: "Attached images" }).getByRole("img"),
    /** The row whose text contains `label`. */
    row: (label: string): Locator => rows.getByRole("listitem").filter({ hasText: label }),
    /** The rows of the list (not the gossip history entries inside them). */
    rows: rows.locator(":scope > li"),
    /** The row labelled exactly `label` (a judge's row is "Judge: <label>", so never the same model's panel row). */
    rowNamed: (label: string): Locator => rows.locator(":scope > li").filter({ has: page.getByText(label, { exact: true }) }),
    finalCard: page.locator("div").filter({ has: page.getByRole("heading", { name: "Final Decision" }) }).last(),
    toast: (text: string): Locator => page.locator("[data-sonner-toast]").filter({ hasText: text }).first(),
    ensemble: {
      /** The collapsed section's summary: clicking it opens or closes the controls. */
      toggle: page.locator("summary").filter({ hasText: "Ensemble" }),
      mode: (label: string): Locator => page.getByRole("radio", { name: new RegExp(`^${label}`) }),
      model: (label: string): Locator => page.getByRole("group", { name: "Panel" }).getByRole("checkbox", { name: label, exact: true }),
      earlyQuorum: page.getByRole("switch", { name: "Early quorum" }),
      rounds: page.getByRole("combobox", { name: "Maximum rounds" }),
      judge: page.getByRole("combobox", { name: "Judge", exact: true }),
    },
  };
}
export type PlaygroundUi = ReturnType<typeof playground>;

export async function openPlayground(page: Page): Promise<PlaygroundUi> {
  await page.goto("/playground");
  const ui = playground(page);
  await ui.question.waitFor();
  return ui;
}

export async function addChoices(ui: PlaygroundUi, ...choices: string[]): Promise<void> {
  for (const choice of choices) {
    await ui.choiceInput.fill(choice);
    await ui.choiceInput.press("Enter");
  }
}
