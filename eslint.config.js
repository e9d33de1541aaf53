import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", "data/**", "web/dist/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  // Only libs/queue knows BullMQ: everything else gets plain data from @sd/queue (tests, helpers from @sd/queue/testing).
  {
    files: ["**/*.{ts,tsx}"],
    ignores: ["libs/queue/**"],
    rules: { "no-restricted-imports": ["error", { paths: [{ name: "bullmq", message: "Only libs/queue knows BullMQ: use @sd/queue, or @sd/queue/testing in a test." }] }] },
  },
  { files: ["web/**/*.{ts,tsx}"], languageOptions: { globals: { ...globals.browser } } },
  // Browser tests run in Node and drive the page through Playwright.
  { files: ["tests/browser/**/*.ts"], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
);
